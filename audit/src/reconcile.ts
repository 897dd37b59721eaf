// The money audit across both services, pure: from the wallet's Audit and the table service's Audit,
// does every cent add up? decisions.md's conservation rule, with the undelivered credits the tables
// owe accounts on the held side:
//
//   account balances + seats + open stakes + outbox + house result = welcome credits + deposits - withdrawals
//
// Every figure is recomputed here from the raw totals (the services' own verdicts are checked too, not
// trusted), in BigInt, so no sum can lose a cent. The rules, each a named check and a function of
// its own in checks/ (which the report's findings name):
//
//   wallet-clean     the wallet's own audit is clean (its ledgers replay, its balances add up)
//   wallet-identity  balances = welcome + deposits + credits - withdrawals - debits
//   wallet-kinds     every total is of a known kind; the per-(kind, reason) totals of each kind add up
//                    to that kind's total
//   wallet-reasons   every debit and credit carries a reason the table service writes
//   table-conserved  every table, as the table service reports it, is conserved, and so is the whole
//   table-identity   per table: credited = seats + open stakes + outbox + delivered + house result,
//                    and no balance, stake, outbox, delivered or credited figure is negative
//   table-outbox     per table: its pending credits add up to its outbox, each positive, with a table reason
//   table-totals     the reported totals are the sum over the tables
//   table-transfers  every open transfer is of a known kind; sits and top-ups carry an amount
//   transfers-in     debits(sit, topup) = credited + refunds(sit-refund, topup-refund) + in transit, where
//                    in transit (debited, neither on a seat nor refunded yet) must be the sum of some of
//                    the open sit and top-up transfers: 0 when none is open; no refund exceeds its debits
//   credits-out      credits(leave, payout, void-refund) = delivered + credited-not-marked, where the
//                    latter (credited to the account, delivery not yet recorded by the table) must be the
//                    sum of some of the pending credits: 0 when none is pending
//   conservation     held - funded = credited-not-marked - in transit, i.e. 0 once settled
//   exact-range      every figure of the report is a JSON number exact to the cent (below 2^53)
//
// Open transfers and pending credits are not faults: they make the report "pending" (not settled yet),
// and the identity may then be off by exactly the amounts in flight, which the report shows. Whether
// such a gap is explained depends on both readings being of one moment: when the table side changed
// while the wallet was read (`consistent` false), an unexplained gap is reported as unsettled, not as a
// mismatch, and so is one when the open items are too many to search (subset-sums.ts); unless the
// wallet's figure is outside what any moment of the reading allows (the tables' figures that only
// grow, read before and after the wallet), which is a mismatch however money moved. Every other
// check is within one service's reading and always decides. What is in flight is
// noted as open-transfers, pending-credits and snapshot (never mismatches).
//
// The checks run in a fixed order, which is the order of the report's findings.
import { gameStateName } from "@pokerodds/common/game-state-names";
import type {
  AuditResponse as TableAuditResponse,
  TableAudit,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import type { AuditResponse as WalletAuditResponse } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { AUDIT_ISSUES_LISTED } from "@pokerodds/common/limits";
import { perMoneyField } from "@pokerodds/common/table-money";
import { checkConservation } from "./checks/conservation.js";
import { noteOpenTransfers, notePendingCredits, noteSnapshot, pendingCreditsBody } from "./checks/in-flight.js";
import {
  checkEachTable,
  checkTablesVerdict,
  checkTableTotals,
  checkTableTransfers,
  tableFigures,
} from "./checks/tables.js";
import { checkCreditsOut, checkTransfersIn, pendingCreditAmounts } from "./checks/transfers.js";
import {
  checkKindTotals,
  checkReasonTotals,
  checkWalletClean,
  checkWalletIdentity,
  reasonTotalsBody,
  tallyReasonTotals,
  walletFigures,
  walletIssueCount,
  type WalletFigures,
} from "./checks/wallet.js";
import { bigMoney, type BigMoney } from "./figures.js";
import { Findings } from "./findings.js";
import type { AuditReportBody, TableMoneyBodyType } from "./report.js";

export interface ReconcileInput {
  wallet: WalletAuditResponse;
  table: TableAuditResponse;
  /** False when the table side changed while the wallet was read. Defaults to true. */
  consistent?: boolean;
  /**
   * The table side's totals read before the wallet (`table` is read after it): what only grows
   * bounds the cross-checks even while money moves. Without it, a consistent reading's own.
   */
  tableBefore?: TableAuditResponse["totals"];
  /** How many readings were taken, this one the latest consistent of them (or the last). Defaults to 1. */
  readings?: number;
  auditedAt?: Date;
}

export function reconcile(input: ReconcileInput): AuditReportBody {
  const { wallet, table } = input;
  const consistent = input.consistent ?? true;
  const findings = new Findings();

  // The wallet on its own.
  const w = walletFigures(wallet);
  checkWalletClean(findings, wallet);
  checkWalletIdentity(findings, w);
  checkReasonTotals(findings, wallet);
  const tally = tallyReasonTotals(wallet.reasonTotals);
  checkKindTotals(findings, w, tally);

  // The tables on their own.
  const tables = tableFigures(table);
  const problemTables = checkEachTable(findings, tables);
  checkTablesVerdict(findings, table);
  const totals = bigMoney(table.totals);
  checkTableTotals(findings, tables, totals);
  const openTransfers = checkTableTransfers(findings, table.openTransfers);

  // Across the two.
  const before = input.tableBefore ? bigMoney(input.tableBefore) : consistent ? totals : undefined;
  const transfersIn = checkTransfersIn(findings, consistent, tally, table, totals, before);
  const creditsOut = checkCreditsOut(findings, consistent, tally, table, totals, before);
  const identity = checkConservation(findings, w, totals, {
    inTransit: transfersIn.gap,
    creditedNotMarked: creditsOut.gap,
    explained: transfersIn.body.explained && creditsOut.body.explained,
    // Only a gap a cross-check could not decide leaves the identity undecided.
    inconclusive:
      (transfersIn.gap !== 0n ? transfersIn.inconclusive : undefined) ??
      (creditsOut.gap !== 0n ? creditsOut.inconclusive : undefined),
  });

  // What is in flight.
  const pendingCredits = pendingCreditsBody(findings, table);
  noteOpenTransfers(findings, openTransfers);
  notePendingCredits(findings, pendingCredits, pendingCreditAmounts(table));
  noteSnapshot(findings, consistent, input.readings ?? 1);

  const walletSection = walletSectionOf(findings, wallet, w);
  const tablesSection = tablesSectionOf(findings, table, totals, problemTables);
  // Last: every reported figure has been converted, so an inexact one is among the findings.
  findings.close();

  const status = findings.mismatches.length > 0 ? "mismatch" : findings.unsettled.length > 0 ? "pending" : "clean";
  return {
    status,
    clean: status === "clean",
    settled: openTransfers.length === 0 && pendingCredits.length === 0,
    auditedAt: (input.auditedAt ?? new Date()).toISOString(),
    snapshot: { consistent, readings: input.readings ?? 1 },
    mismatches: findings.mismatches,
    unsettled: findings.unsettled,
    identity,
    crossChecks: [transfersIn.body, creditsOut.body],
    wallet: walletSection,
    tables: tablesSection,
    openTransfers,
    pendingCredits,
  };
}

function walletSectionOf(findings: Findings, wallet: WalletAuditResponse, w: WalletFigures): AuditReportBody["wallet"] {
  const num = (value: bigint) => findings.num(value);
  return {
    clean: wallet.clean,
    conserved: wallet.conserved,
    accounts: wallet.accounts,
    entries: wallet.entries,
    refusedEntries: wallet.refusedEntries,
    totals: {
      balancesCents: num(w.balances),
      welcomeCreditsCents: num(w.welcome),
      depositsCents: num(w.deposits),
      withdrawalsCents: num(w.withdrawals),
      debitsCents: num(w.debits),
      creditsCents: num(w.credits),
    },
    reasonTotals: reasonTotalsBody(findings, wallet.reasonTotals),
    issueCount: walletIssueCount(wallet),
    issues: wallet.issues
      .slice(0, AUDIT_ISSUES_LISTED)
      .map(({ playerId, sequence, problem }) => ({ playerId, sequence, problem })),
  };
}

function tablesSectionOf(
  findings: Findings,
  table: TableAuditResponse,
  totals: BigMoney,
  problemTables: ReadonlyMap<number, TableAudit>,
): AuditReportBody["tables"] {
  const moneyBody = (money: BigMoney): TableMoneyBodyType => perMoneyField((field) => findings.num(money[field]));
  return {
    conserved: table.conserved,
    tableCount: table.tables.length,
    games: table.games,
    totals: moneyBody(totals),
    problemTables: [...problemTables.values()].map((t) => ({
      tableId: t.tableId,
      version: t.version,
      gameId: t.gameId,
      gameState: gameStateName(t.gameState),
      conserved: t.conserved,
      money: moneyBody(bigMoney(t.money)),
    })),
  };
}
