// The tables on their own: each table's verdict, identity and outbox, the service's overall verdict,
// its totals, and its open transfers.
import {
  TransferKind,
  type AuditResponse as TableAuditResponse,
  type OpenTransfer,
  type TableAudit,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { TABLE_CREDIT_REASONS } from "@pokerodds/common/ledger-reasons";
import { TABLE_MONEY_FIELDS, type TableMoneyField } from "@pokerodds/common/table-money";
import { big, bigMoney, sum, units, type BigMoney } from "../figures.js";
import type { Findings } from "../findings.js";
import type { AuditReportBody, TRANSFER_KINDS } from "../report.js";

type OpenTransferBody = AuditReportBody["openTransfers"][number];

/** One table's audit with its money in BigInt. */
interface TableFigures {
  audit: TableAudit;
  money: BigMoney;
}

/** Figures that can never be negative (the house result can). */
const NON_NEGATIVE: readonly TableMoneyField[] = [
  "seatsCents",
  "openStakesCents",
  "outboxCents",
  "deliveredCents",
  "creditedCents",
];

const TRANSFER_KIND_NAME: Record<number, (typeof TRANSFER_KINDS)[number]> = {
  [TransferKind.TRANSFER_KIND_SIT]: "SIT",
  [TransferKind.TRANSFER_KIND_TOP_UP]: "TOP_UP",
  [TransferKind.TRANSFER_KIND_LEAVE]: "LEAVE",
};

export function tableFigures(table: TableAuditResponse): TableFigures[] {
  return table.tables.map((audit) => ({ audit, money: bigMoney(audit.money) }));
}

/**
 * table-conserved, table-identity and table-outbox, table by table (each returns whether the table
 * passes it). Returns the tables that fail one of them, by id, in the order found.
 */
export function checkEachTable(findings: Findings, tables: readonly TableFigures[]): Map<number, TableAudit> {
  const problemTables = new Map<number, TableAudit>();
  for (const { audit, money } of tables) {
    const holds = [
      checkTableConserved(findings, audit),
      checkTableIdentity(findings, audit, money),
      checkTableOutbox(findings, audit, money),
    ];
    if (holds.includes(false)) problemTables.set(audit.tableId, audit);
  }
  return problemTables;
}

/** table-conserved: the table, as the table service reports it, is conserved. */
function checkTableConserved(findings: Findings, audit: TableAudit): boolean {
  if (!audit.conserved) {
    findings.mismatch("table-conserved", `table ${audit.tableId}: the table service reports it not conserved`);
  }
  return audit.conserved;
}

/**
 * table-identity: credited = seats + open stakes + outbox + delivered + house result, and no balance,
 * stake, outbox, delivered or credited figure is negative, nor any one seat.
 */
function checkTableIdentity(findings: Findings, audit: TableAudit, money: BigMoney): boolean {
  const where = `table ${audit.tableId}`;
  const held =
    money.seatsCents + money.openStakesCents + money.outboxCents + money.deliveredCents + money.houseResultCents;
  if (held !== money.creditedCents) {
    findings.mismatch(
      "table-identity",
      `${where}: credited ${units(money.creditedCents)} but seats + open stakes + outbox + delivered + ` +
        `house result = ${units(held)} (off by ${units(held - money.creditedCents)})`,
    );
  }
  const negative = NON_NEGATIVE.filter((field) => money[field] < 0n);
  if (negative.length > 0) {
    findings.mismatch(
      "table-identity",
      `${where}: negative ${negative.map((field) => `${field} ${units(money[field])}`).join(", ")}`,
    );
  }
  if (audit.negativeSeats > 0) {
    findings.mismatch("table-identity", `${where}: ${audit.negativeSeats} seat(s) with a negative balance`);
  }
  return held === money.creditedCents && negative.length === 0 && audit.negativeSeats === 0;
}

/** table-outbox: the pending credits add up to the outbox, each positive, each with a table credit reason. */
function checkTableOutbox(findings: Findings, audit: TableAudit, money: BigMoney): boolean {
  const where = `table ${audit.tableId}`;
  const owed = sum(audit.pendingCredits.map((c) => big(c.amountCents)));
  let holds = owed === money.outboxCents;
  if (!holds) {
    findings.mismatch(
      "table-outbox",
      `${where}: outbox ${units(money.outboxCents)} but its ${audit.pendingCredits.length} pending credit(s) add up to ${units(owed)}`,
    );
  }
  for (const credit of audit.pendingCredits) {
    const known = (TABLE_CREDIT_REASONS as readonly string[]).includes(credit.reason);
    if (known && credit.amountCents > 0) continue;
    holds = false;
    findings.mismatch(
      "table-outbox",
      `${where}: pending credit ${credit.key} of ${units(big(credit.amountCents))} with reason "${credit.reason}" ` +
        (known ? "is not positive" : "has no wallet counterpart"),
    );
  }
  return holds;
}

/** table-conserved, overall: the service's verdict is its tables' verdicts together. */
export function checkTablesVerdict(findings: Findings, table: TableAuditResponse): void {
  if (table.conserved !== table.tables.every((t) => t.conserved)) {
    findings.mismatch("table-conserved", "the table service's overall verdict disagrees with its tables'");
  }
}

/** table-totals: the reported totals are the sum over the tables. */
export function checkTableTotals(findings: Findings, tables: readonly TableFigures[], totals: BigMoney): void {
  for (const field of TABLE_MONEY_FIELDS) {
    const summed = sum(tables.map(({ money }) => money[field]));
    if (summed !== totals[field]) {
      findings.mismatch(
        "table-totals",
        `tables' ${field} total ${units(totals[field])} but the tables add up to ${units(summed)}`,
      );
    }
  }
}

/** table-transfers: every open transfer is of a known kind; sits and top-ups carry an amount, leaves none. */
export function checkTableTransfers(findings: Findings, transfers: readonly OpenTransfer[]): OpenTransferBody[] {
  return transfers.map((transfer) => {
    const kind = TRANSFER_KIND_NAME[transfer.kind] ?? "UNSPECIFIED";
    const amount = big(transfer.amountCents);
    const carriesMoney = kind === "SIT" || kind === "TOP_UP";
    if (kind === "UNSPECIFIED" || (carriesMoney ? amount <= 0n : amount !== 0n)) {
      findings.mismatch(
        "table-transfers",
        `open transfer ${transfer.transferId}: kind ${kind} with amount ${units(amount)}`,
      );
    }
    return {
      transferId: transfer.transferId,
      kind,
      playerId: transfer.playerId,
      tableId: transfer.tableId,
      amountCents: findings.num(amount),
      createdAt: transfer.createdAt,
    };
  });
}
