// Return-to-player accounting over played games, pure. Per bet of one unit at displayed odds o:
//
//   returned          what the payout rule paid (o, o / k in a k-way tie, 0)
//   expected          o x share: the exact expected return given the cards seen (shares.ts)
//   priced            o x win: the return the pricing aims at (target RTP x the rounding of o)
//   rounding rake     target RTP - priced: what rounding the odds to a tenth takes (or gives)
//   dead-heat bonus   expected - priced: what tie payouts add, which the pricing does not count
//
// so expected = target - rake + dead-heat bonus. RTPs are ratios over bets, but bets of one game
// share its board, so the game is the independent unit of every confidence interval.

import { type Bet, type GameOutcome, STAGES, type StageName } from "./game.js";
import {
  type Estimate,
  type Histogram,
  type RatioSums,
  addPair,
  addToHistogram,
  emptyHistogram,
  emptyRatio,
  mergeHistograms,
  mergeRatio,
  ratioEstimate,
} from "./stats.js";

export interface StageTotals {
  bets: number;
  /** Per game: x = bets placed, y = returned / expected / returned - expected. */
  realized: RatioSums;
  expected: RatioSums;
  difference: RatioSums;
  priced: number;
  rake: number;
  deadHeat: number;
  /** Sum of the squared standard errors of the expected returns (sampled wide ties at the hole). */
  expectedVariance: number;
  winningBets: number;
  splitWins: number;
  centsKept: number;
  maxOddsTenths: number;
  /** Bets whose expected return exceeds the stake, and the sum of their expected returns. */
  favourableBets: number;
  favourableExpected: number;
  /** Bets whose rake exceeds what rounding can take: |rake| <= 0.05 x win + target x |win - shown| / shown. */
  rakeOutOfBound: number;
}

/** One of the bets with the highest expected return, with its cards, to reproduce it. */
export interface TopSpot {
  stage: StageName;
  hands: string[];
  board: string[];
  hand: number;
  odds: number;
  winPercent: number;
  sharePercent: number;
  expected: number;
}

const TOP_SPOTS = 10;
const BOARD_SHOWN: Record<StageName, number> = { hole: 0, flop: 3, turn: 4 };

export interface RtpTotals {
  games: number;
  stages: StageTotals[];
  overall: { realized: RatioSums; expected: RatioSums; difference: RatioSums };
  /** Per-bet rounding rake, target - o x win. */
  rakeHistogram: Histogram;
  /** Per-bet expected return o x share: above 1 the bet favours the player. */
  expectedHistogram: Histogram;
  mismatches: number;
  topSpots: TopSpot[];
}

const emptyStage = (): StageTotals => ({
  bets: 0,
  realized: emptyRatio(),
  expected: emptyRatio(),
  difference: emptyRatio(),
  priced: 0,
  rake: 0,
  deadHeat: 0,
  expectedVariance: 0,
  winningBets: 0,
  splitWins: 0,
  centsKept: 0,
  maxOddsTenths: 0,
  favourableBets: 0,
  favourableExpected: 0,
  rakeOutOfBound: 0,
});

export function emptyRtpTotals(): RtpTotals {
  return {
    games: 0,
    stages: STAGES.map(emptyStage),
    overall: { realized: emptyRatio(), expected: emptyRatio(), difference: emptyRatio() },
    rakeHistogram: emptyHistogram(-0.05, 0.05, 100),
    expectedHistogram: emptyHistogram(0, 2, 100),
    mismatches: 0,
    topSpots: [],
  };
}

/** The rounding bound: odds within 0.05 of target / shown, shown within half a unit of the exact win. */
export function rakeWithinBound(bet: Bet, targetRtp: number): boolean {
  const shown = bet.winPercentShown / 100;
  const rake = targetRtp - (bet.oddsTenths / 10) * bet.win;
  return Math.abs(rake) <= 0.05 * bet.win + (targetRtp * Math.abs(bet.win - shown)) / shown + 1e-12;
}

/** Adds one bet to its stage's totals and the histograms; returns its expected return. */
function addBet(totals: RtpTotals, game: GameOutcome, bet: Bet, targetRtp: number): number {
  const stage = totals.stages[bet.stage]!;
  const odds = bet.oddsTenths / 10;
  const priced = odds * bet.win;
  const expected = odds * bet.share;
  stage.bets++;
  stage.priced += priced;
  stage.rake += targetRtp - priced;
  stage.deadHeat += expected - priced;
  stage.expectedVariance += (odds * bet.shareError) ** 2;
  stage.centsKept += bet.centsKept;
  stage.maxOddsTenths = Math.max(stage.maxOddsTenths, bet.oddsTenths);
  if (bet.returned > 0) {
    stage.winningBets++;
    if (game.winners.length > 1) stage.splitWins++;
  }
  if (expected > 1) {
    stage.favourableBets++;
    stage.favourableExpected += expected;
  }
  if (!rakeWithinBound(bet, targetRtp)) stage.rakeOutOfBound++;
  addToHistogram(totals.rakeHistogram, targetRtp - priced);
  addToHistogram(totals.expectedHistogram, expected);
  const top = totals.topSpots;
  if (top.length < TOP_SPOTS || expected > top[top.length - 1]!.expected) {
    const name = STAGES[bet.stage]!;
    const board = game.board.slice(0, BOARD_SHOWN[name]);
    const winPercent = 100 * bet.win;
    top.push({
      stage: name,
      hands: game.hands,
      board,
      hand: bet.hand,
      odds,
      winPercent,
      sharePercent: 100 * bet.share,
      expected,
    });
    top.sort((a, b) => b.expected - a.expected).splice(TOP_SPOTS);
  }
  return expected;
}

/** Adds one game's bets (mutates totals). */
export function addGame(totals: RtpTotals, game: GameOutcome, targetRtp: number): void {
  totals.games++;
  totals.mismatches += game.mismatches;
  const perStage = STAGES.map(() => ({ bets: 0, returned: 0, expected: 0 }));
  for (const bet of game.bets) {
    const sums = perStage[bet.stage]!;
    sums.bets++;
    sums.returned += bet.returned;
    sums.expected += addBet(totals, game, bet, targetRtp);
  }
  const all = { bets: 0, returned: 0, expected: 0 };
  perStage.forEach((g, s) => {
    const stage = totals.stages[s]!;
    addPair(stage.realized, g.bets, g.returned);
    addPair(stage.expected, g.bets, g.expected);
    addPair(stage.difference, g.bets, g.returned - g.expected);
    all.bets += g.bets;
    all.returned += g.returned;
    all.expected += g.expected;
  });
  addPair(totals.overall.realized, all.bets, all.returned);
  addPair(totals.overall.expected, all.bets, all.expected);
  addPair(totals.overall.difference, all.bets, all.returned - all.expected);
}

function mergeStage(a: StageTotals, b: StageTotals): StageTotals {
  return {
    bets: a.bets + b.bets,
    realized: mergeRatio(a.realized, b.realized),
    expected: mergeRatio(a.expected, b.expected),
    difference: mergeRatio(a.difference, b.difference),
    priced: a.priced + b.priced,
    rake: a.rake + b.rake,
    deadHeat: a.deadHeat + b.deadHeat,
    expectedVariance: a.expectedVariance + b.expectedVariance,
    winningBets: a.winningBets + b.winningBets,
    splitWins: a.splitWins + b.splitWins,
    centsKept: a.centsKept + b.centsKept,
    maxOddsTenths: Math.max(a.maxOddsTenths, b.maxOddsTenths),
    favourableBets: a.favourableBets + b.favourableBets,
    favourableExpected: a.favourableExpected + b.favourableExpected,
    rakeOutOfBound: a.rakeOutOfBound + b.rakeOutOfBound,
  };
}

export function mergeRtpTotals(a: RtpTotals, b: RtpTotals): RtpTotals {
  return {
    games: a.games + b.games,
    stages: a.stages.map((s, i) => mergeStage(s, b.stages[i]!)),
    overall: {
      realized: mergeRatio(a.overall.realized, b.overall.realized),
      expected: mergeRatio(a.overall.expected, b.overall.expected),
      difference: mergeRatio(a.overall.difference, b.overall.difference),
    },
    rakeHistogram: mergeHistograms(a.rakeHistogram, b.rakeHistogram),
    expectedHistogram: mergeHistograms(a.expectedHistogram, b.expectedHistogram),
    mismatches: a.mismatches + b.mismatches,
    topSpots: [...a.topSpots, ...b.topSpots].sort((x, y) => y.expected - x.expected).slice(0, TOP_SPOTS),
  };
}

export interface RtpFigures {
  bets: number;
  /** Realized RTP: returned / staked, with its 95 % CI over games. */
  realized: Estimate;
  /** Theoretical RTP: exact expected return / staked over the same games (CI: the deals' spread). */
  theoretical: Estimate;
  /** Standard error the sampled wide ties add to the theoretical RTP (0 when all exact). */
  theoreticalSamplingError: number;
  /** Realized - theoretical on the same games: only the boards' luck is left, so 0 must be inside. */
  difference: Estimate;
  /** Mean of o x win: the RTP the pricing aims at after rounding, ties not counted. */
  priced: number;
  /** Mean rounding rake, target - priced. */
  rake: number;
  /** Mean dead-heat bonus, theoretical - priced. */
  deadHeatBonus: number;
  winningBets: number;
  splitWins: number;
  maxOdds: number;
  /** Bets expected to return more than their stake: their share of bets and of the expected return. */
  favourableBetShare: number;
  favourableReturnShare: number;
  rakeOutOfBound: number;
  /** Cents the house keeps per bet of 1.00 by flooring split payouts to the cent. */
  centsKeptPerBet: number;
}

function figures(stage: StageTotals): RtpFigures {
  return {
    bets: stage.bets,
    realized: ratioEstimate(stage.realized),
    theoretical: ratioEstimate(stage.expected),
    theoreticalSamplingError: Math.sqrt(stage.expectedVariance) / stage.bets,
    difference: ratioEstimate(stage.difference),
    priced: stage.priced / stage.bets,
    rake: stage.rake / stage.bets,
    deadHeatBonus: stage.deadHeat / stage.bets,
    winningBets: stage.winningBets,
    splitWins: stage.splitWins,
    maxOdds: stage.maxOddsTenths / 10,
    favourableBetShare: stage.favourableBets / stage.bets,
    favourableReturnShare: stage.favourableExpected / stage.expected.y,
    rakeOutOfBound: stage.rakeOutOfBound,
    centsKeptPerBet: stage.centsKept / stage.bets,
  };
}

/** Per stage and overall figures of the totals. */
export function rtpFigures(totals: RtpTotals): { stages: Record<string, RtpFigures>; overall: RtpFigures } {
  const stages = Object.fromEntries(STAGES.map((name, i) => [name, figures(totals.stages[i]!)]));
  const all = totals.stages.reduce(mergeStage, emptyStage());
  all.realized = totals.overall.realized;
  all.expected = totals.overall.expected;
  all.difference = totals.overall.difference;
  return { stages, overall: figures(all) };
}
