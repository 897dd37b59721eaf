// The money audit across both services, pure: from the wallet's Audit and the table service's Audit,
// does every cent add up? decisions.md's conservation rule, with the undelivered credits the tables
// owe accounts on the held side:
//
//   account balances + seats + open stakes + outbox + house result = welcome credits + deposits - withdrawals
//
// Every figure is recomputed here from the raw totals (the services' own verdicts are checked too, not
// trusted), in BigInt, so no sum can lose a cent. The rules, each a named check:
//
//   wallet-clean     the wallet's own audit is clean (its ledgers replay, its balances add up)
//   wallet-identity  balances = welcome + deposits + credits - withdrawals - debits
//   wallet-kinds     the per-(kind, reason) totals of each kind add up to that kind's total
//   wallet-reasons   every debit and credit carries a reason the table service writes
//   table-conserved  every table, as the table service reports it, is conserved
//   table-identity   per table: credited = seats + open stakes + outbox + delivered + house result,
//                    and no balance, stake, outbox, delivered or credited figure is negative
//   table-outbox     per table: its pending credits add up to its outbox, each positive, with a table reason
//   table-totals     the reported totals are the sum over the tables
//   table-transfers  every open transfer is of a known kind; sits and top-ups carry an amount
//   transfers-in     debits(sit, topup) = credited + refunds(sit-refund, topup-refund) + in transit, where
//                    in transit (debited, neither on a seat nor refunded yet) must be the sum of some of
//                    the open sit and top-up transfers: 0 when none is open
//   credits-out      credits(leave, payout, void-refund) = delivered + credited-not-marked, where the
//                    latter (credited to the account, delivery not yet recorded by the table) must be the
//                    sum of some of the pending credits: 0 when none is pending
//   conservation     held - funded = credited-not-marked - in transit, i.e. 0 once settled
//
// Open transfers and pending credits are not faults: they make the report "pending" (not settled yet),
// and the identity may then be off by exactly the amounts in flight, which the report shows. Whether
// such a gap is explained depends on both readings being of one moment: when the table side changed
// while the wallet was read (`consistent` false), an unexplained gap is reported as unsettled, not as a
// mismatch. Every other check is within one service's reading and always decides.
import {
  MovementKind,
  type AuditResponse as WalletAuditResponse,
} from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import {
  GameState,
  TransferKind,
  type AuditResponse as TableAuditResponse,
  type TableAudit,
  type TableMoney,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import {
  MOVEMENT_KINDS,
  TRANSFER_KINDS,
  type AuditCheck,
  type AuditFinding,
  type AuditReportBody,
  type CrossCheckBody,
  type TableMoneyBodyType,
} from "../contract/audit.js";
import { formatCents } from "./money-text.js";
import {
  KNOWN_CREDIT_REASONS,
  KNOWN_DEBIT_REASONS,
  TABLE_CREDIT_REASONS,
  TRANSFER_DEBIT_REASONS,
  TRANSFER_REFUND_REASONS,
} from "./reasons.js";
import { isSubsetSum } from "./subset-sums.js";

export interface ReconcileInput {
  wallet: WalletAuditResponse;
  table: TableAuditResponse;
  /** False when the table side changed while the wallet was read. Defaults to true. */
  consistent?: boolean;
  /** How many readings were taken to get this one. Defaults to 1. */
  readings?: number;
  auditedAt?: Date;
}

const MAX_WALLET_ISSUES = 100;
const MAX_LISTED = 5;

const MONEY_FIELDS = [
  "seatsCents",
  "openStakesCents",
  "outboxCents",
  "deliveredCents",
  "houseResultCents",
  "creditedCents",
] as const satisfies readonly (keyof TableMoney)[];
type MoneyField = (typeof MONEY_FIELDS)[number];
type BigMoney = Record<MoneyField, bigint>;

/** Figures that can never be negative (the house result can). */
const NON_NEGATIVE: readonly MoneyField[] = [
  "seatsCents",
  "openStakesCents",
  "outboxCents",
  "deliveredCents",
  "creditedCents",
];

const KIND_NAME: Record<number, (typeof MOVEMENT_KINDS)[number]> = {
  [MovementKind.MOVEMENT_KIND_WELCOME]: "WELCOME",
  [MovementKind.MOVEMENT_KIND_DEBIT]: "DEBIT",
  [MovementKind.MOVEMENT_KIND_CREDIT]: "CREDIT",
  [MovementKind.MOVEMENT_KIND_DEPOSIT]: "DEPOSIT",
  [MovementKind.MOVEMENT_KIND_WITHDRAW]: "WITHDRAW",
};

const TRANSFER_KIND_NAME: Record<number, (typeof TRANSFER_KINDS)[number]> = {
  [TransferKind.TRANSFER_KIND_SIT]: "SIT",
  [TransferKind.TRANSFER_KIND_TOP_UP]: "TOP_UP",
  [TransferKind.TRANSFER_KIND_LEAVE]: "LEAVE",
};

const big = (value: number | undefined): bigint => BigInt(value ?? 0);
const sum = (values: Iterable<bigint>): bigint => {
  let total = 0n;
  for (const value of values) total += value;
  return total;
};
const units = formatCents;

function bigMoney(money: TableMoney | undefined): BigMoney {
  return Object.fromEntries(MONEY_FIELDS.map((field) => [field, big(money?.[field])])) as BigMoney;
}

function gameStateName(state: GameState): string {
  const name = GameState[state] as string | undefined;
  return name ? name.replace(/^GAME_STATE_/, "") : "UNRECOGNIZED";
}

function listed<T>(items: readonly T[], describe: (item: T) => string): string {
  const shown = items.slice(0, MAX_LISTED).map(describe).join("; ");
  return items.length > MAX_LISTED ? `${shown}; and ${items.length - MAX_LISTED} more` : shown;
}

class Findings {
  readonly mismatches: AuditFinding[] = [];
  readonly unsettled: AuditFinding[] = [];
  /** Checks whose values could not be reported exactly as JSON numbers. */
  private inexact = false;

  mismatch(check: AuditCheck, message: string): void {
    this.mismatches.push({ check, message });
  }

  pending(check: AuditCheck, message: string): void {
    this.unsettled.push({ check, message });
  }

  /** A bigint as a JSON number, noting any value past 2^53 (it cannot be reported to the cent). */
  num(value: bigint): number {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) this.inexact = true;
    return Number(value);
  }

  close(): void {
    if (this.inexact) this.mismatch("exact-range", "a figure is beyond 2^53 cents and cannot be reported exactly");
  }
}

export function reconcile(input: ReconcileInput): AuditReportBody {
  const { wallet, table } = input;
  const consistent = input.consistent ?? true;
  const findings = new Findings();
  const num = (value: bigint) => findings.num(value);

  // ---- the wallet on its own ------------------------------------------------------------------
  const w = {
    balances: big(wallet.totals?.balancesCents),
    welcome: big(wallet.totals?.welcomeCreditsCents),
    deposits: big(wallet.totals?.depositsCents),
    withdrawals: big(wallet.totals?.withdrawalsCents),
    debits: big(wallet.totals?.debitsCents),
    credits: big(wallet.totals?.creditsCents),
  };
  if (!wallet.clean || !wallet.conserved || wallet.issues.length > 0) {
    const what = [
      wallet.conserved ? "" : "its balances do not add up",
      wallet.issues.length > 0 ? `${wallet.issues.length} ledger issue(s): ${listed(wallet.issues, issueText)}` : "",
    ].filter(Boolean);
    findings.mismatch("wallet-clean", `the wallet's own audit is not clean: ${what.join("; ") || "it says so"}`);
  }
  const walletExpected = w.welcome + w.deposits + w.credits - w.withdrawals - w.debits;
  if (w.balances !== walletExpected) {
    findings.mismatch(
      "wallet-identity",
      `account balances ${units(w.balances)} but welcome credits + deposits + credits - withdrawals - debits ` +
        `= ${units(walletExpected)} (off by ${units(w.balances - walletExpected)})`,
    );
  }

  const byKind = new Map<string, bigint>();
  const byReason = new Map<string, bigint>();
  const reasonTotals = wallet.reasonTotals.map((total) => {
    const kind = KIND_NAME[total.kind] ?? "UNSPECIFIED";
    const amount = big(total.amountCents);
    byKind.set(kind, (byKind.get(kind) ?? 0n) + amount);
    byReason.set(`${kind}:${total.reason}`, (byReason.get(`${kind}:${total.reason}`) ?? 0n) + amount);
    if (kind === "UNSPECIFIED") {
      findings.mismatch(
        "wallet-kinds",
        `${total.count} movement(s) of an unknown kind (${total.kind}), reason "${total.reason}"`,
      );
    } else if (kind === "DEBIT" && !KNOWN_DEBIT_REASONS.has(total.reason)) {
      findings.mismatch(
        "wallet-reasons",
        `${units(amount)} debited in ${total.count} movement(s) with reason "${total.reason}", which no table writes`,
      );
    } else if (kind === "CREDIT" && !KNOWN_CREDIT_REASONS.has(total.reason)) {
      findings.mismatch(
        "wallet-reasons",
        `${units(amount)} credited in ${total.count} movement(s) with reason "${total.reason}", which no table writes`,
      );
    }
    return { kind, reason: total.reason, count: total.count, amountCents: num(amount) };
  });
  const kindTotals: Array<[(typeof MOVEMENT_KINDS)[number], bigint, string]> = [
    ["WELCOME", w.welcome, "welcome credits"],
    ["DEPOSIT", w.deposits, "deposits"],
    ["WITHDRAW", w.withdrawals, "withdrawals"],
    ["DEBIT", w.debits, "debits"],
    ["CREDIT", w.credits, "credits"],
  ];
  for (const [kind, total, name] of kindTotals) {
    const perReason = byKind.get(kind) ?? 0n;
    if (perReason !== total) {
      findings.mismatch(
        "wallet-kinds",
        `${name} total ${units(total)} but its per-reason totals add up to ${units(perReason)}`,
      );
    }
  }
  const reasonSum = (kind: string, reasons: readonly string[]) =>
    sum(reasons.map((reason) => byReason.get(`${kind}:${reason}`) ?? 0n));

  // ---- the tables on their own ----------------------------------------------------------------
  const problemTables = new Map<number, TableAudit>();
  const tableMoney = table.tables.map((t) => ({ audit: t, money: bigMoney(t.money) }));
  for (const { audit, money } of tableMoney) {
    const where = `table ${audit.tableId}`;
    if (!audit.conserved) {
      problemTables.set(audit.tableId, audit);
      findings.mismatch("table-conserved", `${where}: the table service reports it not conserved`);
    }
    const held =
      money.seatsCents + money.openStakesCents + money.outboxCents + money.deliveredCents + money.houseResultCents;
    if (held !== money.creditedCents) {
      problemTables.set(audit.tableId, audit);
      findings.mismatch(
        "table-identity",
        `${where}: credited ${units(money.creditedCents)} but seats + open stakes + outbox + delivered + ` +
          `house result = ${units(held)} (off by ${units(held - money.creditedCents)})`,
      );
    }
    const negative = NON_NEGATIVE.filter((field) => money[field] < 0n);
    if (negative.length > 0) {
      problemTables.set(audit.tableId, audit);
      findings.mismatch(
        "table-identity",
        `${where}: negative ${negative.map((field) => `${field} ${units(money[field])}`).join(", ")}`,
      );
    }
    const owed = sum(audit.pendingCredits.map((c) => big(c.amountCents)));
    if (owed !== money.outboxCents) {
      problemTables.set(audit.tableId, audit);
      findings.mismatch(
        "table-outbox",
        `${where}: outbox ${units(money.outboxCents)} but its ${audit.pendingCredits.length} pending credit(s) add up to ${units(owed)}`,
      );
    }
    for (const credit of audit.pendingCredits) {
      const known = (TABLE_CREDIT_REASONS as readonly string[]).includes(credit.reason);
      if (!known || credit.amountCents <= 0) {
        problemTables.set(audit.tableId, audit);
        findings.mismatch(
          "table-outbox",
          `${where}: pending credit ${credit.key} of ${units(big(credit.amountCents))} with reason "${credit.reason}" ` +
            (known ? "is not positive" : "has no wallet counterpart"),
        );
      }
    }
  }
  if (table.conserved !== table.tables.every((t) => t.conserved)) {
    findings.mismatch("table-conserved", "the table service's overall verdict disagrees with its tables'");
  }
  const totals = bigMoney(table.totals);
  for (const field of MONEY_FIELDS) {
    const summed = sum(tableMoney.map(({ money }) => money[field]));
    if (summed !== totals[field]) {
      findings.mismatch(
        "table-totals",
        `tables' ${field} total ${units(totals[field])} but the tables add up to ${units(summed)}`,
      );
    }
  }

  const openTransfers = table.openTransfers.map((transfer) => {
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
      amountCents: num(amount),
      createdAt: transfer.createdAt,
    };
  });
  const pendingCredits = table.tables.flatMap((t) =>
    t.pendingCredits.map((credit) => ({
      tableId: t.tableId,
      key: credit.key,
      playerId: credit.playerId,
      amountCents: num(big(credit.amountCents)),
      reason: credit.reason,
      reference: credit.reference,
    })),
  );

  // ---- across the two -------------------------------------------------------------------------
  const transferAmounts = table.openTransfers
    .filter((t) => t.kind === TransferKind.TRANSFER_KIND_SIT || t.kind === TransferKind.TRANSFER_KIND_TOP_UP)
    .map((t) => big(t.amountCents));
  const creditAmounts = table.tables.flatMap((t) => t.pendingCredits.map((c) => big(c.amountCents)));

  const debitedForSeats = reasonSum("DEBIT", TRANSFER_DEBIT_REASONS);
  const refunded = reasonSum("CREDIT", TRANSFER_REFUND_REASONS);
  for (const [debit, refund] of [
    ["sit", "sit-refund"],
    ["topup", "topup-refund"],
  ] as const) {
    const debited = byReason.get(`DEBIT:${debit}`) ?? 0n;
    const back = byReason.get(`CREDIT:${refund}`) ?? 0n;
    if (back > debited) {
      findings.mismatch(
        "transfers-in",
        `${units(back)} credited as "${refund}" but only ${units(debited)} was ever debited as "${debit}"`,
      );
    }
  }
  const inTransit = debitedForSeats - refunded - totals.creditedCents;
  const transfersIn = crossCheck(findings, consistent, {
    check: "transfers-in",
    formula: "debits(sit, topup) = credited + refunds(sit-refund, topup-refund) + in transit (open sits and top-ups)",
    wallet: debitedForSeats,
    refunds: refunded,
    table: totals.creditedCents,
    open: transferAmounts,
    gapText: (gap) => `${units(gap)} debited from accounts for sits and top-ups is neither on a seat nor refunded`,
    pendingText: (gap) =>
      `${units(gap)} debited for open sits or top-ups is not on a seat yet (${transferAmounts.length} open, ` +
      `${units(sum(transferAmounts))} in all)`,
    overText: (gap) =>
      `the tables credited seats with ${units(-gap)} more than the wallet debited for them (net of refunds)`,
  });

  const creditedByTables = reasonSum("CREDIT", TABLE_CREDIT_REASONS);
  const creditedNotMarked = creditedByTables - totals.deliveredCents;
  const creditsOut = crossCheck(findings, consistent, {
    check: "credits-out",
    formula:
      "credits(leave, payout, void-refund) = delivered + credited but not yet marked delivered (pending credits)",
    wallet: creditedByTables,
    refunds: 0n,
    table: totals.deliveredCents,
    open: creditAmounts,
    gapText: (gap) => `accounts were credited ${units(gap)} more than the tables recorded as delivered`,
    pendingText: (gap) => `${units(gap)} credited to accounts is still in a table outbox (delivery not yet recorded)`,
    overText: (gap) => `the tables recorded ${units(-gap)} more delivered than the wallet credited`,
  });

  const held = w.balances + totals.seatsCents + totals.openStakesCents + totals.outboxCents + totals.houseResultCents;
  const funded = w.welcome + w.deposits - w.withdrawals;
  const difference = held - funded;
  const unexplained = difference + inTransit - creditedNotMarked;
  const heldText =
    `held ${units(held)} (accounts ${units(w.balances)} + seats ${units(totals.seatsCents)} + open stakes ` +
    `${units(totals.openStakesCents)} + owed to accounts ${units(totals.outboxCents)} + house result ` +
    `${units(totals.houseResultCents)}) against funded ${units(funded)} (welcome credits ${units(w.welcome)} + ` +
    `deposits ${units(w.deposits)} - withdrawals ${units(w.withdrawals)})`;
  const gapsExplained = transfersIn.explained && creditsOut.explained;
  if (difference !== 0n) {
    const offBy = `${heldText}: off by ${units(difference)}`;
    const inFlight = `the ${units(inTransit)} in transit to seats and the ${units(creditedNotMarked)} credited but not yet marked delivered`;
    if (unexplained !== 0n) {
      findings.mismatch("conservation", `money is not conserved: ${offBy}`);
    } else if (gapsExplained) {
      findings.pending("conservation", `${offBy}, exactly ${inFlight}`);
    } else if (consistent) {
      findings.mismatch("conservation", `money is not conserved: ${offBy}, and ${inFlight} are not what is in flight`);
    } else {
      findings.pending("conservation", `${offBy} (read while money moved: not conclusive)`);
    }
  }

  if (openTransfers.length > 0) {
    findings.pending(
      "open-transfers",
      `${openTransfers.length} transfer(s) not finished: ${listed(openTransfers, (t) => `${t.kind} ${units(BigInt(t.amountCents))} for ${t.playerId} at table ${t.tableId} since ${t.createdAt}`)}`,
    );
  }
  if (pendingCredits.length > 0) {
    findings.pending(
      "pending-credits",
      `${pendingCredits.length} credit(s) owed to accounts not delivered yet, ${units(sum(creditAmounts))} in all: ` +
        listed(
          pendingCredits,
          (c) => `${c.reason} ${units(BigInt(c.amountCents))} to ${c.playerId} from table ${c.tableId}`,
        ),
    );
  }
  if (!consistent) {
    findings.pending(
      "snapshot",
      `the tables changed while the wallet was read (${input.readings ?? 1} reading(s)): the cross-checks compare ` +
        "two different moments and cannot decide; audit again when the tables are quiet",
    );
  }
  const moneyBody = (money: BigMoney): TableMoneyBodyType =>
    Object.fromEntries(MONEY_FIELDS.map((field) => [field, num(money[field])])) as TableMoneyBodyType;
  const identity: AuditReportBody["identity"] = {
    accountBalancesCents: num(w.balances),
    seatsCents: num(totals.seatsCents),
    openStakesCents: num(totals.openStakesCents),
    owedToAccountsCents: num(totals.outboxCents),
    houseResultCents: num(totals.houseResultCents),
    heldCents: num(held),
    welcomeCreditsCents: num(w.welcome),
    depositsCents: num(w.deposits),
    withdrawalsCents: num(w.withdrawals),
    fundedCents: num(funded),
    differenceCents: num(difference),
    inTransitCents: num(inTransit),
    creditedNotMarkedCents: num(creditedNotMarked),
    unexplainedCents: num(unexplained),
    holds: difference === 0n,
  };
  const walletSection: AuditReportBody["wallet"] = {
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
    reasonTotals,
    issueCount: wallet.issues.length,
    issues: wallet.issues
      .slice(0, MAX_WALLET_ISSUES)
      .map(({ playerId, sequence, problem }) => ({ playerId, sequence, problem })),
  };
  const tablesSection: AuditReportBody["tables"] = {
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
    crossChecks: [transfersIn, creditsOut],
    wallet: walletSection,
    tables: tablesSection,
    openTransfers,
    pendingCredits,
  };
}

interface CrossCheckTerms {
  check: CrossCheckBody["check"];
  formula: string;
  wallet: bigint;
  refunds: bigint;
  table: bigint;
  /** Amounts of the open items that may account for a gap. */
  open: readonly bigint[];
  gapText: (gap: bigint) => string;
  pendingText: (gap: bigint) => string;
  overText: (gap: bigint) => string;
}

function crossCheck(findings: Findings, consistent: boolean, terms: CrossCheckTerms): CrossCheckBody {
  const gap = terms.wallet - terms.refunds - terms.table;
  const explained = isSubsetSum(gap, terms.open);
  if (gap !== 0n) {
    const unexplainedText = gap > 0n ? terms.gapText(gap) : terms.overText(gap);
    if (explained) findings.pending(terms.check, terms.pendingText(gap));
    else if (consistent) {
      const open = terms.open.length > 0 ? `; the ${terms.open.length} open item(s) cannot account for it` : "";
      findings.mismatch(terms.check, `${unexplainedText}${open}`);
    } else findings.pending(terms.check, `${unexplainedText} (read while money moved: not conclusive)`);
  }
  return {
    check: terms.check,
    formula: terms.formula,
    walletCents: findings.num(terms.wallet),
    refundsCents: findings.num(terms.refunds),
    tableCents: findings.num(terms.table),
    differenceCents: findings.num(gap),
    openCents: findings.num(sum(terms.open)),
    holds: gap === 0n,
    explained,
  };
}

function issueText(issue: { playerId: string; sequence: number; problem: string }): string {
  return `${issue.playerId || "(all)"}${issue.sequence ? ` #${issue.sequence}` : ""}: ${issue.problem}`;
}
