// The audit report as a person reads it (`npm run audit`): the verdict first, then the conservation
// identity in units, both sides' figures, the cross-checks, and everything found.
import type { AuditFinding, AuditReportBody } from "./report.js";
import { formatCents } from "./money-text.js";

const VERDICT: Record<AuditReportBody["status"], string> = {
  clean: "CLEAN: money is conserved to the cent and nothing is in flight",
  pending: "PENDING: nothing wrong found, but not settled yet",
  mismatch: "MISMATCH: money does not add up",
};

const MAX_ITEMS = 20;

function table(rows: ReadonlyArray<readonly [string, number]>): string[] {
  const amounts = rows.map(([, cents]) => formatCents(cents));
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const amountWidth = Math.max(...amounts.map((a) => a.length));
  return rows.map(([label], i) => `  ${label.padEnd(labelWidth)}  ${amounts[i]!.padStart(amountWidth)}`);
}

function findings(title: string, items: readonly AuditFinding[]): string[] {
  if (items.length === 0) return [];
  return ["", `${title} (${items.length})`, ...items.map((f) => `  - [${f.check}] ${f.message}`)];
}

function capped<T>(items: readonly T[], line: (item: T) => string): string[] {
  const lines = items.slice(0, MAX_ITEMS).map((item) => `  ${line(item)}`);
  if (items.length > MAX_ITEMS) lines.push(`  ... and ${items.length - MAX_ITEMS} more`);
  return lines;
}

export function formatAuditSummary(report: AuditReportBody): string {
  return [
    ...verdictLines(report),
    "",
    ...identityLines(report.identity),
    "",
    ...sidesLines(report),
    "",
    ...crossCheckLines(report),
    ...findings("Mismatches", report.mismatches),
    ...findings("Not settled yet", report.unsettled),
    ...inFlightLines(report),
  ].join("\n");
}

function verdictLines(report: AuditReportBody): string[] {
  return [
    `Money audit of ${report.auditedAt}: ${VERDICT[report.status]}`,
    report.snapshot.consistent
      ? `  (one consistent reading of wallet and tables; ${report.snapshot.readings} taken)`
      : `  (the tables changed while the wallet was read, ${report.snapshot.readings} reading(s): a gap money moving may explain is not conclusive)`,
  ];
}

function identityLines(id: AuditReportBody["identity"]): string[] {
  return [
    "Conservation, in units: held = funded",
    ...table([
      ["account balances", id.accountBalancesCents],
      ["+ seats", id.seatsCents],
      ["+ open stakes", id.openStakesCents],
      ["+ owed to accounts (outboxes)", id.owedToAccountsCents],
      ["+ house result", id.houseResultCents],
      ["= held", id.heldCents],
      ["welcome credits", id.welcomeCreditsCents],
      ["+ deposits", id.depositsCents],
      ["- withdrawals", id.withdrawalsCents],
      ["= funded", id.fundedCents],
      ["held - funded", id.differenceCents],
      ["  in transit to seats", id.inTransitCents],
      ["  credited, not yet marked delivered", id.creditedNotMarkedCents],
      ["  unexplained", id.unexplainedCents],
    ]),
  ];
}

function sidesLines({ wallet, tables }: AuditReportBody): string[] {
  return [
    `Wallet: ${wallet.accounts} account(s), ${wallet.entries} ledger entries (${wallet.refusedEntries} refused); ` +
      `its own audit ${wallet.clean ? "clean" : `NOT clean (${wallet.issueCount} issue(s))`}`,
    ...capped(
      wallet.reasonTotals,
      (r) =>
        `${r.kind.padEnd(8)} ${(r.reason || "(none)").padEnd(14)} ${String(r.count).padStart(8)} x ${formatCents(r.amountCents).padStart(18)}`,
    ),
    `Tables: ${tables.tableCount} table(s), ${tables.games} finished game(s); ` +
      (tables.conserved ? "every table conserved" : "NOT every table conserved"),
    ...table([
      ["credited to seats (sits, top-ups)", tables.totals.creditedCents],
      ["delivered to accounts", tables.totals.deliveredCents],
    ]),
  ];
}

function crossCheckLines({ crossChecks, mismatches }: AuditReportBody): string[] {
  const failed = new Set(mismatches.map((m) => m.check));
  return [
    "Cross-checks, in units",
    ...crossChecks.map((c) => {
      const refunds = c.check === "transfers-in" ? ` - refunds ${formatCents(c.refundsCents)}` : "";
      const verdict = c.holds
        ? "holds"
        : c.explained
          ? "explained by what is in flight"
          : failed.has(c.check)
            ? "DOES NOT HOLD"
            : "not conclusive (see below)";
      return (
        `  ${c.check}: wallet ${formatCents(c.walletCents)}${refunds} - tables ${formatCents(c.tableCents)} = ` +
        `${formatCents(c.differenceCents)} (in flight: ${formatCents(c.openCents)}): ${verdict}`
      );
    }),
  ];
}

function inFlightLines(report: AuditReportBody): string[] {
  const lines: string[] = [];
  if (report.openTransfers.length > 0) {
    lines.push("", `Open transfers (${report.openTransfers.length})`);
    lines.push(
      ...capped(
        report.openTransfers,
        (t) =>
          `${t.kind} ${formatCents(t.amountCents)} for ${t.playerId} at table ${t.tableId}, since ${t.createdAt} (${t.transferId})`,
      ),
    );
  }
  if (report.pendingCredits.length > 0) {
    lines.push("", `Credits owed to accounts, not delivered yet (${report.pendingCredits.length})`);
    lines.push(
      ...capped(
        report.pendingCredits,
        (c) => `${c.reason} ${formatCents(c.amountCents)} to ${c.playerId} from table ${c.tableId} (${c.key})`,
      ),
    );
  }
  return lines;
}
