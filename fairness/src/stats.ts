// The statistics of the report, pure: the card-by-position chi-square, ratio estimates with
// confidence intervals, and fixed-bin histograms. Every accumulator here is a plain object of
// sums, so worker threads can send them and the main thread can merge them in any order.

import chiSquareCdf from "@stdlib/stats-base-dists-chisquare-cdf";

export const DECK = 52;
/** The two-sided 95 % normal quantile. */
const Z95 = 1.959963984540054;

export interface ChiSquareResult {
  shuffles: number;
  statistic: number;
  /**
   * 52 x 51: each cell of a uniform shuffle's table is Binomial(shuffles, 1/52), so the statistic's
   * mean is 52^2 x 51/52 = 2,652 (measured so, over repeated runs), not the (r-1)(c-1) = 2,601 of a
   * table whose margins are estimated: both margins here are fixed by the design.
   */
  df: number;
  /** P(chi-square >= statistic) for a uniform shuffle: tiny means non-uniform. */
  pValue: number;
  /** P(chi-square <= statistic): tiny means too even, as a stratified (not random) source would be. */
  lowerTailP: number;
  /** Largest |observed - expected| / sqrt(expected) over the 2,704 cells. */
  maxAbsResidual: number;
}

/** A 52 x 52 table of how often each card (row) lands at each position (column). */
export function emptyPositionCounts(): Float64Array {
  return new Float64Array(DECK * DECK);
}

/** Counts one deck: card c at position p adds 1 at c * 52 + p. */
export function countPositions(counts: Float64Array, deck: readonly number[]): void {
  for (let position = 0; position < DECK; position++) counts[deck[position]! * DECK + position]!++;
}

/** (observed - expected) / sqrt(expected) per cell: about N(0, 1) each for a uniform shuffle. */
export function standardizedResiduals(counts: ArrayLike<number>, shuffles: number): Float64Array {
  const expected = shuffles / DECK;
  return Float64Array.from(counts, (observed) => (observed - expected) / Math.sqrt(expected));
}

/** Pearson's chi-square of the card-by-position table against the uniform expectation. */
export function cardPositionChiSquare(counts: ArrayLike<number>, shuffles: number): ChiSquareResult {
  if (counts.length !== DECK * DECK) throw new RangeError(`a position table has ${DECK * DECK} cells`);
  if (!Number.isInteger(shuffles) || shuffles < 1) throw new RangeError("at least one shuffle is needed");
  const residuals = standardizedResiduals(counts, shuffles);
  let statistic = 0;
  let maxAbsResidual = 0;
  for (const r of residuals) {
    statistic += r * r;
    maxAbsResidual = Math.max(maxAbsResidual, Math.abs(r));
  }
  const df = DECK * (DECK - 1);
  const cdf = chiSquareCdf(statistic, df);
  return { shuffles, statistic, df, pValue: 1 - cdf, lowerTailP: cdf, maxAbsResidual };
}

/**
 * Sums for a ratio estimate sum(y) / sum(x) over independent units (games): x is what was staked
 * in a game, y what came back. Bets within one game are not independent (one board settles them
 * all), so the game, not the bet, is the unit of the confidence interval.
 */
export interface RatioSums {
  n: number;
  x: number;
  y: number;
  xx: number;
  yy: number;
  xy: number;
}

export const emptyRatio = (): RatioSums => ({ n: 0, x: 0, y: 0, xx: 0, yy: 0, xy: 0 });

export function addPair(sums: RatioSums, x: number, y: number): void {
  sums.n++;
  sums.x += x;
  sums.y += y;
  sums.xx += x * x;
  sums.yy += y * y;
  sums.xy += x * y;
}

export function mergeRatio(a: RatioSums, b: RatioSums): RatioSums {
  return { n: a.n + b.n, x: a.x + b.x, y: a.y + b.y, xx: a.xx + b.xx, yy: a.yy + b.yy, xy: a.xy + b.xy };
}

export interface Estimate {
  value: number;
  standardError: number;
  /** The 95 % confidence interval. */
  low: number;
  high: number;
}

/**
 * R = sum(y) / sum(x) with its delta-method standard error: the sample variance of the residuals
 * y - R x (whose mean is 0 by construction), over n, divided by the mean of x squared.
 */
export function ratioEstimate(sums: RatioSums): Estimate {
  if (sums.n < 2 || sums.x <= 0)
    return { value: Number.NaN, standardError: Number.NaN, low: Number.NaN, high: Number.NaN };
  const r = sums.y / sums.x;
  const residualSquares = Math.max(0, sums.yy - 2 * r * sums.xy + r * r * sums.xx);
  const standardError = Math.sqrt((residualSquares / (sums.n - 1)) * sums.n) / sums.x;
  return { value: r, standardError, low: r - Z95 * standardError, high: r + Z95 * standardError };
}

/** Fixed bins over [low, high); values outside are counted apart, so nothing is silently lost. */
export interface Histogram {
  low: number;
  high: number;
  counts: number[];
  below: number;
  above: number;
}

export function emptyHistogram(low: number, high: number, bins: number): Histogram {
  if (!(high > low) || !Number.isInteger(bins) || bins < 1)
    throw new RangeError("a histogram needs low < high and bins >= 1");
  return { low, high, counts: new Array<number>(bins).fill(0), below: 0, above: 0 };
}

export function addToHistogram(histogram: Histogram, value: number): void {
  if (value < histogram.low) histogram.below++;
  else if (value >= histogram.high) histogram.above++;
  else {
    const bins = histogram.counts.length;
    const bin = Math.min(bins - 1, Math.floor(((value - histogram.low) / (histogram.high - histogram.low)) * bins));
    histogram.counts[bin]!++;
  }
}

export function mergeHistograms(a: Histogram, b: Histogram): Histogram {
  if (a.low !== b.low || a.high !== b.high || a.counts.length !== b.counts.length) {
    throw new RangeError("histograms with different bins");
  }
  return {
    low: a.low,
    high: a.high,
    counts: a.counts.map((c, i) => c + b.counts[i]!),
    below: a.below + b.below,
    above: a.above + b.above,
  };
}

/** Bin i's lower edge. */
export const binStart = (histogram: Histogram, i: number): number =>
  histogram.low + ((histogram.high - histogram.low) * i) / histogram.counts.length;
