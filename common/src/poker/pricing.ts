// Turns equities into prices and flags. Pure: no I/O, no randomness.
//
// Conventions (decided here where the spec is silent; docs/decisions.md):
// - The "win probability" the odds divide by is the hand's dead-heat share: P(wins alone) plus,
//   over the boards it ties on with k - 1 other hands, P(board) / k (equity-types.ts). The payout
//   rule pays odds / k on a k-way tie, so a unit bet returns odds x share on average, and odds of
//   targetRtp / share return the target up to the rounding. Priced from P(win alone), ties were
//   paid on top of the target and the game returned about 2.1 (docs/decisions.md has the figures).
//   As ruled, a hand whose win percentage is 0 shows odds 0 and takes no bets, even if it can tie.
// - Percentages are rounded half up to PERCENT_DECIMALS (4) decimal places before they are
//   published or used for a flag (favourite, can't lose). A non-zero equity never rounds to 0 (it
//   becomes 0.0001): zero means "cannot win/draw" and must stay exact. Exact enumeration never
//   comes near that floor (its smallest non-zero equity is 1/C(40,5) = 0.00015 %).
// - Displayed odds are computed exactly from the engine's exact share, not from a rounded
//   percentage: rounding a long shot's 0.0037 % to 4 decimals would move its odds by over 1 %,
//   far beyond the 0.1 the rounding of the odds allows. targetRtp is taken as the decimal it
//   prints as (shortest round-trip form: 0.97 is 97/100, not the binary 0.96999...), the quotient
//   10 x rtp / share is formed with BigInt and rounded half up to an integer number of tenths. So
//   4.85 always becomes 4.9, never 4.8 by float error.
// - Favourite: the highest (rounded) win percentage among hands that are not dead; the lowest
//   handIndex wins a tie. Exactly one favourite per stage (some hand always wins or ties).
// - Best RTP: among hands with percentWin > 0, every hand with the highest oddsRounded.

import type { BettingStage, HandOdds } from "../hand-odds.js";
import { INT32_MAX } from "../limits.js";
import type { Fraction } from "./equity-types.js";
import { validateTargetRtp } from "./errors.js";

// The odds panel is shared with the table service, which stores and shows it.
export type { BettingStage, HandOdds } from "../hand-odds.js";

const PERCENT_DECIMALS = 4;
const PERCENT_SCALE = 10 ** PERCENT_DECIMALS; // 1e4: percentages as integers of 0.0001 %
const HUNDRED_PERCENT_UNITS = 1_000_000; // 100 %
const CANT_LOSE_UNITS = 999_000; // 99.9 %

/** The public API's betting stage values; the river is NON_BETTING (-1). */
export const Stage = { HOLE: 0, FLOP: 1, TURN: 2, RIVER: -1 } as const satisfies Record<string, BettingStage>;

/** The board cards seen at each stage, in the game's order: none at the hole, 3 at the flop, 4 at the turn, 5 at the river. */
export const BOARD_SIZE_BY_STAGE: readonly (readonly [BettingStage, number])[] = [
  [Stage.HOLE, 0],
  [Stage.FLOP, 3],
  [Stage.TURN, 4],
  [Stage.RIVER, 5],
];

export const STAGE_BY_BOARD_SIZE: ReadonlyMap<number, BettingStage> = new Map(
  BOARD_SIZE_BY_STAGE.map(([stage, size]) => [size, stage]),
);

/** The board cards seen at `stage` (BOARD_SIZE_BY_STAGE). */
export const boardSizeAt = (stage: BettingStage): number => BOARD_SIZE_BY_STAGE.find(([s]) => s === stage)![1];

/** Whether a board of `size` cards is one of a stage's: 0, 3, 4 or 5. */
export const isBoardSize = (size: number): boolean => STAGE_BY_BOARD_SIZE.has(size);

/**
 * One hand's equity in percent (0..100): win = sole best; draw = tied for best; and its exact
 * dead-heat share of the win (a fraction of 1), which the odds are priced from.
 */
export interface HandEquity {
  winPercent: number;
  drawPercent: number;
  share: Fraction;
}

/**
 * The pricing part of one bulk hand-stage info (the descriptions are added by bulk.ts). Field for
 * field the proto's pricing fields, on purpose: the domain stays free of the wire types.
 */
export interface StagePricing {
  handIndex: number;
  bettingStage: BettingStage;
  percentWin: number;
  percentDraw: number;
  percentWinOrDraw: number;
  oddsActual: number;
  oddsMargin: number;
  oddsRounded: number;
  actualRtp: number;
  roundingRake: number;
  statusIsWinner: boolean;
  statusCantLose: boolean;
  statusIsFavourite: boolean;
  statusBestRtp: boolean;
}

/** Rounds a raw percentage half up to PERCENT_DECIMALS; a non-zero value never becomes 0. */
export function roundPercent(raw: number): number {
  if (!Number.isFinite(raw) || raw < -1e-9 || raw > 100 + 1e-9) {
    throw new RangeError(`percentage out of range: ${raw}`);
  }
  const units = Math.min(HUNDRED_PERCENT_UNITS, Math.max(0, Math.round(raw * PERCENT_SCALE)));
  return (units === 0 && raw > 0 ? 1 : units) / PERCENT_SCALE;
}

/** A finite non-negative double as the exact fraction of the decimal it prints as. */
function decimalFraction(x: number): [numerator: bigint, denominator: bigint] {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!match) throw new RangeError(`not a finite non-negative number: ${x}`);
  const fraction = match[2] ?? "";
  const exponent = Number(match[3] ?? 0) - fraction.length;
  const digits = BigInt(match[1]! + fraction);
  return exponent >= 0 ? [digits * 10n ** BigInt(exponent), 1n] : [digits, 10n ** BigInt(-exponent)];
}

/** Throws RangeError unless `share` is a fraction of safe integers in [0, 1]. */
function validateShare(share: Fraction): void {
  const { numerator, denominator } = share;
  if (
    !Number.isSafeInteger(numerator) ||
    !Number.isSafeInteger(denominator) ||
    denominator < 1 ||
    numerator < 0 ||
    numerator > denominator
  ) {
    throw new RangeError(`share out of range: ${numerator} / ${denominator}`);
  }
}

/**
 * Displayed odds in integer tenths: the nearest 0.1 of targetRtp / share (share: the hand's exact
 * dead-heat win probability), rounded half up on the exact value; 0 when the share is 0.
 */
export function oddsTenths(share: Fraction, targetRtp: number): number {
  validateTargetRtp(targetRtp);
  validateShare(share);
  if (share.numerator === 0) return 0;
  const [rNum, rDen] = decimalFraction(targetRtp);
  // tenths = 10 x rtp / share = 10 x rNum x shareDen / (rDen x shareNum); half up: floor((2n + d) / 2d).
  const n = 10n * rNum * BigInt(share.denominator);
  const d = rDen * BigInt(share.numerator);
  const tenths = Number((2n * n + d) / (2n * d));
  if (!Number.isSafeInteger(tenths) || tenths > INT32_MAX) {
    throw new RangeError(`odds too large for share ${share.numerator} / ${share.denominator}`);
  }
  return tenths;
}

/** The displayed odds of one hand: 0 when it cannot win alone (decisions.md), else priced from its share. */
function displayedTenths(e: HandEquity, targetRtp: number): number {
  if (e.winPercent === 0) return 0;
  // A hand that wins alone on some board has a share of at least that board.
  if (e.share.numerator === 0) throw new RangeError(`a hand winning ${e.winPercent} % has no share`);
  return oddsTenths(e.share, targetRtp);
}

/** What the flags read: the (rounded) percentages, never the share. */
type Percentages = Pick<HandEquity, "winPercent" | "drawPercent">;

const isDead = (e: Percentages): boolean => e.winPercent === 0 && e.drawPercent === 0;

/** Index of the favourite: highest winPercent among live hands, lowest index on a tie; -1 if none. */
export function favouriteIndex(equities: readonly Percentages[]): number {
  let best = -1;
  equities.forEach((e, i) => {
    if (isDead(e)) return;
    if (best < 0 || e.winPercent > equities[best]!.winPercent) best = i;
  });
  return best;
}

/** Percentages rounded for publishing; the exact share is kept for the odds. */
function rounded(equities: readonly HandEquity[]): HandEquity[] {
  return equities.map((e) => ({
    winPercent: roundPercent(e.winPercent),
    drawPercent: roundPercent(e.drawPercent),
    share: e.share,
  }));
}

function validateStage(stage: number): asserts stage is BettingStage {
  if (stage !== Stage.HOLE && stage !== Stage.FLOP && stage !== Stage.TURN && stage !== Stage.RIVER) {
    throw new RangeError(`invalid betting stage: ${stage}`);
  }
}

/**
 * River equities from the hands' final values (higher beats lower): a sole winner 100 % win,
 * tied winners 100 % draw (a share of 1/k each), everyone else 0 / 0.
 */
export function riverEquities(handValues: readonly number[]): HandEquity[] {
  const top = Math.max(...handValues);
  const winners = handValues.filter((v) => v === top).length;
  return handValues.map((v) =>
    v !== top
      ? { winPercent: 0, drawPercent: 0, share: { numerator: 0, denominator: 1 } }
      : winners === 1
        ? { winPercent: 100, drawPercent: 0, share: { numerator: 1, denominator: 1 } }
        : { winPercent: 0, drawPercent: 100, share: { numerator: 1, denominator: winners } },
  );
}

/**
 * Odds panels for one stage. Statuses: before the river the favourite, the dead hands (win and
 * draw both 0, never the favourite) and the rest active; at the river WINNER (wins or ties) or LOSER.
 */
export function handOddsPanels(equities: readonly HandEquity[], stage: BettingStage, targetRtp: number): HandOdds[] {
  validateStage(stage);
  validateTargetRtp(targetRtp);
  const hands = rounded(equities);
  const favourite = favouriteIndex(hands);
  return hands.map((e, handIndex) => ({
    handIndex,
    bettingStage: stage,
    handStatus:
      stage === Stage.RIVER
        ? isDead(e)
          ? "LOSER"
          : "WINNER"
        : isDead(e)
          ? "DEAD_CANNOT_WIN"
          : handIndex === favourite
            ? "IN_PLAY_FAVOURITE"
            : "IN_PLAY_BETTING_STAGE_ACTIVE",
    winPercentage: e.winPercent,
    drawPercentage: e.drawPercent,
    oddsTenths: displayedTenths(e, targetRtp),
  }));
}

/** The bulk hand-stage pricing and flags for one stage, in hand order. */
export function bulkStagePricing(
  equities: readonly HandEquity[],
  stage: BettingStage,
  targetRtp: number,
): StagePricing[] {
  validateStage(stage);
  validateTargetRtp(targetRtp);
  const hands = rounded(equities);
  const favourite = favouriteIndex(hands);
  const tenths = hands.map((e) => displayedTenths(e, targetRtp));
  const bestTenths = Math.max(-1, ...tenths.filter((_, i) => hands[i]!.winPercent > 0));
  return hands.map((e, handIndex) => {
    // Integer units of 0.0001 % make the sum and its thresholds exact.
    const winOrDrawUnits = Math.round(e.winPercent * PERCENT_SCALE) + Math.round(e.drawPercent * PERCENT_SCALE);
    const t = tenths[handIndex]!;
    const priced = e.winPercent > 0;
    // The spec's "1 / win probability", with the dead-heat share as the win probability (see the
    // header): actualRtp is then the bet's true expected return per unit staked.
    const oddsActual = priced ? e.share.denominator / e.share.numerator : 0;
    const oddsMargin = oddsActual * targetRtp;
    const oddsRounded = t / 10;
    return {
      handIndex,
      bettingStage: stage,
      percentWin: e.winPercent,
      percentDraw: e.drawPercent,
      percentWinOrDraw: Math.floor((winOrDrawUnits + 500) / 1000) / 10,
      oddsActual,
      oddsMargin,
      oddsRounded,
      actualRtp: priced ? oddsRounded / oddsActual : 0,
      roundingRake: priced ? (oddsMargin - oddsRounded) / oddsActual : 0,
      statusIsWinner: stage === Stage.RIVER && !isDead(e),
      statusCantLose: winOrDrawUnits >= CANT_LOSE_UNITS,
      statusIsFavourite: handIndex === favourite,
      statusBestRtp: priced && t === bestTenths,
    };
  });
}
