// The JSON summary of a run and the checks it must pass; pure but for naming the Node and OpenSSL
// versions in use. Every check is a bound: a statistic that a correct shuffle, deck derivation,
// equity engine, pricing and payout rule keep within bounds, with certainty or with overwhelming
// probability (false alarms about 1 in 10,000 per check). A failure means a defect, and CI fails.
// Since the odds are priced from the dead-heat share (common/src/poker/pricing.ts), that the game
// returns its target is one of them.

import { equitySummary, type EquitySummary } from "./equity-check.js";
import { type RtpFigures, type TopSpot, rtpFigures } from "./rtp.js";
import type { RunOptions, RunResults } from "./run.js";
import { type ChiSquareResult, type Estimate, type Histogram, cardPositionChiSquare, ratioEstimate } from "./stats.js";

/** Two-sided false-alarm rate of each bound on a p-value: 1e-4 in each tail. */
export const P_VALUE_FLOOR = 1e-4;
/** Standard errors allowed between realized and theoretical RTP (normal two-sided 6e-5). */
export const DIFFERENCE_Z = 4;
/** Largest |z| of exact against Monte Carlo allowed over all comparisons. */
const EQUITY_MAX_Z = 5.5;
/**
 * How far the theoretical RTP may lie from the target: the mean rounding rake. Each bet's rake is
 * within ±0.05 x share, and where shares are spread the signs cancel (hole and flop: within
 * ±0.0002 of the target). Not at the turn: a hand that can no longer lose (share 1, about 3 % of
 * turn bets with 4 hands) is shown the nearest tenth of 0.97, odds 1.0, and returns its stake,
 * 0.03 over the target; that lifts the turn's theoretical RTP by about +0.0008 (+0.00079 in
 * each of two full runs of 100,000 games, fairness/README.md). 0.002 covers that plus 4
 * standard errors of the turn's mean in CI's 6,000-game run (4 x 0.00011), and is 0.2 % of the
 * stake: odds rounded up instead of to the nearest (+0.05 x share a bet on average, about
 * +0.014) would break it, as would the old pricing from P(win alone) (+1.1).
 */
export const RTP_ROUNDING_TOLERANCE = 0.002;

export interface Check {
  name: string;
  kind: "bound";
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
    /**
     * Realized RTP of the hole bets of a player alone at a table who leaves at the turn when behind
     * (the void on the last leave refunds them): not a check, a risk of the ruling (rtp.ts).
     */
    leaveWhenBehind: { everyHand: Estimate; oneHand: Estimate };
  };
  equity: EquitySummary;
  checks: Check[];
}

function randomnessSources(options: RunOptions): Record<string, string> {
  return {
    plainShuffle:
      "Fisher-Yates driven by node:crypto randomInt (OpenSSL's CSPRNG, rejection sampling: no modulo bias) — services/odds shuffle.ts",
    derivedDecks:
      "provably fair: a fresh 256-bit server seed from node:crypto randomBytes per game; HMAC-SHA256(seed, gameId:counter) as the DRBG; Fisher-Yates with byte rejection sampling — services/odds provably-fair.ts, docs/provably-fair.md",
    gameDecks: options.gameSource === "derived" ? "derived (the provably fair path)" : "plain CSPRNG shuffle",
    monteCarloEquity:
      "xoshiro128** seeded from crypto.getRandomValues (simulation only, never used to deal) — services/odds equity",
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

/** The four RTP bounds of one stage (or overall). */
function stageRtpChecks(name: string, f: RtpFigures, targetRtp: number): Check[] {
  const d = f.difference;
  const allowed = DIFFERENCE_Z * d.standardError;
  const gap = f.theoretical.value - targetRtp;
  return [
    {
      // Paired by game: the deals' spread cancels and only the boards' luck is left.
      name: `realized RTP matches theoretical (${name})`,
      kind: "bound",
      passed: Math.abs(d.value) <= allowed,
      detail: `realized ${f.realized.value.toFixed(4)} - theoretical ${f.theoretical.value.toFixed(4)} = ${d.value.toFixed(4)}, allowed ±${allowed.toFixed(4)} (${DIFFERENCE_Z} SE)`,
    },
    {
      name: `theoretical RTP is the target within the rounding (${name})`,
      kind: "bound",
      passed: Math.abs(gap) <= RTP_ROUNDING_TOLERANCE,
      detail: `theoretical ${f.theoretical.value.toFixed(5)} against target ${targetRtp}: ${gap >= 0 ? "+" : ""}${gap.toFixed(5)} (allowed ±${RTP_ROUNDING_TOLERANCE}); ${f.tieReturn.toFixed(4)} of it paid on ties`,
    },
    {
      name: `every bet's odds are the nearest tenth of target / share (${name})`,
      kind: "bound",
      passed: f.rakeOutOfBound === 0,
      detail: `${f.rakeOutOfBound} of ${f.bets} bets outside |target - odds x share| <= 0.05 x share; mean rake ${f.rake.toFixed(5)}`,
    },
    {
      name: `no bet returns more than its stake beyond the rounding (${name})`,
      kind: "bound",
      passed: f.favourableBeyondRounding === 0,
      detail: `${f.favourableBeyondRounding} bets expected to return over 1 and over target + 0.05 x share; ${(100 * f.favourableBetShare).toFixed(2)} % of bets over 1 by rounding alone (short odds), the most ${f.maxExpected.toFixed(4)}`,
    },
  ];
}

export function rtpChecks(stages: Record<string, RtpFigures>, overall: RtpFigures, targetRtp: number): Check[] {
  return [...Object.entries(stages), ["overall", overall] as const].flatMap(([name, f]) =>
    stageRtpChecks(name, f, targetRtp),
  );
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
export function summarize(options: RunOptions, results: RunResults): FairnessSummary {
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
    generatedAt: new Date().toISOString(),
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
      leaveWhenBehind: {
        everyHand: ratioEstimate(results.rtp.leaveWhenBehind.everyHand),
        oneHand: ratioEstimate(results.rtp.leaveWhenBehind.oneHand),
      },
    },
    equity,
    checks,
  };
}
