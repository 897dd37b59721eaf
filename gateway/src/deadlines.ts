// gRPC deadlines of the wallet and table calls, by kind of call.
export const DEADLINES_MS = {
  read: 3_000,
  /** A movement of money, and a first profile read (which writes the welcome credit). */
  moneyMove: 10_000,
  /** An advance may deal or compute equities through the odds service. */
  advance: 15_000,
} as const;
