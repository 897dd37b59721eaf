// Whose wallet idempotency keys are whose. A key's first movement is its only one (a replay answers
// it), so a caller that takes another's key first has that movement refused for ever: a table's
// payout credit (`table:T3-17:payout:alice`, predictable) taken by an operator's deposit would never
// be delivered. The keys a table makes start with one of these prefixes, and an operator's may not.

/** A table's transfers (sit, top-up, leave) and the wallet keys of their debits and refunds. */
export const TRANSFER_ID_PREFIX = "tr-";
/** The wallet keys of the credits a table owes: a game's payouts and refunds, a seat's leave. */
export const TABLE_KEY_PREFIX = "table:";

export const TABLE_MOVEMENT_KEY_PREFIXES = [TRANSFER_ID_PREFIX, TABLE_KEY_PREFIX] as const;

/** A key only a table makes. */
export const isTableMovementKey = (key: string): boolean =>
  TABLE_MOVEMENT_KEY_PREFIXES.some((prefix) => key.startsWith(prefix));
