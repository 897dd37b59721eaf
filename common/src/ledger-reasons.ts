// The wallet ledger's reasons: why money moved, as each ledger entry records it. They travel as text
// (wallet.proto's Movement.reason, LedgerEntry.reason and ReasonTotal.reason) and the ledger stores
// them as given, so these strings are the contract between the wallet, the table service that writes
// them and the money audit that totals them (@pokerodds/audit). Never rename one: the ledger keeps the
// old text forever. Deposits and withdrawals may carry any text an operator gives, or none.

export const LEDGER_REASON = {
  /** The wallet's own first credit of every account. */
  WELCOME: "welcome",
  /** Debits for a sit and a top-up (the table service's sit and top-up sagas). */
  SIT: "sit",
  TOPUP: "topup",
  /** Credits giving such a debit back when the seat could not take it (same sagas). */
  SIT_REFUND: "sit-refund",
  TOPUP_REFUND: "topup-refund",
  /** Credits from a table's outbox: a seat's balance on leaving, a payout, a void game's stakes. */
  LEAVE: "leave",
  PAYOUT: "payout",
  VOID_REFUND: "void-refund",
} as const;

/** Debits that move money from an account towards a seat. */
export const TRANSFER_DEBIT_REASONS = [LEDGER_REASON.SIT, LEDGER_REASON.TOPUP] as const;
/** Credits giving such a debit back when the seat could not take it. */
export const TRANSFER_REFUND_REASONS = [LEDGER_REASON.SIT_REFUND, LEDGER_REASON.TOPUP_REFUND] as const;
/** The refund of each transfer debit. */
export const REFUND_REASON_OF: Readonly<
  Record<(typeof TRANSFER_DEBIT_REASONS)[number], (typeof TRANSFER_REFUND_REASONS)[number]>
> = {
  [LEDGER_REASON.SIT]: LEDGER_REASON.SIT_REFUND,
  [LEDGER_REASON.TOPUP]: LEDGER_REASON.TOPUP_REFUND,
};
/** Credits delivering what a table owed an account (its outbox). */
export const TABLE_CREDIT_REASONS = [LEDGER_REASON.LEAVE, LEDGER_REASON.PAYOUT, LEDGER_REASON.VOID_REFUND] as const;
export type TableCreditReason = (typeof TABLE_CREDIT_REASONS)[number];
