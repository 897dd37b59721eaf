import { InvalidArgumentError } from "@pokerodds/common";

/** 1,000,000,000 units, the largest amount decisions.md allows (and the wallet's per-movement limit). */
export const MAX_AMOUNT_CENTS = 100_000_000_000;

export function requireAmountCents(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_AMOUNT_CENTS) {
    throw new InvalidArgumentError(`${name} must be a whole number of cents from 1 to ${MAX_AMOUNT_CENTS}`);
  }
  return value;
}

const IDEMPOTENCY_KEY = /^[!-~]{1,128}$/;

export function requireIdempotencyKey(value: string): string {
  if (!IDEMPOTENCY_KEY.test(value)) {
    throw new InvalidArgumentError("idempotency_key must be 1 to 128 visible ASCII characters");
  }
  return value;
}
