// A bet: the stake moves from the seat into the game, one stored change per (player, key).
// Within a game the domain recognises a replayed bet id and answers the recorded bet (with the
// seat's current balance). After the game, the domain refuses the retry (409: no betting stage) or
// would take it as new; then the bet's op record, or the operation key index, answers the first
// result. A NACK (seat balance short) stores nothing: a retry re-evaluates it.
import { ConflictError, IdempotencyMismatchError } from "@pokerodds/common";
import { createHash } from "node:crypto";
import type { CallScope } from "./dependencies.js";
import { applyBet, type Caller } from "./domain/index.js";
import { requireAmountCents, requireIdempotencyKey } from "@pokerodds/common/limits";
import type { TableParts } from "./parts.js";
import { betIdOf } from "./request-ids.js";
import type { Operation } from "./snapshot-store.js";

export const BET_PLACED = "bet placed";

export interface BetRequest {
  caller: Caller;
  tableId: number;
  seatIndex: number;
  handIndex: number;
  betAmountCents: number;
  idempotencyKey: string;
}

export interface BetAnswer {
  acknowledged: boolean;
  message: string;
  updatedSeatBalanceCents: number;
}

export async function placeBet(parts: TableParts, request: BetRequest, scope: CallScope): Promise<BetAnswer> {
  const { caller, tableId, seatIndex, handIndex } = request;
  const betAmountCents = requireAmountCents("bet_amount_cents", request.betAmountCents);
  const key = requireIdempotencyKey(request.idempotencyKey);
  await parts.directory.require(tableId, scope);
  const betId = betIdOf(caller.playerId, key);
  const op = {
    key: `bet:${betId}`,
    fingerprint: createHash("sha256")
      .update(JSON.stringify([tableId, seatIndex, handIndex, betAmountCents]))
      .digest("hex"),
  };
  try {
    return await storeBet(parts, request, op, betAmountCents, betId);
  } catch (error) {
    // A retry after its game ended: the refusal must not hide a bet that was placed.
    if (!(error instanceof ConflictError)) throw error;
    const first = await parts.store.findOp(op.key);
    if (!first) throw error;
    if (first.fingerprint !== op.fingerprint)
      throw new IdempotencyMismatchError(`bet ${key} was placed with other terms`);
    return first.result as BetAnswer;
  }
}

async function storeBet(
  parts: TableParts,
  { caller, tableId, seatIndex, handIndex }: BetRequest,
  op: Operation,
  betAmountCents: number,
  betId: string,
): Promise<BetAnswer> {
  const applied = await parts.store.apply<BetAnswer>(tableId, op, (latest, now) => {
    const { next, result } = applyBet(
      latest,
      { playerId: caller.playerId, seatIndex, handIndex, betAmountCents, betId },
      now,
    );
    return {
      next,
      result: {
        acknowledged: result.acknowledged,
        message: result.acknowledged ? BET_PLACED : result.message,
        updatedSeatBalanceCents: result.seatBalanceCents,
      },
    };
  });
  return applied.result;
}
