// Across the two services: the wallet's debits for seats against what the tables credited to seats
// (transfers-in), and the wallet's credits from tables against what the tables delivered (credits-out).
// A gap must be what is in flight: the sum of some of the open items (each has reached the other side
// or not).
import {
  TransferKind,
  type AuditResponse as TableAuditResponse,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import {
  REFUND_REASON_OF,
  TABLE_CREDIT_REASONS,
  TRANSFER_DEBIT_REASONS,
  TRANSFER_REFUND_REASONS,
} from "@pokerodds/common/ledger-reasons";
import { big, sum, units, type BigMoney } from "../figures.js";
import type { Findings } from "../findings.js";
import type { CrossCheckBody } from "../report.js";
import { subsetSum, type SubsetSum } from "../subset-sums.js";
import { reasonSum, type ReasonTally } from "./wallet.js";

interface CrossCheckResult {
  body: CrossCheckBody;
  /** The gap: in transit (transfers-in) or credited but not yet marked delivered (credits-out). */
  gap: bigint;
  /** Why a gap the open items were not shown to account for is no mismatch; undefined when it is one. */
  inconclusive: string | undefined;
}

interface CrossCheckTerms {
  check: CrossCheckBody["check"];
  formula: string;
  wallet: bigint;
  refunds: bigint;
  table: bigint;
  /** Amounts of the open items that may account for a gap. */
  open: readonly bigint[];
  /**
   * What wallet - refunds may be at any moment the wallet was read in, however the tables moved
   * meanwhile (figures that only grow, read before and after it); none without a reading before.
   */
  possible: { min: bigint; max?: bigint } | undefined;
  gapText: (gap: bigint) => string;
  pendingText: (gap: bigint) => string;
  overText: (gap: bigint) => string;
}

/**
 * transfers-in: debits(sit, topup) = credited + refunds(sit-refund, topup-refund) + in transit, where in
 * transit (debited, neither on a seat nor refunded yet) must be the sum of some of the open sit and
 * top-up transfers: 0 when none is open. And no refund exceeds what was debited for its kind.
 */
export function checkTransfersIn(
  findings: Findings,
  consistent: boolean,
  tally: ReasonTally,
  table: TableAuditResponse,
  totals: BigMoney,
  before: BigMoney | undefined,
): CrossCheckResult {
  for (const [debit, refund] of Object.entries(REFUND_REASON_OF)) {
    const debited = tally.byReason.get(`DEBIT:${debit}`) ?? 0n;
    const back = tally.byReason.get(`CREDIT:${refund}`) ?? 0n;
    if (back > debited) {
      findings.mismatch(
        "transfers-in",
        `${units(back)} credited as "${refund}" but only ${units(debited)} was ever debited as "${debit}"`,
      );
    }
  }
  const open = table.openTransfers
    .filter((t) => t.kind === TransferKind.TRANSFER_KIND_SIT || t.kind === TransferKind.TRANSFER_KIND_TOP_UP)
    .map((t) => big(t.amountCents));
  return crossCheck(findings, consistent, {
    check: "transfers-in",
    formula: "debits(sit, topup) = credited + refunds(sit-refund, topup-refund) + in transit (open sits and top-ups)",
    wallet: reasonSum(tally, "DEBIT", TRANSFER_DEBIT_REASONS),
    refunds: reasonSum(tally, "CREDIT", TRANSFER_REFUND_REASONS),
    table: totals.creditedCents,
    open,
    // A seat's credit follows its debit, and a credited transfer is never refunded: the net debits
    // read are at least what the tables had credited before. (No ceiling: a sit refused after its
    // debit and refunded while the wallet was read leaves no trace on the tables.)
    possible: before && { min: before.creditedCents },
    gapText: (gap) => `${units(gap)} debited from accounts for sits and top-ups is neither on a seat nor refunded`,
    pendingText: (gap) =>
      `${units(gap)} debited for open sits or top-ups is not on a seat yet (${open.length} open, ` +
      `${units(sum(open))} in all)`,
    overText: (gap) =>
      `the tables credited seats with ${units(-gap)} more than the wallet debited for them (net of refunds)`,
  });
}

/**
 * The twin of checkTransfersIn, for money going the other way: each check names its own formula
 * and texts, and crossCheck holds what they share.
 *
 * credits-out: credits(leave, payout, void-refund) = delivered + credited-not-marked, where the latter
 * (credited to the account, delivery not yet recorded by the table) must be the sum of some of the
 * pending credits: 0 when none is pending.
 */
export function checkCreditsOut(
  findings: Findings,
  consistent: boolean,
  tally: ReasonTally,
  table: TableAuditResponse,
  totals: BigMoney,
  before: BigMoney | undefined,
): CrossCheckResult {
  const open = pendingCreditAmounts(table);
  return crossCheck(findings, consistent, {
    check: "credits-out",
    formula:
      "credits(leave, payout, void-refund) = delivered + credited but not yet marked delivered (pending credits)",
    wallet: reasonSum(tally, "CREDIT", TABLE_CREDIT_REASONS),
    refunds: 0n,
    table: totals.deliveredCents,
    open,
    // A delivery is marked after its account's credit, and a credit is made only of what a table
    // owes: the credits read are at least what the tables had delivered before, and at most what
    // they had delivered or still owed after.
    possible: before && { min: before.deliveredCents, max: totals.deliveredCents + sum(open) },
    gapText: (gap) => `accounts were credited ${units(gap)} more than the tables recorded as delivered`,
    pendingText: (gap) => `${units(gap)} credited to accounts is still in a table outbox (delivery not yet recorded)`,
    overText: (gap) => `the tables recorded ${units(-gap)} more delivered than the wallet credited`,
  });
}

/** What every table still owes accounts, credit by credit. */
export function pendingCreditAmounts(table: TableAuditResponse): bigint[] {
  return table.tables.flatMap((t) => t.pendingCredits.map((c) => big(c.amountCents)));
}

/**
 * wallet - refunds - table: 0 holds; a gap some of the open items add up to is pending; any other gap
 * is a mismatch, unless the two readings are not of one moment or the open items are too many to
 * search (then it cannot decide: pending).
 */
function crossCheck(findings: Findings, consistent: boolean, terms: CrossCheckTerms): CrossCheckResult {
  const gap = terms.wallet - terms.refunds - terms.table;
  const answer = subsetSum(gap, terms.open);
  const explained = answer === "yes";
  const inconclusive = impossible(terms) ? undefined : inconclusiveWhy(consistent, answer);
  if (gap !== 0n) {
    const unexplainedText = gap > 0n ? terms.gapText(gap) : terms.overText(gap);
    if (explained) findings.pending(terms.check, terms.pendingText(gap));
    else if (inconclusive) findings.pending(terms.check, `${unexplainedText} (${inconclusive})`);
    else {
      const open = terms.open.length > 0 ? `; the ${terms.open.length} open item(s) cannot account for it` : "";
      findings.mismatch(terms.check, `${unexplainedText}${open}`);
    }
  }
  const body: CrossCheckBody = {
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
  return { body, gap, inconclusive };
}

/** Whether wallet - refunds is outside what any moment of the reading allows: a mismatch, however money moved. */
function impossible({ wallet, refunds, possible }: CrossCheckTerms): boolean {
  const net = wallet - refunds;
  return possible !== undefined && (net < possible.min || (possible.max !== undefined && net > possible.max));
}

/**
 * Why a gap that no subset of the open items was found to make may still be no fault: the readings
 * are of two moments, or the search would take too long to tell.
 */
function inconclusiveWhy(consistent: boolean, answer: SubsetSum): string | undefined {
  if (!consistent) return "read while money moved: not conclusive";
  if (answer === "undecided") return "too many open items to search for some that add up to it: not conclusive";
  return undefined;
}
