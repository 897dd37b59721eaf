// The wallet on its own: its own verdict, its identity, and its per-(kind, reason) totals.
import {
  TRANSFER_DEBIT_REASONS,
  TRANSFER_REFUND_REASONS,
  TABLE_CREDIT_REASONS,
} from "@pokerodds/common/ledger-reasons";
import {
  MovementKind,
  type AuditResponse as WalletAuditResponse,
  type ReasonTotal,
} from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { big, units } from "../figures.js";
import { listed, type Findings } from "../findings.js";
import { MOVEMENT_KINDS, type AuditReportBody } from "../report.js";

type KindName = (typeof MOVEMENT_KINDS)[number];
type ReasonTotalBody = AuditReportBody["wallet"]["reasonTotals"][number];

/** The wallet's totals, in BigInt. */
export interface WalletFigures {
  balances: bigint;
  welcome: bigint;
  deposits: bigint;
  withdrawals: bigint;
  debits: bigint;
  credits: bigint;
}

/** The applied amounts per kind, and per "<kind>:<reason>", as the reason totals add them up. */
export interface ReasonTally {
  byKind: ReadonlyMap<string, bigint>;
  byReason: ReadonlyMap<string, bigint>;
}

const KIND_NAME: Record<number, KindName> = {
  [MovementKind.MOVEMENT_KIND_WELCOME]: "WELCOME",
  [MovementKind.MOVEMENT_KIND_DEBIT]: "DEBIT",
  [MovementKind.MOVEMENT_KIND_CREDIT]: "CREDIT",
  [MovementKind.MOVEMENT_KIND_DEPOSIT]: "DEPOSIT",
  [MovementKind.MOVEMENT_KIND_WITHDRAW]: "WITHDRAW",
};

/** The reasons the table service writes, per direction (common/src/ledger-reasons.ts). */
const KNOWN_REASONS: Partial<Record<KindName, ReadonlySet<string>>> = {
  DEBIT: new Set(TRANSFER_DEBIT_REASONS),
  CREDIT: new Set([...TRANSFER_REFUND_REASONS, ...TABLE_CREDIT_REASONS]),
};

const kindName = (kind: MovementKind): KindName => KIND_NAME[kind] ?? "UNSPECIFIED";

export function walletFigures(wallet: WalletAuditResponse): WalletFigures {
  return {
    balances: big(wallet.totals?.balancesCents),
    welcome: big(wallet.totals?.welcomeCreditsCents),
    deposits: big(wallet.totals?.depositsCents),
    withdrawals: big(wallet.totals?.withdrawalsCents),
    debits: big(wallet.totals?.debitsCents),
    credits: big(wallet.totals?.creditsCents),
  };
}

/**
 * The wallet's ledger issues, all of them: it lists the first few and counts the rest. A wallet
 * still running the version before the count (a rolling update) lists every one and counts none.
 */
export const walletIssueCount = (wallet: WalletAuditResponse): number =>
  Math.max(wallet.issueCount, wallet.issues.length);

/** wallet-clean: the wallet's own audit is clean (its ledgers replay, its balances add up). */
export function checkWalletClean(findings: Findings, wallet: WalletAuditResponse): void {
  const issues = walletIssueCount(wallet);
  if (wallet.clean && wallet.conserved && issues === 0) return;
  const what = [
    wallet.conserved ? "" : "its balances do not add up",
    issues > 0 ? `${issues} ledger issue(s): ${listed(wallet.issues, issueText, issues)}` : "",
  ].filter(Boolean);
  findings.mismatch("wallet-clean", `the wallet's own audit is not clean: ${what.join("; ") || "it says so"}`);
}

/** wallet-identity: balances = welcome + deposits + credits - withdrawals - debits. */
export function checkWalletIdentity(findings: Findings, w: WalletFigures): void {
  const expected = w.welcome + w.deposits + w.credits - w.withdrawals - w.debits;
  if (w.balances === expected) return;
  findings.mismatch(
    "wallet-identity",
    `account balances ${units(w.balances)} but welcome credits + deposits + credits - withdrawals - debits ` +
      `= ${units(expected)} (off by ${units(w.balances - expected)})`,
  );
}

/**
 * wallet-kinds and wallet-reasons, total by total in the wallet's order: every total is of a kind the
 * wallet defines, and every debit and credit carries a reason the table service writes.
 */
export function checkReasonTotals(findings: Findings, wallet: WalletAuditResponse): void {
  for (const total of wallet.reasonTotals) {
    const kind = kindName(total.kind);
    if (kind === "UNSPECIFIED") {
      findings.mismatch(
        "wallet-kinds",
        `${total.count} movement(s) of an unknown kind (${total.kind}), reason "${total.reason}"`,
      );
    } else if (KNOWN_REASONS[kind] && !KNOWN_REASONS[kind].has(total.reason)) {
      const moved = kind === "DEBIT" ? "debited" : "credited";
      findings.mismatch(
        "wallet-reasons",
        `${units(big(total.amountCents))} ${moved} in ${total.count} movement(s) with reason "${total.reason}", which no table writes`,
      );
    }
  }
}

/** wallet-kinds: the per-(kind, reason) totals of each kind add up to that kind's total. */
export function checkKindTotals(findings: Findings, w: WalletFigures, tally: ReasonTally): void {
  const kindTotals: Array<[KindName, bigint, string]> = [
    ["WELCOME", w.welcome, "welcome credits"],
    ["DEPOSIT", w.deposits, "deposits"],
    ["WITHDRAW", w.withdrawals, "withdrawals"],
    ["DEBIT", w.debits, "debits"],
    ["CREDIT", w.credits, "credits"],
  ];
  for (const [kind, total, name] of kindTotals) {
    const perReason = tally.byKind.get(kind) ?? 0n;
    if (perReason !== total) {
      findings.mismatch(
        "wallet-kinds",
        `${name} total ${units(total)} but its per-reason totals add up to ${units(perReason)}`,
      );
    }
  }
}

/** The reason totals added up per kind and per (kind, reason). */
export function tallyReasonTotals(totals: readonly ReasonTotal[]): ReasonTally {
  const byKind = new Map<string, bigint>();
  const byReason = new Map<string, bigint>();
  for (const total of totals) {
    const kind = kindName(total.kind);
    const amount = big(total.amountCents);
    byKind.set(kind, (byKind.get(kind) ?? 0n) + amount);
    byReason.set(`${kind}:${total.reason}`, (byReason.get(`${kind}:${total.reason}`) ?? 0n) + amount);
  }
  return { byKind, byReason };
}

/** The amount moved as one of these reasons of one kind. */
export function reasonSum(tally: ReasonTally, kind: KindName, reasons: readonly string[]): bigint {
  return reasons.reduce((total, reason) => total + (tally.byReason.get(`${kind}:${reason}`) ?? 0n), 0n);
}

export function reasonTotalsBody(findings: Findings, totals: readonly ReasonTotal[]): ReasonTotalBody[] {
  return totals.map((total) => ({
    kind: kindName(total.kind),
    reason: total.reason,
    count: total.count,
    amountCents: findings.num(big(total.amountCents)),
  }));
}

function issueText(issue: { playerId: string; sequence: number; problem: string }): string {
  return `${issue.playerId || "(all)"}${issue.sequence ? ` #${issue.sequence}` : ""}: ${issue.problem}`;
}
