// An evaluation of a table's river independent of the odds service: the odds service's own
// brute-force reference evaluator (best of the 21 five-card subsets of seven cards, ranked naively),
// fed with the API's card codes.
import { compareNaive, naiveBest } from "../../common/test/poker/helpers/naive-poker.js";

const RANKS = "23456789TJQKA";
const SUITS = "cdhs";

/** "Ah" -> rank * 4 + suit, the reference evaluator's encoding. */
function cardNumber(code: string): number {
  const rank = RANKS.indexOf(code[0] ?? "");
  const suit = SUITS.indexOf(code[1] ?? "");
  if (code.length !== 2 || rank < 0 || suit < 0) throw new Error(`not a card: ${code}`);
  return rank * 4 + suit;
}

/** "AhKd" -> its two cards. */
const holeCards = (hand: string): [string, string] => [hand.slice(0, 2), hand.slice(2, 4)];

/** The indexes of the hands that win (several on a tie) with this full five-card board. */
export function winningHands(hands: readonly string[], board: readonly string[]): number[] {
  if (board.length !== 5) throw new Error(`a river board has five cards, not ${board.length}`);
  const boardCards = board.map(cardNumber);
  const ranks = hands.map((hand) => naiveBest([...holeCards(hand).map(cardNumber), ...boardCards]));
  const best = ranks.reduce((a, b) => (compareNaive(a, b) >= 0 ? a : b));
  return ranks.flatMap((rank, i) => (compareNaive(rank, best) === 0 ? [i] : []));
}

/**
 * What a bet returns at the river, in cents: stake x odds / k for a bet on one of k winning hands,
 * floored to the cent, else 0. Odds are shown to one decimal, so the arithmetic is exact in integers.
 */
export function payoutCents(stakeCents: number, odds: number, handIndex: number, winners: readonly number[]): number {
  if (!winners.includes(handIndex)) return 0;
  const exact = stakeCents * Math.round(odds * 10); // tenths of a cent, an integer well below 2^53
  const denominator = 10 * winners.length;
  return (exact - (exact % denominator)) / denominator;
}
