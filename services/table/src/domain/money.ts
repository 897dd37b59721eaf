// Integer cents only. Inputs are checked here even though the gateway validated them: a wrong
// amount must never reach a balance.

import { InvalidArgumentError } from "@pokerodds/common/errors";

/** Throws InvalidArgumentError unless value is a positive safe integer number of cents. */
export function assertAmountCents(name: string, value: number): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidArgumentError(`${name} must be a positive whole number of cents`);
  }
}

/**
 * Sums cents, throwing rather than losing a cent when the total leaves the safe-integer range
 * (the per-bet payout limit keeps real tables far below it).
 */
export function sumCents(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) {
    total += v;
    if (!Number.isSafeInteger(total)) throw new RangeError("cents total out of the exact integer range");
  }
  return total;
}
