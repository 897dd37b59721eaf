// The odds pool's tasks: what runs on its threads (the urgent lane) and in its batch processes.
// Results cross to the service by structured clone, which drops error classes, so domain errors
// travel back as data and the pool rebuilds them.
import { DomainError, type ErrorKind } from "@pokerodds/common/errors";
import type { Card } from "@pokerodds/common/poker/cards";
import { committedBulkGame, type CommittedBulkGame } from "./domain/bulk.js";
import type { BulkHandCount } from "@pokerodds/common/limits";
import { committedDeal, type CommittedDealResult } from "./domain/deal.js";
import type { HandOdds } from "@pokerodds/common/poker/pricing";
import { priceHands } from "@pokerodds/common/poker/stage-odds";

export type TaskResult<T> = { ok: T } | { error: { kind: ErrorKind; message: string } };

/** The task, answering its domain errors as data (they cannot cross the thread as classes); others throw. */
function domainErrorsAsData<A, R>(task: (args: A) => R): (args: A) => TaskResult<R> {
  return (args) => {
    try {
      return { ok: task(args) };
    } catch (error) {
      if (error instanceof DomainError) return { error: { kind: error.kind, message: error.message } };
      throw error;
    }
  };
}

export const dealTask = domainErrorsAsData(
  (args: { numberOfHands: number; targetRtp: number; gameId: string }): CommittedDealResult =>
    committedDeal(args.numberOfHands, args.targetRtp, args.gameId),
);

/** Games firstIndex .. firstIndex + count - 1 of a batch (ids follow the index). */
export const bulkTask = domainErrorsAsData(
  (args: { firstIndex: number; count: number; numberOfHands: BulkHandCount; targetRtp: number }): CommittedBulkGame[] =>
    Array.from({ length: args.count }, (_, i) =>
      committedBulkGame(args.firstIndex + i, args.numberOfHands, args.targetRtp),
    ),
);

export const priceTask = domainErrorsAsData((args: { hands: Card[][]; board: Card[]; targetRtp: number }): HandOdds[] =>
  priceHands(args.hands, args.board, args.targetRtp),
);
