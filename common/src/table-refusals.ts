// Why the table refuses a sit, a top-up or a bet with a NACK (HTTP 200, acknowledgement "NACK"): the
// message of the answer. Part of the public contract (the OpenAPI document lists them as
// TableRefusal), so a client may word each one for its players.
export const TABLE_REFUSALS = {
  insufficientSeatBalance: "insufficient seat balance",
  insufficientAccountBalance: "insufficient account balance",
  tableFull: "table full",
  alreadySeated: "already seated at this table",
  /** The table has taken in all the money its totals may hold (the table service's TABLE_CREDIT_MAX_CENTS). */
  tableMoneyLimit: "table money limit reached",
} as const;

export type TableRefusal = (typeof TABLE_REFUSALS)[keyof typeof TABLE_REFUSALS];
