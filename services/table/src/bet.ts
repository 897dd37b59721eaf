// A bet: the stake moves from the seat into the game, one stored change per (player, key), and a
// NACK (seat balance short) is stored too, as a refusal version: every replay of a key answers its
// first result, never a bet placed later. Within a game the domain recognises a replayed bet id and
// stores nothing; after the game it refuses the retry (409: no betting stage) or would take it as
// new; either way the change stored under the key answers.
import { TableDirectory } from "./table-directory.js";
import { ConflictError, IdempotencyMismatchError } from "@pokerodds/common";
import { createHash } from "node:crypto";
import { gaveUp, type CallScope } from "./dependencies.js";
import { betPlacedMessage, decideBet, type BetAt, type Caller, type TableSnapshot } from "./domain/index.js";
import { requireAmountCents, requireIdempotencyKey } from "@pokerodds/common/limits";
import type { TableParts } from "./parts.js";
import { betIdOf } from "./request-ids.js";
import type { StoredOperation } from "./snapshot-store.js";

interface BetRequest {
  caller: Caller;
  tableId: number;
  seatIndex: number;
  handIndex: number;
  betAmountCents: number;
  idempotencyKey: string;
  at?: BetAt;
}

interface BetAnswer {
  acknowledged: boolean;
  message: string;
  updatedSeatBalanceCents: number;
}

export async function placeBet(parts: TableParts, request: BetRequest, scope: CallScope): Promise<BetAnswer> {
  const { caller, tableId, seatIndex, handIndex, at } = request;
  const betAmountCents = requireAmountCents("bet_amount_cents", request.betAmountCents);
  const key = requireIdempotencyKey(request.idempotencyKey);
  TableDirectory.requireSeatable(await parts.directory.require(tableId, scope), caller.playerId);
  const betId = betIdOf(caller.playerId, key);
  const op = {
    key: `bet:${betId}`,
    fingerprint: betFingerprint({ tableId, seatIndex, handIndex, betAmountCents, at }),
  };
  try {
    const applied = await storeBet(parts, request, op, betAmountCents, betId, scope);
    // The domain recognised a bet placed under this key in this game: the first answer, as stored.
    if (applied.kind === "unchanged" && applied.result.acknowledged)
      return (await firstAnswer(parts, op)) ?? applied.result;
    return applied.result;
  } catch (error) {
    // A retry after its game ended: the refusal must not hide a bet that was placed.
    if (!(error instanceof ConflictError)) throw error;
    const first = await firstAnswer(parts, op);
    if (!first) throw error;
    return first;
  }
}

/**
 * A bet's terms as stored with its key, so a replay with other terms is refused. A bet that names no
 * stage hashes as bets did before `at` existed: keys stored then replay alike.
 */
export function betFingerprint(terms: Omit<BetRequest, "caller" | "idempotencyKey">): string {
  const { tableId, seatIndex, handIndex, betAmountCents, at } = terms;
  const stage = at ? [at.gameId, at.bettingStage] : [];
  return createHash("sha256")
    .update(JSON.stringify([tableId, seatIndex, handIndex, betAmountCents, ...stage]))
    .digest("hex");
}

/** The answer stored under the bet's key (a bet placed, or a NACK), or null when there is none. */
async function firstAnswer(parts: TableParts, op: StoredOperation & { key: string }): Promise<BetAnswer | null> {
  const first = await parts.store.findOp(op.key);
  if (!first) return null;
  if (first.fingerprint !== op.fingerprint) throw new IdempotencyMismatchError();
  return first.result as BetAnswer;
}

async function storeBet(
  parts: TableParts,
  { caller, tableId, seatIndex, handIndex, at }: BetRequest,
  op: StoredOperation,
  betAmountCents: number,
  betId: string,
  scope: CallScope,
) {
  const decide = (latest: TableSnapshot, now: number) => {
    const { next, result } = decideBet(
      latest,
      { playerId: caller.playerId, seatIndex, handIndex, betAmountCents, betId, ...(at && { at }) },
      now,
    );
    return {
      next,
      result: {
        acknowledged: result.acknowledged,
        message: result.acknowledged ? betPlacedMessage(result.bet) : result.message,
        updatedSeatBalanceCents: result.seatBalanceCents,
      },
    };
  };
  return parts.store.apply<BetAnswer>(tableId, op, decide, gaveUp(scope));
}
