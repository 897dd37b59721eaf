// What keeps a report from being clean without anything being wrong: transfers still open, credits
// not delivered yet, and readings taken while the tables changed. These are never mismatches.
import type { AuditResponse as TableAuditResponse } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { big, sum, units } from "../figures.js";
import { listed, type Findings } from "../findings.js";
import type { AuditReportBody } from "../report.js";

type PendingCreditBody = AuditReportBody["pendingCredits"][number];

/** open-transfers: sits, top-ups and leaves not finished yet. */
export function noteOpenTransfers(findings: Findings, openTransfers: AuditReportBody["openTransfers"]): void {
  if (openTransfers.length === 0) return;
  findings.pending(
    "open-transfers",
    `${openTransfers.length} transfer(s) not finished: ${listed(openTransfers, (t) => `${t.kind} ${units(BigInt(t.amountCents))} for ${t.playerId} at table ${t.tableId} since ${t.createdAt}`)}`,
  );
}

/** pending-credits: credits the tables owe accounts, not delivered yet. */
export function notePendingCredits(
  findings: Findings,
  pendingCredits: readonly PendingCreditBody[],
  amounts: readonly bigint[],
): void {
  if (pendingCredits.length === 0) return;
  findings.pending(
    "pending-credits",
    `${pendingCredits.length} credit(s) owed to accounts not delivered yet, ${units(sum(amounts))} in all: ` +
      listed(
        pendingCredits,
        (c) => `${c.reason} ${units(BigInt(c.amountCents))} to ${c.playerId} from table ${c.tableId}`,
      ),
  );
}

/** snapshot: the tables changed while the wallet was read, so the cross-checks compared two moments. */
export function noteSnapshot(findings: Findings, consistent: boolean, readings: number): void {
  if (consistent) return;
  findings.pending(
    "snapshot",
    `the tables changed while the wallet was read (${readings} reading(s)): the cross-checks compare ` +
      "two different moments and cannot decide a gap that money moving between them may explain; audit " +
      "again when the tables are quiet",
  );
}

/** Every table's undelivered credits, as the report lists them. */
export function pendingCreditsBody(findings: Findings, table: TableAuditResponse): PendingCreditBody[] {
  return table.tables.flatMap((t) =>
    t.pendingCredits.map((credit) => ({
      tableId: t.tableId,
      key: credit.key,
      playerId: credit.playerId,
      amountCents: findings.num(big(credit.amountCents)),
      reason: credit.reason,
      reference: credit.reference,
    })),
  );
}
