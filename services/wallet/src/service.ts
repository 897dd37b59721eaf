// The gRPC adapter: decode, call the wallet, encode. Rules live in domain/, storage in the stores.
import {
  callEnded,
  callerOf,
  OneAtATime,
  InvalidArgumentError,
  NotFoundError,
  UnavailableError,
  unary,
  type Logger,
  type UnaryHandler,
} from "@pokerodds/common";
import { LEDGER_PAGE_DEFAULT, LEDGER_PAGE_MAX, requirePlayerId } from "@pokerodds/common/limits";
import { isDatabaseOutage } from "@pokerodds/common/mongo";
import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import type { Movement, WalletServiceServer } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { auditLedger } from "./audit.js";
import type { RequestableKind } from "./domain/movement.js";
import { findProfile, findPersonalTable, personalTableOwner, readProfile, type WalletParts } from "./profiles.js";
import {
  auditToProto,
  claimsFromProto,
  ledgerEntryToProto,
  movementFromProto,
  outcomeToProto,
  profileToProto,
} from "./proto-mapping.js";

/** `databaseReady`: false until the unique indexes exist; every RPC is UNAVAILABLE until then. */
export function walletService(wallet: WalletParts, logger: Logger, databaseReady: () => boolean): WalletServiceServer {
  const rpc = <Req, Res>(name: string, handler: UnaryHandler<Req, Res>) =>
    unary(logger, name, guardDatabase(databaseReady, handler));
  // An audit reads the whole ledger: a second one while it runs is refused, not stacked.
  const audits = new OneAtATime("an audit is running on this wallet replica; retry when it ends");
  const movement = (name: string, kind: RequestableKind) =>
    rpc(name, async (request: { movement?: Movement | undefined }) => ({
      result: outcomeToProto(await wallet.movements.record(movementFromProto(kind, request.movement))),
    }));

  return {
    getProfile: rpc("GetProfile", async (request) => ({
      profile: profileToProto(await readProfile(wallet, claimsFromProto(request.claims))),
    })),

    // The table asks for the names a seat shows; only the gateway (an ADMIN reading a player) gets
    // the username too, an e-mail address at some identity providers.
    getPlayer: rpc("GetPlayer", async (request, { call }) => {
      const profile = await findProfile(wallet, requirePlayerId("player id", request.playerId));
      if (!profile) throw new NotFoundError(`no player ${request.playerId}`);
      const seesUsername = callerOf(call)?.includes("gateway") ?? false;
      return { profile: profileToProto(seesUsername ? profile : { ...profile, username: "" }) };
    }),

    getPersonalTable: rpc("GetPersonalTable", async (request) => {
      const tableId = await findPersonalTable(wallet, requirePlayerId("player id", request.playerId));
      return tableId === null ? {} : { tableId };
    }),

    getPersonalTableOwner: rpc("GetPersonalTableOwner", async (request) => {
      const owner =
        request.tableId >= FIRST_PERSONAL_TABLE_ID ? await personalTableOwner(wallet, request.tableId) : null;
      if (owner === null) throw new NotFoundError(`table ${request.tableId} is nobody's personal table`);
      return { playerId: owner };
    }),

    getBalance: rpc("GetBalance", async (request) => {
      const playerId = requirePlayerId("player id", request.playerId);
      const head = await wallet.ledger.head(playerId);
      if (!head) throw new NotFoundError(`no account for player ${playerId}`);
      return { playerId, accountBalanceCents: head.balanceAfterCents };
    }),

    debit: movement("Debit", "debit"),
    credit: movement("Credit", "credit"),
    deposit: movement("Deposit", "deposit"),
    withdraw: movement("Withdraw", "withdraw"),

    listLedger: rpc("ListLedger", async (request) => {
      const playerId = requirePlayerId("player id", request.playerId);
      const limit = request.limit === 0 ? LEDGER_PAGE_DEFAULT : request.limit;
      if (!Number.isInteger(limit) || limit < 1 || limit > LEDGER_PAGE_MAX)
        throw new InvalidArgumentError(`limit must be from 1 to ${LEDGER_PAGE_MAX}`);
      if (!Number.isSafeInteger(request.afterSequence) || request.afterSequence < 0) {
        throw new InvalidArgumentError("after_sequence must not be negative");
      }
      const before = request.beforeSequence ?? null;
      if (before !== null && (!Number.isSafeInteger(before) || before < 1)) {
        throw new InvalidArgumentError("before_sequence must be a sequence number (1 or more)");
      }
      // One more than asked says whether another page follows.
      const entries = request.newestFirst
        ? await wallet.ledger.pageBefore(playerId, before, limit + 1)
        : await wallet.ledger.page(playerId, request.afterSequence, limit + 1);
      if (entries.length === 0 && !(await wallet.ledger.head(playerId)))
        throw new NotFoundError(`no account for player ${playerId}`);
      const page = entries.slice(0, limit);
      const next = entries.length > limit ? page[page.length - 1]!.sequence : 0;
      return {
        entries: page.map(ledgerEntryToProto),
        nextAfterSequence: request.newestFirst ? 0 : next,
        nextBeforeSequence: request.newestFirst ? next : 0,
      };
    }),

    audit: rpc("Audit", (_request, { call }) =>
      audits.run(async () => auditToProto(await auditLedger(wallet.ledger, wallet.players, callEnded(call)))),
    ),
  };
}

/**
 * A database that is not set up or cannot be reached is the 503 decisions.md asks for, not an
 * internal error. An error the server itself answered is not an outage.
 */
function guardDatabase<Req, Res>(
  databaseReady: () => boolean,
  handler: UnaryHandler<Req, Res>,
): UnaryHandler<Req, Res> {
  return async (request, context) => {
    if (!databaseReady()) throw new UnavailableError("the wallet database is not ready");
    try {
      return await handler(request, context);
    } catch (error) {
      if (isDatabaseOutage(error)) {
        context.logger.warn({ err: error }, "request failed: the database is unavailable");
        throw new UnavailableError("the wallet database is unavailable");
      }
      throw error;
    }
  };
}
