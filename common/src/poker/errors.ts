// Typed errors of the poker math's requests (pricing, deals, bulk games). They extend the shared
// InvalidArgumentError so the gRPC adapter (and the worker-thread boundary, which carries only
// kind + message) maps them to a 400.

import { InvalidArgumentError } from "../errors.js";
import { isTargetRtp } from "../limits.js";

/** A deal, bulk or pricing request whose parameters are out of range or inconsistent. */
export class InvalidOddsRequestError extends InvalidArgumentError {}

/** Throws unless 0 < targetRtp < 1 (both exclusive, finite). */
export function validateTargetRtp(targetRtp: number): void {
  if (!isTargetRtp(targetRtp)) {
    throw new InvalidOddsRequestError("targetRtp must be a number greater than 0 and less than 1");
  }
}

/** Throws unless value is an integer in min..max (inclusive). */
export function validateIntegerRange(name: string, value: number, min: number, max: number): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOddsRequestError(`${name} must be an integer from ${min} to ${max}`);
  }
}
