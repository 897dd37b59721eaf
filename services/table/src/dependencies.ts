// The wallet and odds services as the table uses them: typed promises over the generated gRPC
// clients, a deadline on every call, and the caller's deadline and cancellation carried over
// (`parent`) unless the work must outlive its caller (a reveal once its stage's betting is closed).
// Both clients retry UNAVAILABLE: odds calls are pure, and every wallet call is a read or carries an
// idempotency key.
import { callEnded, createClient, isServiceError, type Logger, type PromiseClient } from "@pokerodds/common";
import { OddsServiceClient } from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { WalletServiceClient } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { handOddsFromProto } from "@pokerodds/common/hand-odds";
import { status, type ServerUnaryCall } from "@grpc/grpc-js";
import type { HandOdds } from "./domain/index.js";
import { outageOf } from "./errors.js";

/** Who a dependency call is made for: the incoming call (deadline, cancellation) and its request id. */
export interface CallScope {
  parent?: ServerUnaryCall<unknown, unknown>;
  requestId?: string;
  /** The call's own logger (its requestId and rpc), for what the work logs on the way; the process's when absent. */
  logger?: Logger;
}

/**
 * Aborts when the incoming call ends (its client gave up, or its deadline passed): a move waiting its
 * turn at its table is then not made, rather than made late at a stage its player no longer sees.
 */
export const gaveUp = (scope: CallScope): AbortSignal | undefined =>
  scope.parent ? callEnded(scope.parent) : undefined;

export interface Movement {
  playerId: string;
  amountCents: number;
  /** Unique per intended movement: the wallet replays the first outcome of a key. */
  key: string;
  reason: string;
  reference: string;
  /** The table the money moves for: the account statement names it. */
  tableId: number;
}

export interface MovementOutcome {
  applied: boolean;
  /** The account balance right after the movement (as it was then, on a replay). */
  balanceCents: number;
}

export interface PlayerProfile {
  displayName: string;
  avatarImageUrl: string;
  accountBalanceCents: number;
  /** The first profile read has not yet opened the account: no movement can be made. */
  accountNotOpened: boolean;
  personalTableId: number | null;
}

export interface WalletPort {
  /**
   * Name, avatar, account balance (0 while the first read has not yet opened the account) and
   * personal table (null when none) of a player created by a profile read; null before the
   * player's first profile read.
   */
  player(playerId: string, scope: CallScope): Promise<PlayerProfile | null>;
  /** The player's personal table (null when none): what `player` names, without its balance read. */
  personalTable(playerId: string, scope: CallScope): Promise<number | null>;
  /** The owner of a personal table, or null when no player has it. */
  personalTableOwner(tableId: number, scope: CallScope): Promise<string | null>;
  /**
   * The account balance; 0 for a player with no account yet (before the first profile read, which
   * is what opens the account with its welcome credit: nothing else creates money).
   */
  balance(playerId: string, scope: CallScope): Promise<number>;
  debit(movement: Movement, scope: CallScope): Promise<MovementOutcome>;
  credit(movement: Movement, scope: CallScope): Promise<MovementOutcome>;
}

export interface OddsPort {
  equity(hands: readonly string[], board: readonly string[], targetRtp: number, scope: CallScope): Promise<HandOdds[]>;
}

const WALLET_DEADLINE_MS = 5_000;
const ODDS_DEADLINE_MS = 10_000;
const WALLET_METHODS = [
  "getPlayer",
  "getPersonalTable",
  "getPersonalTableOwner",
  "getBalance",
  "debit",
  "credit",
] as const;
const ODDS_METHODS = ["equity"] as const;

export function connectWallet(address: string): { port: WalletPort; close(): void } {
  const client = createClient(WalletServiceClient, WALLET_METHODS, address, {
    defaultDeadlineMs: WALLET_DEADLINE_MS,
    retryUnavailable: WALLET_METHODS,
  });
  return { port: walletPort(client.call), close: () => client.raw.close() };
}

function walletPort(wallet: Pick<PromiseClient<WalletServiceClient>, (typeof WALLET_METHODS)[number]>): WalletPort {
  const outcome = (result: { applied: boolean; accountBalanceCents: number } | undefined): MovementOutcome => {
    if (!result) throw new Error("the wallet answered a movement without its result");
    return { applied: result.applied, balanceCents: result.accountBalanceCents };
  };
  const movement = ({ playerId, amountCents, key, reason, reference, tableId }: Movement) => ({
    movement: { playerId, amountCents, idempotencyKey: key, reason, reference, tableId },
  });
  const port: WalletPort = {
    player: async (playerId, scope) => {
      const profile = await orNull(async () => (await wallet.getPlayer({ playerId }, scope)).profile).catch(
        outageOf("wallet"),
      );
      if (profile === null) return null;
      if (!profile) throw new Error("the wallet answered GetPlayer without a profile");
      const { displayName, avatarImageUrl, accountBalanceCents, accountNotOpened, personalTableId } = profile;
      return {
        displayName,
        avatarImageUrl,
        accountBalanceCents,
        accountNotOpened,
        personalTableId: personalTableId ?? null,
      };
    },
    personalTable: async (playerId, scope) => {
      try {
        return (await wallet.getPersonalTable({ playerId }, scope)).tableId ?? null;
      } catch (error) {
        // A wallet older than GetPersonalTable, for a rollout's minutes: GetPlayer names the table too.
        if (!isServiceError(error) || error.code !== status.UNIMPLEMENTED) return outageOf("wallet")(error);
        return (await port.player(playerId, scope))?.personalTableId ?? null;
      }
    },
    personalTableOwner: async (tableId, scope) =>
      orNull(async () => (await wallet.getPersonalTableOwner({ tableId }, scope)).playerId).catch(outageOf("wallet")),
    balance: async (playerId, scope) =>
      (await orNull(async () => (await wallet.getBalance({ playerId }, scope)).accountBalanceCents).catch(
        outageOf("wallet"),
      )) ?? 0,
    debit: async (m, scope) => outcome((await wallet.debit(movement(m), scope).catch(outageOf("wallet"))).result),
    credit: async (m, scope) => outcome((await wallet.credit(movement(m), scope).catch(outageOf("wallet"))).result),
  };
  return port;
}

/** The wallet's answer, or null when it answers NOT_FOUND (no such player, account or table). */
async function orNull<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (error) {
    if (isServiceError(error) && error.code === status.NOT_FOUND) return null;
    throw error;
  }
}

export function connectOdds(address: string): { port: OddsPort; close(): void } {
  const client = createClient(OddsServiceClient, ODDS_METHODS, address, {
    defaultDeadlineMs: ODDS_DEADLINE_MS,
    retryUnavailable: ODDS_METHODS,
  });
  return { port: oddsPort(client.call), close: () => client.raw.close() };
}

/**
 * Panels arrive in domain terms (`handOddsFromProto`); the advance prices the cards again before it
 * stores them (domain/true-prices.ts), and the domain checks their shape.
 */
function oddsPort(odds: Pick<PromiseClient<OddsServiceClient>, (typeof ODDS_METHODS)[number]>): OddsPort {
  return {
    equity: async (hands, board, targetRtp, scope) =>
      (
        await odds.equity({ hands: [...hands], board: [...board], targetRtp }, scope).catch(outageOf("odds"))
      ).handOdds.map(handOddsFromProto),
  };
}
