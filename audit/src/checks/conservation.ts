// The whole identity, decisions.md's conservation rule with the undelivered credits the tables owe
// accounts on the held side:
//
//   account balances + seats + open stakes + outbox + house result = welcome credits + deposits - withdrawals
import { units, type BigMoney } from "../figures.js";
import type { Findings } from "../findings.js";
import type { AuditReportBody } from "../report.js";
import type { WalletFigures } from "./wallet.js";

interface InFlight {
  /** Debited for seats, neither on a seat nor refunded yet: missing from held. */
  inTransit: bigint;
  /** Credited to accounts, still in an outbox: counted twice in held. */
  creditedNotMarked: bigint;
  /** Both gaps are what the open items add up to. */
  explained: boolean;
  /** Why gaps not shown to be what is in flight are no mismatch (a cross-check's); undefined when they are. */
  inconclusive: string | undefined;
}

/**
 * conservation: held - funded = credited-not-marked - in transit, i.e. 0 once settled. Off by exactly
 * what is in flight is pending; anything else is a mismatch, unless the cross-checks could not decide.
 */
export function checkConservation(
  findings: Findings,
  w: WalletFigures,
  totals: BigMoney,
  flight: InFlight,
): AuditReportBody["identity"] {
  const { inTransit, creditedNotMarked } = flight;
  const held = w.balances + totals.seatsCents + totals.openStakesCents + totals.outboxCents + totals.houseResultCents;
  const funded = w.welcome + w.deposits - w.withdrawals;
  const difference = held - funded;
  const unexplained = difference + inTransit - creditedNotMarked;
  if (difference !== 0n) {
    const heldText =
      `held ${units(held)} (accounts ${units(w.balances)} + seats ${units(totals.seatsCents)} + open stakes ` +
      `${units(totals.openStakesCents)} + owed to accounts ${units(totals.outboxCents)} + house result ` +
      `${units(totals.houseResultCents)}) against funded ${units(funded)} (welcome credits ${units(w.welcome)} + ` +
      `deposits ${units(w.deposits)} - withdrawals ${units(w.withdrawals)})`;
    const offBy = `${heldText}: off by ${units(difference)}`;
    const inFlight = `the ${units(inTransit)} in transit to seats and the ${units(creditedNotMarked)} credited but not yet marked delivered`;
    if (unexplained !== 0n) {
      findings.mismatch("conservation", `money is not conserved: ${offBy}`);
    } else if (flight.explained) {
      findings.pending("conservation", `${offBy}, exactly ${inFlight}`);
    } else if (flight.inconclusive) {
      findings.pending("conservation", `${offBy} (${flight.inconclusive})`);
    } else {
      findings.mismatch("conservation", `money is not conserved: ${offBy}, and ${inFlight} are not what is in flight`);
    }
  }
  const num = (value: bigint) => findings.num(value);
  return {
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
}
