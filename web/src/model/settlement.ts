// A game's bets as a player reads them: their open stake on a hand, and once the game is settled,
// the winning hands and what their own bets returned.
import type { Bet, HandOdds, TableState } from "../api/client";
import { formatCents, formatMoney, formatSignedCents, payoutCents, toCents } from "./money";

/** The hands that won at the river (several on a tie), or null before the river. */
export function winningHands(state: TableState): number[] | null {
  if (state.gameState !== "STATUS_RIVER") return null;
  return state.handOdds.filter((o) => o.bettingStage === -1 && o.handStatus === "WINNER").map((o) => o.handIndex);
}

/** What a bet was paid at the river, in cents: nothing unless its hand is among the winners. */
export const paidCents = (bet: Bet, winners: number[]): number =>
  winners.includes(bet.handIndex) ? payoutCents(bet.betAmount, bet.recordedOdds, winners.length) : 0;

export const sumCents = (bets: Bet[], of: (bet: Bet) => number): number =>
  bets.reduce((total, bet) => total + of(bet), 0);

export const stakeCents = (bet: Bet): number => toCents(bet.betAmount);

/**
 * Said beside a bet form of the stake typed: what it returns if the hand wins (stake x the odds shown,
 * rounded down to the cent as the table pays it; a tie pays a share, so that is said when one is
 * possible), or that the seat does not hold it, before the table refuses it.
 */
export function stakeHint(stake: number, odds: HandOdds, seatBalance: number): string {
  if (toCents(stake) > toCents(seatBalance))
    return `Your seat holds ${formatMoney(seatBalance)}: stake less or top up.`;
  if (odds.odds === 1) return "A win only returns the stake.";
  const returns = `Returns ${formatCents(payoutCents(stake, odds.odds, 1))} if it wins`;
  return odds.drawPercentage > 0 ? `${returns} alone; a tie pays a share.` : `${returns}.`;
}

/**
 * The player's open stake on a hand, in cents, and what it returns if that hand wins alone (a dead
 * heat shares it); null once the game is settled or without a bet of theirs on it.
 */
export function openStake(state: TableState, playerId: string, handIndex: number) {
  const mine = state.bets.filter((bet) => bet.playerId === playerId && bet.handIndex === handIndex);
  if (winningHands(state) !== null || mine.length === 0) return null;
  return { staked: sumCents(mine, stakeCents), returns: sumCents(mine, (bet) => paidCents(bet, [handIndex])) };
}

/** "Hand 4 wins." or, on a tie, that the winning bets share the payout. */
export function winnersText(winners: number[]): string {
  if (winners.length === 1) return `Hand ${winners[0]! + 1} wins.`;
  return `Hands ${winners.map((h) => h + 1).join(" and ")} tie: winning bets share the payout.`;
}

/**
 * The player's result once the river is dealt, or null before it. The table pays a winning bet to
 * the bettor's seat while they are seated, to their account otherwise (decisions.md).
 */
export function riverSummary(state: TableState, playerId: string): string | null {
  const winners = winningHands(state);
  if (winners === null) return null;
  const mine = state.bets.filter((bet) => bet.playerId === playerId);
  const game = `Game ${state.gameId} settled. ${winnersText(winners)}`;
  if (mine.length === 0) return `${game} You placed no bets this game.`;
  const staked = sumCents(mine, stakeCents);
  const paid = sumCents(mine, (bet) => paidCents(bet, winners));
  const seated = state.seats.some((seat) => seat.playerId === playerId);
  const to = paid === 0 ? "" : seated ? ", paid to your seat" : ", paid to your account";
  return `${game} You staked ${formatCents(staked)} and were paid ${formatCents(paid)}${to}: net ${formatSignedCents(paid - staked)}.`;
}
