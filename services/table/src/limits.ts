import { InvalidArgumentError } from "@pokerodds/common";
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_PATTERN,
  MAX_AMOUNT_CENTS,
  playerIdProblem,
} from "@pokerodds/common/limits";

// Every bound here is common/src/limits.ts's, shared with the gateway and the wallet.
export { MAX_AMOUNT_CENTS } from "@pokerodds/common/limits";

export function requireAmountCents(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_AMOUNT_CENTS) {
    throw new InvalidArgumentError(`${name} must be a whole number of cents from 1 to ${MAX_AMOUNT_CENTS}`);
  }
  return value;
}

export function requireIdempotencyKey(value: string): string {
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new InvalidArgumentError(
      `idempotency_key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`,
    );
  }
  return value;
}

/** The acting player's id, as common/src/limits.ts bounds it for every service. */
export function requirePlayerId(name: string, value: string): string {
  const problem = playerIdProblem(value, name);
  if (problem) throw new InvalidArgumentError(problem);
  return value;
}
