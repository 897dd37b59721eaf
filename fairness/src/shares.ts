// What a unit bet on a hand is worth: its expected share of the pot. The payout rule (table
// service, payouts.ts) pays odds / k to each of k hands tying for the win, so a bet's expected
// return is odds x (P(wins alone) + sum over k of P(ties with k - 1 others) / k): the hand's
// dead-heat share, which the odds engine prices from (pricing.ts) and reports exactly.
//
// - Flop and turn: every remaining board (at most C(45, 2) = 990) is evaluated here, exactly and
//   independently of the engine, whose published percentages and shares are checked against it.
// - Hole: the engine's exact shares (exactCounts: per winner set, counted in whole units of
//   1 / lcm(1..n) board). Enumerating C(44, 5) boards here would cost ~50 ms a game, 60 times the
//   engine; the engine is held equal to a board-by-board oracle count for count by its own tests,
//   and shares.test.ts checks it against enumeratedShares on tie-heavy spots.

import { exactCounts } from "@pokerodds/common/poker/equity-exact";
import { evaluate7 } from "@pokerodds/common/poker/evaluator";

type Card = number;

/** Per hand: boards won alone and tied (out of `boards`), and the expected share of the pot. */
export interface Shares {
  wins: number[];
  draws: number[];
  boards: number;
  /** Fraction of the pot expected: wins / boards plus each tie's 1 / k, over the boards. */
  share: number[];
}

const FULL_DECK = Array.from({ length: 52 }, (_, c) => c);

/** Cards neither in a hand nor on the board, ascending. */
export function remainingCards(hands: readonly (readonly Card[])[], board: readonly Card[]): Card[] {
  const used = new Set([...hands.flat(), ...board]);
  return FULL_DECK.filter((c) => !used.has(c));
}

/** The hands (indices) holding the best seven-card value on a complete five-card board. */
export function winnersOn(hands: readonly (readonly Card[])[], board: readonly Card[]): number[] {
  const [a, b, c, d, e] = board as [Card, Card, Card, Card, Card];
  let top = -1;
  let winners: number[] = [];
  hands.forEach(([h0, h1], i) => {
    const value = evaluate7(h0!, h1!, a, b, c, d, e);
    if (value > top) {
      top = value;
      winners = [i];
    } else if (value === top) winners.push(i);
  });
  return winners;
}

/** Calls visit with every way to complete the board to five cards from `deck` (ascending combinations). */
export function forEachCompletion(board: readonly Card[], deck: readonly Card[], visit: (full: Card[]) => void): void {
  const full = [...board];
  const missing = 5 - board.length;
  const walk = (from: number, left: number): void => {
    if (left === 0) return visit(full);
    for (let i = from; i <= deck.length - left; i++) {
      full.push(deck[i]!);
      walk(i + 1, left - 1);
      full.pop();
    }
  };
  walk(0, missing);
}

/**
 * Exact shares by evaluating every completion of the board: cheap from the flop on. Boards are
 * counted per hand by the number of winners k, and the 1 / k summed once at the end: a sum of a
 * million thirds would drift by 1e-11.
 */
export function enumeratedShares(hands: readonly (readonly Card[])[], board: readonly Card[]): Shares {
  const n = hands.length;
  // bySize[i][k]: boards hand i wins with k - 1 others.
  const bySize = hands.map(() => new Array<number>(n + 1).fill(0));
  let boards = 0;
  forEachCompletion(board, remainingCards(hands, board), (full) => {
    boards++;
    const winners = winnersOn(hands, full);
    for (const i of winners) bySize[i]![winners.length]!++;
  });
  return {
    wins: bySize.map((counts) => counts[1]!),
    draws: bySize.map((counts) => counts.reduce((sum, c, k) => (k >= 2 ? sum + c : sum), 0)),
    boards,
    share: bySize.map((counts) => counts.reduce((sum, c, k) => (k >= 1 ? sum + c / k : sum), 0) / boards),
  };
}

/** The engine's exact counts and shares of a spot (used at the hole; see the header). */
export function engineShares(hands: readonly (readonly Card[])[], board: readonly Card[]): Shares {
  const { wins, draws, boards, shareUnits, shareScale } = exactCounts(hands, board);
  // One division of two exact integers: the share correctly rounded to a double.
  return { wins, draws, boards, share: shareUnits.map((u) => u / (shareScale * boards)) };
}
