// Money enters the system here and only here: a JSON number becomes integer cents, so no sum on the
// money path ever adds floating-point amounts. On the way out, cents become a JSON number again.
import { MAX_AMOUNT_UNITS, MAX_BALANCE_CENTS } from "@pokerodds/common/limits";
import { ContractViolation } from "./violation.js";

declare const centsBrand: unique symbol;
/** Integer minor units (hundredths of a unit). */
type Cents = number & { readonly [centsBrand]: true };

export const MONEY_RULE = "a number greater than 0 and at most 1,000,000,000 with at most 2 decimal places";

/** The amount's cents, or undefined when the value is not an acceptable amount. */
export function toCents(value: unknown): Cents | undefined {
  // `<= 0` also refuses -0; NaN and the Infinity that 1e309 parses to fail isFinite.
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > MAX_AMOUNT_UNITS) return undefined;
  const cents = Math.round(value * 100);
  // The round trip holds exactly when value is the double nearest to cents/100, i.e. when its
  // decimal form has at most 2 decimal places; 1.005 (stored as 1.00499...) fails it.
  return cents / 100 === value ? (cents as Cents) : undefined;
}

/**
 * The cents of an amount that a request schema's money format (toCents) already admitted: the
 * validator answers every other value with a 400 before this runs, so a refusal here is a bug
 * (a RangeError, answered 500), never a client error.
 */
export function parseMoney(value: unknown): Cents {
  const cents = toCents(value);
  if (cents === undefined) throw new RangeError(`amount must be ${MONEY_RULE}`);
  return cents;
}

/** The most a response reports: the wallet's balance limit, 1e13 units. */
export const MAX_REPORTED_CENTS = MAX_BALANCE_CENTS;

/**
 * The units a backend's cents stand for, for a response. Division is correctly rounded, so up to
 * MAX_REPORTED_CENTS JSON prints at most 2 decimals and the printed number reads back as the same
 * cents (Math.round(units * 100), or parseMoney within its range). Closer to 2^53 cents, neighbouring
 * amounts would share a double. Anything else is a backend bug.
 */
export function toUnits(cents: number): number {
  if (!Number.isInteger(cents) || cents < 0 || cents > MAX_REPORTED_CENTS) {
    throw new ContractViolation(`amount of ${cents} cents`);
  }
  return cents / 100;
}

/** A signed amount (a house result, a ledger entry's movement): toUnits of its size, with its sign. */
export const toSignedUnits = (cents: number): number => (cents < 0 ? -toUnits(-cents) : toUnits(cents));
