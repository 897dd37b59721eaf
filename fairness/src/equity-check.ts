// Exact enumeration against Monte Carlo, where both exist (hole, flop, turn). The exact figure is
// the truth; a Monte Carlo estimate of a probability p over m boards has standard error
// sqrt(p (1 - p) / m), so (mc - exact) / SE should look like N(0, 1): |z| > 4 essentially never.

import { dealHoleCards } from "@pokerodds/common/deck-derivation";
import { exactEquity, monteCarloEquity } from "@pokerodds/common/poker/equity";
import { boardSizeAt, type BettingStage } from "@pokerodds/common/poker/pricing";
import { STAGES, type StageName } from "./game.js";

export interface EquityPoint {
  stage: StageName;
  kind: "win" | "draw";
  /** Percentages 0..100. */
  exact: number;
  monteCarlo: number;
  /** (monteCarlo - exact) / standard error; 0 when the exact figure is 0 or 100 (no spread). */
  z: number;
}

export interface EquityTotals {
  spots: number;
  iterations: number;
  points: EquityPoint[];
  /** Exact 0 % or 100 % that Monte Carlo did not reproduce exactly (must stay 0). */
  certainMisses: number;
}

export const emptyEquityTotals = (iterations: number): EquityTotals => ({
  spots: 0,
  iterations,
  points: [],
  certainMisses: 0,
});

/** Compares one spot dealt from `deck` at `stage` (mutates totals). */
export function compareSpot(
  totals: EquityTotals,
  deck: readonly number[],
  numberOfHands: number,
  stage: StageName,
): void {
  const { hands, rest } = dealHoleCards(deck, numberOfHands);
  const board = rest.slice(0, boardSizeAt(STAGES.indexOf(stage) as BettingStage));
  const exact = exactEquity(hands, board);
  const mc = monteCarloEquity(hands, board, totals.iterations);
  totals.spots++;
  const add = (kind: "win" | "draw", exactPercent: number, mcPercent: number) => {
    const p = exactPercent / 100;
    const standardError = 100 * Math.sqrt((p * (1 - p)) / totals.iterations);
    if (standardError === 0) {
      if (mcPercent !== exactPercent) totals.certainMisses++;
      return;
    }
    totals.points.push({
      stage,
      kind,
      exact: exactPercent,
      monteCarlo: mcPercent,
      z: (mcPercent - exactPercent) / standardError,
    });
  };
  hands.forEach((_, i) => {
    add("win", exact.winPercent[i]!, mc.winPercent[i]!);
    add("draw", exact.drawPercent[i]!, mc.drawPercent[i]!);
  });
}

export function mergeEquityTotals(a: EquityTotals, b: EquityTotals): EquityTotals {
  return {
    spots: a.spots + b.spots,
    iterations: a.iterations,
    points: [...a.points, ...b.points],
    certainMisses: a.certainMisses + b.certainMisses,
  };
}

export interface EquitySummary {
  spots: number;
  iterations: number;
  comparisons: number;
  meanAbsDifference: number;
  maxAbsDifference: number;
  maxAbsZ: number;
  /** Share of |z| > 1.96: about 5 % when Monte Carlo is unbiased with the stated spread. */
  beyond95: number;
  /** Mean z squared: about 1 when Monte Carlo's spread is what theory says. */
  meanZSquared: number;
  certainMisses: number;
  byStage: Record<string, { comparisons: number; meanAbsDifference: number; maxAbsZ: number }>;
}

export function equitySummary(totals: EquityTotals): EquitySummary {
  const stats = (points: EquityPoint[]) => ({
    comparisons: points.length,
    meanAbsDifference: points.reduce((s, p) => s + Math.abs(p.monteCarlo - p.exact), 0) / Math.max(1, points.length),
    maxAbsZ: points.reduce((m, p) => Math.max(m, Math.abs(p.z)), 0),
  });
  const { points } = totals;
  return {
    spots: totals.spots,
    iterations: totals.iterations,
    ...stats(points),
    maxAbsDifference: points.reduce((m, p) => Math.max(m, Math.abs(p.monteCarlo - p.exact)), 0),
    beyond95: points.filter((p) => Math.abs(p.z) > 1.96).length / Math.max(1, points.length),
    meanZSquared: points.reduce((s, p) => s + p.z * p.z, 0) / Math.max(1, points.length),
    certainMisses: totals.certainMisses,
    byStage: Object.fromEntries(STAGES.map((stage) => [stage, stats(points.filter((p) => p.stage === stage))])),
  };
}
