// Ending a game with money: settlement at the river, or a void that refunds every open bet.
//
// A winning bet pays stake x recordedOdds / k when k hands tie for the win (dead heat), rounded
// down to the cent (common's payout.ts, which the web client shows too); the fraction stays with the
// house and is recorded exactly as a fraction of a cent over 10k.

import { MAX_BALANCE_CENTS } from "@pokerodds/common/limits";
import { payoutOf } from "@pokerodds/common/payout";
import { sumCents } from "./money.js";
import type { BetSettlement, GameRecord, HandOdds, OutboxCredit, Seat, TableSnapshot } from "./types.js";
import { TABLE_KEY_PREFIX } from "@pokerodds/common/movement-keys";

/**
 * Per-player totals in order of first appearance (deterministic outbox order). Every entry is at least
 * a cent (a stake refunded, or a payout: one that rounds to nothing is paid NONE), so no total is 0
 * and the outbox never takes a credit the wallet would refuse.
 */
function totalsByPlayer(entries: readonly { playerId: string; cents: number }[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const { playerId, cents } of entries) totals.set(playerId, sumCents([totals.get(playerId) ?? 0, cents]));
  return totals;
}

/** One credit per player and game: the key is the wallet's idempotency key for that transfer. */
function gameCredits(
  gameId: string,
  reason: "PAYOUT" | "VOID_REFUND",
  totals: Map<string, number>,
  now: number,
): OutboxCredit[] {
  const tag = reason === "PAYOUT" ? "payout" : "refund";
  return [...totals].map(([playerId, amountCents]) => ({
    key: `${TABLE_KEY_PREFIX}${gameId}:${tag}:${playerId}`,
    playerId,
    amountCents,
    reason,
    reference: gameId,
    createdAt: now,
  }));
}

interface GameEnd {
  seats: readonly Seat[];
  /** Credits to add to the outbox. */
  credits: readonly OutboxCredit[];
  record: GameRecord;
}

/**
 * Settles every bet of the game against the river panels: winners are the hands with status
 * WINNER. A payout goes to the bettor's seat when seated at this table, otherwise to the account;
 * also to the account when the seat would pass the largest balance (MAX_BALANCE_CENTS), which no
 * answer could report.
 */
export function settleGame(snapshot: TableSnapshot, riverPanels: readonly HandOdds[], now: number): GameEnd {
  const winningHands = riverPanels.filter((p) => p.handStatus === "WINNER").map((p) => p.handIndex);
  /** What each seated player's seat may still take, in bet order. */
  const room = new Map(snapshot.seats.map((s) => [s.playerId, MAX_BALANCE_CENTS - s.balanceCents]));
  const settlements = snapshot.bets.map((bet): BetSettlement => {
    const base = { betId: bet.betId, playerId: bet.playerId, handIndex: bet.handIndex };
    const terms = { betAmountCents: bet.betAmountCents, oddsTenths: bet.oddsTenths };
    if (!winningHands.includes(bet.handIndex)) {
      return { ...base, ...terms, returnedCents: 0, remainderNumerator: 0, paidTo: "NONE" };
    }
    const payout = payoutOf(bet.betAmountCents, bet.oddsTenths, winningHands.length);
    // A winning stake can return nothing (a cent at odds under 2.0 on a hand that ties two ways):
    // nothing is paid anywhere, as the record says of every bet that returned nothing.
    if (payout.payoutCents === 0) {
      return { ...base, ...terms, returnedCents: 0, remainderNumerator: payout.remainderNumerator, paidTo: "NONE" };
    }
    const seatRoom = room.get(bet.playerId);
    const toSeat = seatRoom !== undefined && payout.payoutCents <= seatRoom;
    if (toSeat) room.set(bet.playerId, seatRoom - payout.payoutCents);
    return {
      ...base,
      ...terms,
      returnedCents: payout.payoutCents,
      remainderNumerator: payout.remainderNumerator,
      paidTo: toSeat ? "SEAT" : "ACCOUNT",
    };
  });
  const paid = (to: BetSettlement["paidTo"]) =>
    totalsByPlayer(
      settlements.filter((s) => s.paidTo === to).map((s) => ({ playerId: s.playerId, cents: s.returnedCents })),
    );
  const toSeats = paid("SEAT");
  const stakesCents = sumCents(settlements.map((s) => s.betAmountCents));
  const payoutsCents = sumCents(settlements.map((s) => s.returnedCents));
  return {
    seats: snapshot.seats.map((s) =>
      toSeats.has(s.playerId) ? { ...s, balanceCents: sumCents([s.balanceCents, toSeats.get(s.playerId)!]) } : s,
    ),
    credits: gameCredits(snapshot.gameId, "PAYOUT", paid("ACCOUNT"), now),
    record: {
      gameId: snapshot.gameId,
      outcome: "SETTLED",
      finishedAt: now,
      winningHands,
      stakesCents,
      payoutsCents,
      refundsCents: 0,
      houseResultCents: stakesCents - payoutsCents,
      roundingRemainder: {
        numerator: sumCents(settlements.map((s) => s.remainderNumerator)),
        denominator: 10 * winningHands.length,
      },
      bets: settlements,
    },
  };
}

/** Voids the game: every open bet goes back, in full, to its player's account. */
export function voidGame(snapshot: TableSnapshot, now: number): GameEnd {
  const settlements = snapshot.bets.map((bet): BetSettlement => ({
    betId: bet.betId,
    playerId: bet.playerId,
    handIndex: bet.handIndex,
    betAmountCents: bet.betAmountCents,
    oddsTenths: bet.oddsTenths,
    returnedCents: bet.betAmountCents,
    remainderNumerator: 0,
    paidTo: "ACCOUNT",
  }));
  const stakesCents = sumCents(settlements.map((s) => s.betAmountCents));
  return {
    seats: snapshot.seats,
    credits: gameCredits(
      snapshot.gameId,
      "VOID_REFUND",
      totalsByPlayer(settlements.map((s) => ({ playerId: s.playerId, cents: s.returnedCents }))),
      now,
    ),
    record: {
      gameId: snapshot.gameId,
      outcome: "VOID",
      finishedAt: now,
      winningHands: [],
      stakesCents,
      payoutsCents: 0,
      refundsCents: stakesCents,
      houseResultCents: 0,
      roundingRemainder: { numerator: 0, denominator: 1 },
      bets: settlements,
    },
  };
}
