// Delivering what a table owes lobby accounts (leave balances, payouts to players who left, void
// refunds). Each credit goes to the wallet under its own key, so delivering twice credits once;
// only then is it marked delivered in a new snapshot. A crash in between leaves the credit in the
// outbox of the latest snapshot, and the next delivery (a later operation, or recovery) repeats
// the wallet call harmlessly. Two replicas delivering at once are as harmless.
import { randomUUID } from "node:crypto";
import { LEDGER_REASON, type TableCreditReason } from "@pokerodds/common/ledger-reasons";
import { markDelivered, type CreditReason, type OutboxCredit } from "./domain/index.js";
import type { CallScope, Movement, MovementOutcome } from "./dependencies.js";
import { creditsRefused } from "./metrics.js";
import type { TableParts } from "./parts.js";

/** The wallet ledger's reason for each kind of table credit. */
export const CREDIT_REASON: Record<CreditReason, TableCreditReason> = {
  LEAVE: LEDGER_REASON.LEAVE,
  PAYOUT: LEDGER_REASON.PAYOUT,
  VOID_REFUND: LEDGER_REASON.VOID_REFUND,
};

export const movementOf = (tableId: number, credit: OutboxCredit): Movement => ({
  playerId: credit.playerId,
  amountCents: credit.amountCents,
  key: credit.key,
  reason: CREDIT_REASON[credit.reason],
  reference: credit.reference,
  tableId,
});

/**
 * Credits every pending outbox entry of the table and records the ones the wallet applied; a call
 * that failed is thrown after that, so it holds up no other credit. `credited` holds outcomes the
 * caller already obtained for some keys (no second call for them).
 */
export async function deliverOutbox(
  parts: TableParts,
  tableId: number,
  scope: CallScope,
  credited: ReadonlyMap<string, MovementOutcome> = new Map(),
): Promise<void> {
  const log = scope.logger ?? parts.logger;
  const { snapshot } = await parts.store.latest(tableId);
  if (snapshot.outbox.length === 0) return;
  const calls = await Promise.allSettled(
    snapshot.outbox.map(async (credit) => ({
      credit,
      outcome: credited.get(credit.key) ?? (await parts.wallet.credit(movementOf(tableId, credit), scope)),
    })),
  );
  const outcomes = calls.flatMap((call) => (call.status === "fulfilled" ? [call.value] : []));
  const delivered = outcomes.filter(({ outcome }) => outcome.applied).map(({ credit }) => credit.key);
  for (const { credit, outcome } of outcomes) {
    // Refused only past the wallet's balance limit, which the wallet does not record: the credit
    // stays owed (and audited), and is sent again until the account has room.
    if (outcome.applied) continue;
    creditsRefused.inc();
    log.error(
      { tableId, credit },
      "the wallet refused a table credit (its account is at the balance limit): it stays owed, and is sent again",
    );
  }
  if (delivered.length > 0) {
    // The key names this delivery, not only the version it builds: another replica marking other
    // credits at the same version must lose the sequence and build on it, not pass as our replay.
    const delivery = randomUUID();
    await parts.store.apply(
      tableId,
      { key: (version) => `deliver:${tableId}:${version}:${delivery}`, fingerprint: "" },
      (latest, now) => ({ next: markDelivered(latest, delivered, now), result: null }),
    );
  }
  const failed = calls.flatMap((call) => (call.status === "rejected" ? [call.reason as unknown] : []));
  for (const error of failed.slice(1)) log.warn({ err: error, tableId }, "a table credit failed; retried later");
  if (failed.length > 0) throw failed[0];
}

/**
 * Delivers the outbox after an operation that is done either way (`after` names it in the log): a
 * failure is logged, not thrown, as recovery retries it.
 */
export async function deliverOutboxOrLeaveToRecovery(
  parts: TableParts,
  tableId: number,
  scope: CallScope,
  after: string,
  credited?: ReadonlyMap<string, MovementOutcome>,
): Promise<void> {
  await deliverOutbox(parts, tableId, scope, credited).catch((error: unknown) =>
    (scope.logger ?? parts.logger).warn(
      { err: error, tableId },
      `outbox delivery after ${after} failed; recovery retries`,
    ),
  );
}
