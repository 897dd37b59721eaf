// What a unit bet on a hand is worth: its expected share of the pot. The payout rule (table
// service, payouts.ts) pays odds / k to each of k hands tying for the win, so a bet's expected
// return is odds x (P(wins alone) + sum over k of P(ties with k - 1 others) / k). The odds engine
// reports only P(wins alone) and P(ties), not how many hands tie; the share needs the split:
//
// - Flop and turn: every remaining board (at most C(45, 2) = 990) is evaluated here, exactly.
// - Hole, 2 hands: every tie is two-way, share = win + draw / 2, exact.
// - Hole, 3 hands: the engine's counts fix it exactly. With W_i, D_i the boards hand i wins
//   alone or ties, N the boards, T = N - sum W the tied boards and M = sum D = 2 T2 + 3 T3, the
//   three-way ties number T3 = M - 2 T, and each hand is in all of them.
// - Hole, 4+ hands: exact when M = 2 T (no tie of three or more); otherwise the part of the share
//   that ties of three or more hands change, sum over k >= 3 of D_i,k (1 / k - 1 / 2), is
//   estimated from uniformly sampled boards (unbiased; its standard error is reported). Enumerating
//   C(44, 5) boards here would cost ~50 ms a game, 60 times the engine; if the engine exposed its
//   per-winner-set counts, this estimate would become exact at no cost.

import { evaluate7 } from "@pokerodds/odds/domain/evaluator";
import { randomFillSync } from "node:crypto";

type Card = number;

/** Per hand: boards won alone and tied (out of `boards`), and the expected share of the pot. */
export interface Shares {
  wins: number[];
  draws: number[];
  boards: number;
  /** Fraction of the pot expected: wins / boards plus each tie's 1 / k, over the boards. */
  share: number[];
  /** Standard error of each share: 0 when exact. */
  shareError: number[];
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

/** Exact shares by evaluating every completion of the board: cheap from the flop on. */
export function enumeratedShares(hands: readonly (readonly Card[])[], board: readonly Card[]): Shares {
  const n = hands.length;
  const win = new Array<number>(n).fill(0);
  const draw = new Array<number>(n).fill(0);
  const share = new Array<number>(n).fill(0);
  let boards = 0;
  forEachCompletion(board, remainingCards(hands, board), (full) => {
    boards++;
    const winners = winnersOn(hands, full);
    for (const i of winners) {
      if (winners.length === 1) win[i]!++;
      else draw[i]!++;
      share[i]! += 1 / winners.length;
    }
  });
  return { wins: win, draws: draw, boards, share: share.map((s) => s / boards), shareError: share.map(() => 0) };
}

/** Engine counts of one spot: boards won alone and tied per hand, out of `boards`. */
export interface EngineCounts {
  wins: number[];
  draws: number[];
  boards: number;
}

/** Uniform integers from the operating system's CSPRNG, drawn in blocks (one syscall per 16 KiB). */
export class CryptoIntegers {
  private readonly words = new Uint32Array(4096);
  private next = this.words.length;

  /** A uniform integer in [0, bound), 1 <= bound <= 2^16, by rejection (no modulo bias). */
  below(bound: number): number {
    const limit = 0x100000000 - (0x100000000 % bound);
    for (;;) {
      if (this.next === this.words.length) {
        randomFillSync(this.words);
        this.next = 0;
      }
      const word = this.words[this.next++]!;
      if (word < limit) return word % bound;
    }
  }
}

/** Shares at the hole from the engine's exact counts (see the header for when it is exact). */
export function holeShares(
  hands: readonly (readonly Card[])[],
  counts: EngineCounts,
  samples: number,
  random: CryptoIntegers,
): Shares {
  const { wins, draws, boards } = counts;
  const n = hands.length;
  const tied = boards - wins.reduce((s, w) => s + w, 0);
  const tieMemberships = draws.reduce((s, d) => s + d, 0);
  const base = (i: number) => (wins[i]! + draws[i]! / 2) / boards;
  const result = (share: number[], shareError: number[]): Shares => ({ wins, draws, boards, share, shareError });
  const exact = (share: number[]) =>
    result(
      share,
      share.map(() => 0),
    );
  if (n <= 2 || tieMemberships === 2 * tied) return exact(hands.map((_, i) => base(i)));
  if (n === 3) {
    const threeWay = tieMemberships - 2 * tied;
    return exact(hands.map((_, i) => base(i) + (threeWay * (1 / 3 - 1 / 2)) / boards));
  }
  const { mean, error } = sampledWideTieCorrection(hands, samples, random);
  return result(
    hands.map((_, i) => base(i) + mean[i]!),
    error,
  );
}

/**
 * The mean over uniformly sampled boards of, per hand, 1 / k - 1 / 2 when it is among k >= 3
 * tied winners (0 otherwise), with the standard error of that mean.
 */
export function sampledWideTieCorrection(
  hands: readonly (readonly Card[])[],
  samples: number,
  random: CryptoIntegers,
): { mean: number[]; error: number[] } {
  const n = hands.length;
  const deck = remainingCards(hands, []);
  const sum = new Array<number>(n).fill(0);
  const sumSquares = new Array<number>(n).fill(0);
  const board: Card[] = [0, 0, 0, 0, 0];
  for (let s = 0; s < samples; s++) {
    // Partial Fisher-Yates: the first five positions become a uniform five-card draw.
    for (let k = 0; k < 5; k++) {
      const j = k + random.below(deck.length - k);
      const card = deck[j]!;
      deck[j] = deck[k]!;
      deck[k] = card;
      board[k] = card;
    }
    const winners = winnersOn(hands, board);
    if (winners.length < 3) continue;
    const delta = 1 / winners.length - 1 / 2;
    for (const i of winners) {
      sum[i]! += delta;
      sumSquares[i]! += delta * delta;
    }
  }
  const mean = sum.map((s) => s / samples);
  const error = mean.map((m, i) => Math.sqrt(Math.max(0, sumSquares[i]! / samples - m * m) / (samples - 1)));
  return { mean, error };
}
