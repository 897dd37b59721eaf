// The JSON summary of a run and the checks it must pass; pure but for naming the Node and OpenSSL
// versions in use. Two kinds of check:
//
// - "bound": statistics that a correct shuffle, deck derivation, equity engine, pricing and
//   payout rule keep within bounds with overwhelming probability (false alarms about 1 in 10,000
//   per check). A failure means a defect, and CI fails.
// - "target": whether the game returns what the house intends (the realized and theoretical RTP
//   at most the target plus the rounding). A failure is a finding about the game's rules, not a
//   defect of this code: reported, without failing the run.

import { equitySummary, type EquitySummary } from "./equity-check.js";
import { type RtpFigures, type TopSpot, rtpFigures } from "./rtp.js";
import type { RunOptions, RunResults } from "./run.js";
import { type ChiSquareResult, type Histogram, cardPositionChiSquare } from "./stats.js";

/** Two-sided false-alarm rate of each bound on a p-value: 1e-4 in each tail. */
export const P_VALUE_FLOOR = 1e-4;
/** Standard errors allowed between realized and theoretical RTP (normal two-sided 6e-5). */
export const DIFFERENCE_Z = 4;
/** Largest |z| of exact against Monte Carlo allowed over all comparisons. */
export const EQUITY_MAX_Z = 5.5;

export interface Check {
  name: string;
  kind: "bound" | "target";
  passed: boolean;
  detail: string;
}

export interface FairnessSummary {
  generatedAt: string;
  seconds: number;
  options: RunOptions;
  environment: { node: string; openssl: string; platform: string };
  randomness: Record<string, string>;
  shuffles: { plain: ChiSquareResult; derived: ChiSquareResult };
  provablyFair: { derivedGames: number; verified: number };
  rtp: {
    targetRtp: number;
    games: number;
    stages: Record<string, RtpFigures>;
    overall: RtpFigures;
    rakeHistogram: Histogram;
    expectedHistogram: Histogram;
    topSpots: TopSpot[];
    /** Published percentages that differ from an independent enumeration (flop and turn). */
    engineMismatches: number;
  };
  equity: EquitySummary;
  checks: Check[];
}

export function randomnessSources(options: RunOptions): Record<string, string> {
  return {
    plainShuffle:
      "Fisher-Yates driven by node:crypto randomInt (OpenSSL's CSPRNG, rejection sampling: no modulo bias) — services/odds shuffle.ts",
    derivedDecks:
      "provably fair: a fresh 256-bit server seed from node:crypto randomBytes per game; HMAC-SHA256(seed, gameId:counter) as the DRBG; Fisher-Yates with byte rejection sampling — services/odds provably-fair.ts, docs/provably-fair.md",
    gameDecks: options.gameSource === "derived" ? "derived (the provably fair path)" : "plain CSPRNG shuffle",
    monteCarloEquity:
      "xoshiro128** seeded from crypto.getRandomValues (simulation only, never used to deal) — services/odds equity",
    tieSampling: `hole-stage ties of three or more hands: ${options.tieSamples} boards per game drawn with node:crypto randomFillSync`,
  };
}

function shuffleCheck(name: string, result: ChiSquareResult): Check {
  const passed = result.pValue >= P_VALUE_FLOOR && result.lowerTailP >= P_VALUE_FLOOR;
  return {
    name: `shuffle uniformity (${name})`,
    kind: "bound",
    passed,
    detail: `chi-square ${result.statistic.toFixed(1)} on ${result.df} df over ${result.shuffles} shuffles, p = ${result.pValue.toPrecision(3)} (both tails must be >= ${P_VALUE_FLOOR})`,
  };
}

function rtpChecks(stages: Record<string, RtpFigures>, overall: RtpFigures, targetRtp: number): Check[] {
  const checks: Check[] = [];
  for (const [name, f] of [...Object.entries(stages), ["overall", overall] as const]) {
    const d = f.difference;
    const allowed = DIFFERENCE_Z * d.standardError + 4 * f.theoreticalSamplingError;
    checks.push({
      name: `realized RTP matches theoretical (${name})`,
      kind: "bound",
      passed: Math.abs(d.value) <= allowed,
      detail: `realized ${f.realized.value.toFixed(4)} - theoretical ${f.theoretical.value.toFixed(4)} = ${d.value.toFixed(4)}, allowed ±${allowed.toFixed(4)} (${DIFFERENCE_Z} SE)`,
    });
    checks.push({
      name: `rounding rake within the rounding bound (${name})`,
      kind: "bound",
      passed: f.rakeOutOfBound === 0 && Math.abs(f.rake) <= 0.01,
      detail: `${f.rakeOutOfBound} of ${f.bets} bets outside |rake| <= 0.05 x win + rounding of the percentage; mean rake ${f.rake.toFixed(5)}`,
    });
    checks.push({
      name: `theoretical RTP at most the target (${name})`,
      kind: "target",
      passed: f.theoretical.value <= targetRtp + Math.max(0, -f.rake) + 1e-9,
      detail: `theoretical ${f.theoretical.value.toFixed(4)} (dead-heat bonus ${f.deadHeatBonus.toFixed(4)}) against target ${targetRtp}`,
    });
  }
  return checks;
}

function equityChecks(equity: EquitySummary): Check[] {
  // Mean z^2 is 1 in expectation; its spread over m comparisons is about sqrt(2 / m), wider for
  // the correlated figures of one spot: 6 of those is far outside chance.
  const spread = 6 * Math.sqrt(2 / Math.max(1, equity.comparisons));
  return [
    {
      name: "exact against Monte Carlo equity",
      kind: "bound",
      passed:
        equity.certainMisses === 0 && equity.maxAbsZ <= EQUITY_MAX_Z && Math.abs(equity.meanZSquared - 1) <= spread,
      detail: `${equity.comparisons} comparisons over ${equity.spots} spots: max |z| ${equity.maxAbsZ.toFixed(2)} (<= ${EQUITY_MAX_Z}), mean z² ${equity.meanZSquared.toFixed(3)} (1 ± ${spread.toFixed(3)}), certain outcomes missed ${equity.certainMisses}`,
    },
  ];
}

/** Everything the report shows, and the checks. */
export function summarize(options: RunOptions, results: RunResults, now = new Date()): FairnessSummary {
  const { stages, overall } = rtpFigures(results.rtp);
  const shuffles = {
    plain: cardPositionChiSquare(results.shuffles.plain.counts, results.shuffles.plain.count),
    derived: cardPositionChiSquare(results.shuffles.derived.counts, results.shuffles.derived.count),
  };
  const equity = equitySummary(results.equity);
  const derivedGames = options.gameSource === "derived" ? results.rtp.games : 0;
  const checks: Check[] = [
    shuffleCheck("plain CSPRNG shuffle", shuffles.plain),
    shuffleCheck("seed-derived decks", shuffles.derived),
    {
      name: "every derived game verifies from its seed",
      kind: "bound",
      passed: results.verifiedGames === derivedGames,
      detail: `${results.verifiedGames} of ${derivedGames} games verified`,
    },
    {
      name: "published percentages match an independent enumeration",
      kind: "bound",
      passed: results.rtp.mismatches === 0,
      detail: `${results.rtp.mismatches} flop and turn panels differ`,
    },
    ...rtpChecks(stages, overall, options.targetRtp),
    ...equityChecks(equity),
  ];
  return {
    generatedAt: now.toISOString(),
    seconds: results.seconds,
    options,
    environment: { node: process.version, openssl: process.versions.openssl ?? "unknown", platform: process.platform },
    randomness: randomnessSources(options),
    shuffles,
    provablyFair: { derivedGames, verified: results.verifiedGames },
    rtp: {
      targetRtp: options.targetRtp,
      games: results.rtp.games,
      stages,
      overall,
      rakeHistogram: results.rtp.rakeHistogram,
      expectedHistogram: results.rtp.expectedHistogram,
      topSpots: results.rtp.topSpots,
      engineMismatches: results.rtp.mismatches,
    },
    equity,
    checks,
  };
}
