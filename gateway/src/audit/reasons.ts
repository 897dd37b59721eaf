// The wallet ledger reasons the table service writes, as it writes them: Debit "sit" and "topup"
// (services/table/src/sagas/sit.ts, topup.ts), Credit "sit-refund" and "topup-refund" for a seat that
// could not be credited after the debit (same files), and Credit "leave", "payout" and "void-refund"
// from a table's outbox (CREDIT_REASON in services/table/src/outbox.ts). The audit test reads those
// sources, so a renamed reason fails it instead of silently breaking the reconciliation.

/** Debits that move money from an account towards a seat. */
export const TRANSFER_DEBIT_REASONS = ["sit", "topup"] as const;
/** Credits giving such a debit back when the seat could not take it. */
export const TRANSFER_REFUND_REASONS = ["sit-refund", "topup-refund"] as const;
/** Credits delivering what a table owed an account (its outbox). */
export const TABLE_CREDIT_REASONS = ["leave", "payout", "void-refund"] as const;

export const KNOWN_DEBIT_REASONS: ReadonlySet<string> = new Set(TRANSFER_DEBIT_REASONS);
export const KNOWN_CREDIT_REASONS: ReadonlySet<string> = new Set([...TRANSFER_REFUND_REASONS, ...TABLE_CREDIT_REASONS]);
