// Integer cents only: a sum that would leave the exact integer range throws rather than lose a cent.
// A valid amount is common's (limits.ts: requireAmountCents), checked by the domain too: a wrong
// amount must never reach a balance, even from a caller that skipped the adapter's check.

/**
 * Sums cents, throwing rather than losing a cent when the total leaves the safe-integer range
 * (a game's payout limit keeps a game's sums within it: MAX_GAME_PAYOUT_CENTS).
 */
export function sumCents(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) {
    total += v;
    if (!Number.isSafeInteger(total)) throw new RangeError("cents total out of the exact integer range");
  }
  return total;
}
