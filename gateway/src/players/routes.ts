import { Type } from "@sinclair/typebox";
import { actingPlayerId, callerFor, claimsOf, identityOf } from "../auth/caller.js";
import { bodyValidator } from "@pokerodds/api/validate";
import { DEADLINES_MS, callOptions, fromService } from "../http/backend-call.js";
import type { Handlers } from "../http/mount.js";
import type { TableApi, WalletApi } from "../services.js";
import {
  type playersApi,
  ACCOUNT_STATEMENT_DEFAULT_LIMIT,
  ACCOUNT_STATEMENT_MAX_LIMIT,
  PlayerIdParam,
} from "@pokerodds/api/players";
import { CANONICAL_ID } from "@pokerodds/api/fields";
import type { Request } from "express";
import { badRequest } from "../http/errors.js";
import { STATEMENT_PAGE_READS, type SpendHistoryReads } from "../http/edge.js";
import { toAccountStatement, toPlayerProfile, toPlayerSeats } from "./to-api.js";

const validatePath = bodyValidator(Type.Object({ playerId: PlayerIdParam }));

/** One query parameter in plain decimal digits from 1, given at most once; undefined when absent. */
function positiveQuery(req: Request, name: "before" | "limit"): number | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !CANONICAL_ID.test(value)) {
    throw badRequest(`${name} must be an integer from 1, in plain decimal digits, given at most once`);
  }
  return Number(value);
}

/** The statement's page: `before` beyond any sequence means from the newest, as no `before` does. */
function statementPage(req: Request): { beforeSequence?: number; limit: number } {
  const before = positiveQuery(req, "before");
  const limit = positiveQuery(req, "limit") ?? ACCOUNT_STATEMENT_DEFAULT_LIMIT;
  if (limit > ACCOUNT_STATEMENT_MAX_LIMIT) throw badRequest(`limit must be from 1 to ${ACCOUNT_STATEMENT_MAX_LIMIT}`);
  return { ...(before !== undefined && before <= Number.MAX_SAFE_INTEGER && { beforeSequence: before }), limit };
}

export function playerRoutes(
  wallet: WalletApi,
  table: TableApi,
  spendHistoryReads: SpendHistoryReads,
): Handlers<typeof playersApi> {
  return {
    /**
     * GET /api/players/{playerId}: the caller's own profile (created with the welcome balance on first
     * read, names and role from the token), or, for an ADMIN, any existing player's (404 if none).
     */
    getPlayer: async (req, res) => {
      const { playerId } = validatePath({ playerId: req.params.playerId });
      const identity = identityOf(res);
      const { profile } =
        actingPlayerId(identity, playerId) === identity.playerId
          ? await fromService(
              "wallet",
              wallet.getProfile({ claims: claimsOf(identity) }, callOptions(req, DEADLINES_MS.moneyMove)),
            )
          : await fromService("wallet", wallet.getPlayer({ playerId }, callOptions(req, DEADLINES_MS.read)));
      res.json(toPlayerProfile(profile));
    },
    /** GET /api/players/{playerId}/seats: where the player's chips are, for the player or an ADMIN. */
    getPlayerSeats: async (req, res) => {
      const { playerId } = validatePath({ playerId: req.params.playerId });
      const identity = identityOf(res);
      const caller = callerFor(identity, actingPlayerId(identity, playerId));
      const { seats } = await fromService("table", table.listSeats({ caller }, callOptions(req, DEADLINES_MS.read)));
      res.json(toPlayerSeats(seats));
    },
    /** GET /api/players/{playerId}/ledger: the account's movements, newest first, for the player or an ADMIN. */
    getAccountStatement: async (req, res) => {
      const { playerId } = validatePath({ playerId: req.params.playerId });
      const page = statementPage(req);
      // Who may read it first: a refused read spends nothing.
      const owner = actingPlayerId(identityOf(res), playerId);
      await spendHistoryReads(req, res, STATEMENT_PAGE_READS(page.limit));
      const request = { playerId: owner, afterSequence: 0, newestFirst: true, ...page };
      res.json(
        toAccountStatement(
          await fromService("wallet", wallet.listLedger(request, callOptions(req, DEADLINES_MS.read))),
        ),
      );
    },
  };
}
