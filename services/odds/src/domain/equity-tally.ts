// Board results counted by winner set: a board's result is the bitmask of the hands that share
// the best value, and recording it is one counter update (counts[mask] += weight). Wins and draws
// per hand are read off the counters once, at the end.
//
// Up to MASK_HANDS hands the counters are a typed array indexed by mask; beyond (only possible
// outside the game's 2..6 hands) a Map keyed by mask, slower but bounded by the boards seen.

import type { Equity } from "./equity-types.js";

/** Most hands counted in a typed array of 2^n counters (32 KiB at 12). */
const MASK_HANDS = 12;

export class WinnerTally {
  readonly n: number;
  private readonly counts: Float64Array;
  private readonly large: Map<number, number> | undefined;

  constructor(n: number) {
    this.n = n;
    this.counts = new Float64Array(n <= MASK_HANDS ? 1 << n : 0);
    this.large = n <= MASK_HANDS ? undefined : new Map();
  }

  /** Counts `weight` boards (negative: takes them back) won or shared by the hands in `mask`. */
  add(mask: number, weight: number): void {
    if (this.large === undefined) this.counts[mask]! += weight;
    else this.large.set(mask, (this.large.get(mask) ?? 0) + weight);
  }

  /** Boards each hand wins alone, and boards it shares the best value with another hand. */
  perHand(): { wins: number[]; draws: number[] } {
    const wins = new Array<number>(this.n).fill(0);
    const draws = new Array<number>(this.n).fill(0);
    const entries: Iterable<[number, number]> = this.large ?? this.counts.entries();
    for (const [mask, count] of entries) {
      if (count === 0) continue;
      if ((mask & (mask - 1)) === 0) wins[31 - Math.clz32(mask)]! += count;
      else for (let i = 0; i < this.n; i++) if (mask & (1 << i)) draws[i]! += count;
    }
    return { wins, draws };
  }

  /** Percentages of `boards` (the total weight counted), as 100 * count / boards. */
  toEquity(boards: number): Equity {
    const { wins, draws } = this.perHand();
    return {
      winPercent: wins.map((w) => (100 * w) / boards),
      drawPercent: draws.map((d) => (100 * d) / boards),
      boards,
    };
  }
}
