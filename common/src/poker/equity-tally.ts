// Board results counted by winner set: a board's result is the bitmask of the hands that share
// the best value, and recording it is one counter update (counts[mask] += weight). Wins, draws
// and dead-heat shares per hand are read off the counters once, at the end.
//
// Up to MASK_HANDS hands the counters are a typed array indexed by mask; beyond (only possible
// outside the game's 2..6 hands) a Map keyed by mask, slower but bounded by the boards seen.

import type { Equity, Fraction } from "./equity-types.js";

/** Most hands counted in a typed array of 2^n counters (32 KiB at 12). */
const MASK_HANDS = 12;

/** Per hand: boards won alone, boards tied for best, and share units (see shareScale). */
export interface HandCounts {
  wins: number[];
  draws: number[];
  /**
   * Boards won, a k-way tie counting 1/k of a board, in units of 1 / shareScale board: a whole
   * number, so the shares stay exact (a float sum of thirds would not).
   */
  shareUnits: number[];
  /** lcm(1..n): every 1/k of a board, k <= n, is a whole number of these units. */
  shareScale: number;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** lcm(1, 2, ..., n): 60 for the game's 6 hands, 27,720 for 12. */
function tieScale(n: number): number {
  let scale = 1;
  for (let k = 2; k <= n; k++) scale = (scale / gcd(scale, k)) * k;
  return scale;
}

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

  /** Boards each hand wins alone, ties for best, and its share units: Σ over its winner sets S of count(S) x scale / |S|. */
  perHand(): HandCounts {
    const { n } = this;
    const wins = new Array<number>(n).fill(0);
    const draws = new Array<number>(n).fill(0);
    const shareUnits = new Array<number>(n).fill(0);
    const shareScale = tieScale(n);
    const entries: Iterable<[number, number]> = this.large ?? this.counts.entries();
    for (const [mask, count] of entries) {
      if (count === 0) continue;
      if ((mask & (mask - 1)) === 0) {
        const i = 31 - Math.clz32(mask);
        wins[i]! += count;
        shareUnits[i]! += count * shareScale;
        continue;
      }
      let size = 0;
      for (let m = mask; m !== 0; m &= m - 1) size++;
      const units = count * (shareScale / size);
      for (let i = 0; i < n; i++) {
        if ((mask & (1 << i)) === 0) continue;
        draws[i]! += count;
        shareUnits[i]! += units;
      }
    }
    return { wins, draws, shareUnits, shareScale };
  }

  /** The winner sets counted on some board (count above zero), as masks of hand indexes. */
  occurring(): number[] {
    const masks: number[] = [];
    const entries: Iterable<[number, number]> = this.large ?? this.counts.entries();
    for (const [mask, count] of entries) if (count > 0) masks.push(mask);
    return masks;
  }

  /** Percentages and exact shares of `boards` (the total weight counted). */
  toEquity(boards: number): Equity {
    return equityOf(this.perHand(), boards);
  }
}

/**
 * Percentages as 100 * count / boards, and each share as the exact fraction
 * shareUnits / (shareScale * boards). Throws if that denominator would not be a safe integer
 * (never at the game's sizes: at most 1.7 million boards x 60).
 */
export function equityOf(counts: HandCounts, boards: number): Equity {
  const { wins, draws, shareUnits, shareScale } = counts;
  const denominator = shareScale * boards;
  if (!Number.isSafeInteger(denominator)) {
    throw new RangeError(`equity: ${boards} boards are too many to share exactly`);
  }
  const shares = shareUnits.map((numerator): Fraction => ({ numerator, denominator }));
  return {
    winPercent: wins.map((w) => (100 * w) / boards),
    drawPercent: draws.map((d) => (100 * d) / boards),
    sharePercent: shareUnits.map((u) => (100 * u) / denominator),
    shares,
    boards,
  };
}
