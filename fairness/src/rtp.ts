// Return-to-player accounting over played games, pure. Per bet of one unit at displayed odds o:
//
//   returned          what the payout rule paid (o, o / k in a k-way tie, 0)
//   expected          o x share: the exact expected return given the cards seen (shares.ts)
//   rounding rake     target RTP - expected: what rounding the odds to a tenth takes (or gives,
//                     when negative); the odds are the nearest tenth of target / share
//                     (pricing.ts), so |rake| <= 0.05 x share for every bet
//   paid on ties      o x (share - win): the part of the expected return that dead heats pay
//
// so expected = target - rake. RTPs are ratios over bets, but bets of one game share its board,
// so the game is the independent unit of every confidence interval.

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
  rake: number;
  tieReturn: number;
  winningBets: number;
  splitWins: number;
  centsKept: number;
  maxOddsTenths: number;
  /** Bets whose expected return exceeds the stake, and the sum of their expected returns. */
  favourableBets: number;
  favourableExpected: number;
  /** Of those, bets expected to return more than the target plus what rounding gives (0.05 x share). */
  favourableBeyondRounding: number;
  maxExpected: number;
  /** Bets whose rake exceeds what rounding can take or give: |rake| > 0.05 x share. */
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
  /** Per-bet rounding rake, target - o x share. */
  rakeHistogram: Histogram;
  /** Per-bet expected return o x share: above 1 the bet favours the player. */
  expectedHistogram: Histogram;
  mismatches: number;
  topSpots: TopSpot[];
  /** The hole bets of a player who leaves an empty table at the turn when behind (leaveWhenBehind). */
  leaveWhenBehind: { everyHand: RatioSums; oneHand: RatioSums };
}

const emptyStage = (): StageTotals => ({
  bets: 0,
  realized: emptyRatio(),
  expected: emptyRatio(),
  difference: emptyRatio(),
  rake: 0,
  tieReturn: 0,
  winningBets: 0,
  splitWins: 0,
  centsKept: 0,
  maxOddsTenths: 0,
  favourableBets: 0,
  favourableExpected: 0,
  favourableBeyondRounding: 0,
  maxExpected: 0,
  rakeOutOfBound: 0,
});

export function emptyRtpTotals(): RtpTotals {
  return {
    games: 0,
    stages: STAGES.map(emptyStage),
    overall: { realized: emptyRatio(), expected: emptyRatio(), difference: emptyRatio() },
    rakeHistogram: emptyHistogram(-0.05, 0.05, 100),
    // Every expected return lies within 0.05 x share of the target: 0.92 to 1.02 at 0.97.
    expectedHistogram: emptyHistogram(0.9, 1.05, 150),
    mismatches: 0,
    topSpots: [],
    leaveWhenBehind: { everyHand: emptyRatio(), oneHand: emptyRatio() },
  };
}

/**
 * The rounding bound: odds within 0.05 of target / share, i.e. |target - odds x share| <= 0.05 x
 * share (1e-12 for the floating-point product; shares are exact, not rounded percentages).
 */
export function rakeWithinBound(bet: Bet, targetRtp: number): boolean {
  const rake = targetRtp - (bet.oddsTenths / 10) * bet.share;
  return Math.abs(rake) <= 0.05 * bet.share + 1e-12;
}

/** Adds one bet to its stage's totals and the histograms; returns its expected return. */
function addBet(totals: RtpTotals, game: GameOutcome, bet: Bet, targetRtp: number): number {
  const stage = totals.stages[bet.stage]!;
  const odds = bet.oddsTenths / 10;
  const expected = odds * bet.share;
  stage.bets++;
  stage.rake += targetRtp - expected;
  stage.tieReturn += odds * (bet.share - bet.win);
  stage.centsKept += bet.centsKept;
  stage.maxOddsTenths = Math.max(stage.maxOddsTenths, bet.oddsTenths);
  if (bet.returned > 0) {
    stage.winningBets++;
    if (game.winners.length > 1) stage.splitWins++;
  }
  stage.maxExpected = Math.max(stage.maxExpected, expected);
  if (expected > 1) {
    stage.favourableBets++;
    stage.favourableExpected += expected;
    if (expected - targetRtp > 0.05 * bet.share + 1e-12) stage.favourableBeyondRounding++;
  }
  if (!rakeWithinBound(bet, targetRtp)) stage.rakeOutOfBound++;
  addToHistogram(totals.rakeHistogram, targetRtp - expected);
  addToHistogram(totals.expectedHistogram, expected);
  addTopSpot(totals.topSpots, game, bet, expected);
  return expected;
}

/** Keeps the TOP_SPOTS bets with the highest expected return (mutates top). */
function addTopSpot(top: TopSpot[], game: GameOutcome, bet: Bet, expected: number): void {
  if (top.length === TOP_SPOTS && expected <= top[top.length - 1]!.expected) return;
  const name = STAGES[bet.stage]!;
  top.push({
    stage: name,
    hands: game.hands,
    board: game.board.slice(0, BOARD_SHOWN[name]),
    hand: bet.hand,
    odds: bet.oddsTenths / 10,
    winPercent: 100 * bet.win,
    sharePercent: 100 * bet.share,
    expected,
  });
  top.sort((a, b) => b.expected - a.expected).splice(TOP_SPOTS);
}

/**
 * The product owner's ruling voids a game when its last seated player leaves mid-game, refunding
 * every open bet. A player alone at a table can therefore bet at the hole, advance to the turn and
 * leave when the bets are worth less than their stake there (odds x the exact turn share), keeping
 * them otherwise. Measured two ways: a unit on every bettable hand, judged together; and each hole
 * bet as if it were the game's only one (mutates totals).
 */
function addLeaveWhenBehind(totals: RtpTotals, game: GameOutcome): void {
  const hole = game.bets.filter((bet) => bet.stage === 0);
  if (hole.length === 0) return;
  const worthAtTurn = (bet: Bet) => (bet.oddsTenths / 10) * game.turnShares[bet.hand]!;
  const kept = hole.reduce((sum, bet) => sum + worthAtTurn(bet), 0) >= hole.length;
  const returned = hole.reduce((sum, bet) => sum + bet.returned, 0);
  addPair(totals.leaveWhenBehind.everyHand, hole.length, kept ? returned : hole.length);
  const alone = hole.reduce((sum, bet) => sum + (worthAtTurn(bet) >= 1 ? bet.returned : 1), 0);
  addPair(totals.leaveWhenBehind.oneHand, hole.length, alone);
}

/** Adds one game's bets (mutates totals). */
export function addGame(totals: RtpTotals, game: GameOutcome, targetRtp: number): void {
  totals.games++;
  totals.mismatches += game.mismatches;
  addLeaveWhenBehind(totals, game);
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
    rake: a.rake + b.rake,
    tieReturn: a.tieReturn + b.tieReturn,
    winningBets: a.winningBets + b.winningBets,
    splitWins: a.splitWins + b.splitWins,
    centsKept: a.centsKept + b.centsKept,
    maxOddsTenths: Math.max(a.maxOddsTenths, b.maxOddsTenths),
    favourableBets: a.favourableBets + b.favourableBets,
    favourableExpected: a.favourableExpected + b.favourableExpected,
    favourableBeyondRounding: a.favourableBeyondRounding + b.favourableBeyondRounding,
    maxExpected: Math.max(a.maxExpected, b.maxExpected),
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
    leaveWhenBehind: {
      everyHand: mergeRatio(a.leaveWhenBehind.everyHand, b.leaveWhenBehind.everyHand),
      oneHand: mergeRatio(a.leaveWhenBehind.oneHand, b.leaveWhenBehind.oneHand),
    },
  };
}

export interface RtpFigures {
  bets: number;
  /** Realized RTP: returned / staked, with its 95 % CI over games. */
  realized: Estimate;
  /** Theoretical RTP: exact expected return / staked over the same games (CI: the deals' spread). */
  theoretical: Estimate;
  /** Realized - theoretical on the same games: only the boards' luck is left, so 0 must be inside. */
  difference: Estimate;
  /** Mean rounding rake, target - theoretical. */
  rake: number;
  /** Mean of o x (share - win): the part of the theoretical RTP that dead heats pay. */
  tieReturn: number;
  winningBets: number;
  splitWins: number;
  maxOdds: number;
  /** Bets expected to return more than their stake: their share of bets and of the expected return. */
  favourableBetShare: number;
  favourableReturnShare: number;
  /** Bets expected to return more than the target plus the rounding (must be 0), and the highest expected return. */
  favourableBeyondRounding: number;
  maxExpected: number;
  rakeOutOfBound: number;
  /** Cents the house keeps per bet of 1.00 by flooring split payouts to the cent. */
  centsKeptPerBet: number;
}

function figures(stage: StageTotals): RtpFigures {
  return {
    bets: stage.bets,
    realized: ratioEstimate(stage.realized),
    theoretical: ratioEstimate(stage.expected),
    difference: ratioEstimate(stage.difference),
    rake: stage.rake / stage.bets,
    tieReturn: stage.tieReturn / stage.bets,
    winningBets: stage.winningBets,
    splitWins: stage.splitWins,
    maxOdds: stage.maxOddsTenths / 10,
    favourableBetShare: stage.favourableBets / stage.bets,
    favourableReturnShare: stage.favourableExpected / stage.expected.y,
    favourableBeyondRounding: stage.favourableBeyondRounding,
    maxExpected: stage.maxExpected,
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
