// The seat steps of a sit and a top-up, which run after the account was debited.
//
// The rule: a NACK after money moved is a decision too (as a bet's NACK is: bets.ts). The sit's
// "table full" (or "already seated") after the debit, and the top-up's "not seated" after the debit,
// are stored as an unchanged version under the step's operation key, exactly as a seat credit would
// be. So the refund and the seat credit can never both happen: whichever of them a driver stores
// first is the only one any driver (a retry, another replica, recovery) will ever see.

import { ConflictError } from "@pokerodds/common/errors";
import { applySit, applyTopUp, type SitCommand, type SitResult, type TopUpCommand } from "./seats.js";
import { refusalVersion } from "./snapshot.js";
import type { Outcome, TableSnapshot } from "./types.js";

/**
 * Seats the player whose buy-in was debited (applySit). Its NACK (the table filled up, the player
 * got seated meanwhile) is stored as a refusal version, and the adapter then refunds the account.
 * A replayed transfer answers the recorded seat and stores nothing.
 */
export function sitAfterDebit(snapshot: TableSnapshot, command: SitCommand, now: number): Outcome<SitResult> {
  const { next, result } = applySit(snapshot, command, now);
  if (next || result.acknowledged) return { next, result };
  return { next: refusalVersion(snapshot, now), result };
}

/** The top-up step's answer, as stored under its operation key. */
export type TopUpCredit = { credited: true; seatBalanceCents: number } | { credited: false; message: string };

/**
 * Credits the seat with the debited amount (applyTopUp). Its refusal (409: not seated, or the seat
 * balance limit) is stored as a refusal version, and the adapter then refunds the account. Invalid
 * input still throws. A transfer is credited once by its operation key, which the store keeps.
 */
export function topUpAfterDebit(snapshot: TableSnapshot, command: TopUpCommand, now: number): Outcome<TopUpCredit> {
  try {
    const { next, result } = applyTopUp(snapshot, command, now);
    return { next, result: { credited: true, seatBalanceCents: result.seatBalanceCents } };
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    return { next: refusalVersion(snapshot, now), result: { credited: false, message: refundedTopUp(error.message) } };
  }
}

/**
 * The answer of a top-up refused after its debit: unlike a refusal before any money moved, it is its
 * key's answer for good (the key names the debit and its refund), so it says both.
 */
const refundedTopUp = (reason: string): string =>
  `${reason}: this top-up's amount, already taken from the account, goes back to it; a new idempotency key tops up again`;
