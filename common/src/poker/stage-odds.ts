// Prices known hands on a known board: the table service's odds panels (Equity RPC), and the
// per-stage equities the deal and the bulk generator share.

import { DECK_SIZE } from "../card-codes.js";
import { MAX_HANDS_PER_GAME, MIN_HANDS_PER_GAME } from "../limits.js";
import { type Card, formatCard } from "./cards.js";
import { exactEquity } from "./equity.js";
import { InvalidOddsRequestError, validateTargetRtp } from "./errors.js";
import { evaluateCards } from "./evaluator.js";
import {
  type BettingStage,
  type HandEquity,
  type HandOdds,
  STAGE_BY_BOARD_SIZE,
  handOddsPanels,
  riverEquities,
} from "./pricing.js";

/** The betting stage a board implies: 0 cards HOLE, 3 FLOP, 4 TURN, 5 river (-1). */
export function stageOfBoard(boardSize: number): BettingStage {
  const stage = STAGE_BY_BOARD_SIZE.get(boardSize);
  if (stage === undefined) throw new InvalidOddsRequestError(`a board has 0, 3, 4 or 5 cards, got ${boardSize}`);
  return stage;
}

const describe = (card: Card): string =>
  Number.isInteger(card) && card >= 0 && card < DECK_SIZE ? formatCard(card) : String(card);

/** Throws InvalidOddsRequestError unless: 2..6 hands of 2 valid cards, a 0/3/4/5-card board, no card twice. */
function validateHandsAndBoard(hands: readonly (readonly Card[])[], board: readonly Card[]): void {
  if (hands.length < MIN_HANDS_PER_GAME || hands.length > MAX_HANDS_PER_GAME) {
    throw new InvalidOddsRequestError(
      `between ${MIN_HANDS_PER_GAME} and ${MAX_HANDS_PER_GAME} hands are needed, got ${hands.length}`,
    );
  }
  stageOfBoard(board.length);
  const used = new Set<Card>();
  const take = (card: Card): void => {
    if (!Number.isInteger(card) || card < 0 || card >= DECK_SIZE) {
      throw new InvalidOddsRequestError(`invalid card ${describe(card)}`);
    }
    if (used.has(card)) throw new InvalidOddsRequestError(`card ${describe(card)} appears twice`);
    used.add(card);
  };
  hands.forEach((hand, i) => {
    if (hand.length !== 2) throw new InvalidOddsRequestError(`hand ${i} needs 2 hole cards, got ${hand.length}`);
    hand.forEach(take);
  });
  board.forEach(take);
}

/**
 * Per-hand equities and exact dead-heat shares at the stage the board implies: exact enumeration
 * of every remaining board before the river; at the river a deterministic evaluation of each
 * hand's seven cards. Inputs must already be valid (validateHandsAndBoard).
 */
export function stageEquities(hands: readonly (readonly Card[])[], board: readonly Card[]): HandEquity[] {
  if (board.length === 5) return riverEquities(hands.map((hand) => evaluateCards([...hand, ...board])));
  const equity = exactEquity(hands, board);
  return hands.map((_, i) => ({
    winPercent: equity.winPercent[i]!,
    drawPercent: equity.drawPercent[i]!,
    share: equity.shares[i]!,
  }));
}

/** Odds panels for known hands on a known board, at the stage the board implies. */
export function priceHands(hands: readonly (readonly Card[])[], board: readonly Card[], targetRtp: number): HandOdds[] {
  validateTargetRtp(targetRtp);
  validateHandsAndBoard(hands, board);
  return handOddsPanels(stageEquities(hands, board), stageOfBoard(board.length), targetRtp);
}
