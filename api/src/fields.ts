import { INT32_MAX, PLAYER_ID_MAX_LENGTH, PLAYER_ID_PATTERN } from "@pokerodds/common/limits";
import { Type, type TSchema } from "@sinclair/typebox";
import { MAX_AMOUNT_UNITS } from "@pokerodds/common/limits";
import { MONEY_RULE } from "./money.js";

/**
 * Annotation naming, in words, what a field must be. The validator builds its 400 message from it
 * ("numberOfHands must be an integer from 2 to 6"), whatever keyword failed; OpenAPI shows it as an
 * extension.
 */
export const MUST_BE = "x-must-be";

/**
 * The keyword whose check is parseMoney's (toCents), registered with the validator. The document
 * states the same rule in standard terms (exclusiveMinimum, maximum, multipleOf 0.01); this keyword
 * also refuses what multipleOf cannot see, such as 0.30000000000000004.
 */
export const MONEY_KEYWORD = "x-money";

/** An id as a path or a query gives it: one spelling each, no sign, exponent, fraction, space or leading zero. */
export const CANONICAL_ID = /^[1-9][0-9]*$/;

export function integerFrom(
  minimum: number,
  maximum: number,
  options: { default?: number; description?: string } = {},
) {
  return Type.Integer({ minimum, maximum, ...options, [MUST_BE]: `an integer from ${minimum} to ${maximum}` });
}

/** An integer the gRPC contracts carry as int32; the service checks its domain range. */
export function int32AtLeast(minimum: number, description?: string) {
  return Type.Integer({
    minimum,
    maximum: INT32_MAX,
    ...(description ? { description } : {}),
    [MUST_BE]: `an integer from ${minimum} to ${INT32_MAX}`,
  });
}

export function oneOfIntegers<const T extends readonly number[]>(
  values: T,
  options: { default?: T[number]; description?: string } = {},
) {
  const words = values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(", ")}`;
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    { ...options, [MUST_BE]: words },
  );
}

function openInterval(minimum: number, maximum: number, options: { default?: number; description?: string } = {}) {
  return Type.Number({
    exclusiveMinimum: minimum,
    exclusiveMaximum: maximum,
    ...options,
    [MUST_BE]: `a number greater than ${minimum} and less than ${maximum}`,
  });
}

/** A target return to player: what every price of a game is computed at (decisions.md, "Pricing"). */
export const targetRtp = (options: { default?: number; description?: string } = {}) => openInterval(0, 1, options);

/** A request amount in units: the money rules of decisions.md, enforced by parseMoney. */
export function money(description: string) {
  return Type.Number({
    exclusiveMinimum: 0,
    maximum: MAX_AMOUNT_UNITS,
    multipleOf: 0.01,
    [MONEY_KEYWORD]: true,
    description: `${description}; at most 2 decimal places`,
    [MUST_BE]: MONEY_RULE,
  });
}

/** An amount the API reports, converted from integer cents. */
export function amount(description: string) {
  return Type.Number({ minimum: 0, description: `${description}, in units with at most 2 decimal places` });
}

export function playerId(description: string) {
  return Type.String({
    minLength: 1,
    maxLength: PLAYER_ID_MAX_LENGTH,
    pattern: PLAYER_ID_PATTERN,
    description,
    [MUST_BE]: `a string of 1 to ${PLAYER_ID_MAX_LENGTH} characters, not only blanks, without control characters`,
  });
}

export function nullable<T extends TSchema>(schema: T, description?: string) {
  return Type.Union([schema, Type.Null()], description ? { description } : {});
}
