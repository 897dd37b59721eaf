// Bulk generation: whole pre-computed games with every stage's prices, flags and descriptions.

import { type Card, formatCard, formatHand } from "@pokerodds/common/poker/cards";
import { assertFullDeck } from "./deal.js";
import { dealHoleCards } from "@pokerodds/common/deck-derivation";
import { describeHand } from "./describe.js";
import { InvalidOddsRequestError, validateIntegerRange, validateTargetRtp } from "@pokerodds/common/poker/errors";
import { BOARD_SIZE_BY_STAGE, type StagePricing, bulkStagePricing } from "@pokerodds/common/poker/pricing";
import { commitDeck } from "./provably-fair.js";
import { stageEquities } from "@pokerodds/common/poker/stage-odds";
import { BULK_HAND_COUNTS, BULK_MAX_GAMES, BULK_MIN_GAMES, type BulkHandCount } from "@pokerodds/common/limits";

interface BulkRequest {
  numberOfGames: number;
  numberOfHands: BulkHandCount;
  targetRtp: number;
}

export interface BulkHandStageInfo extends StagePricing {
  /** Five codes separated by single spaces, most to least significant; null at HOLE. */
  bestFiveCards: string | null;
  handDescShort: string | null;
  handDescLong: string | null;
}

/** Card codes exactly as the API shows them; `board` is flop (3), turn, river. */
export interface BulkGame {
  gameId: string;
  hands: string[];
  board: string[];
  /** numberOfHands x 4 entries: HOLE, FLOP, TURN, RIVER, each in hand order. */
  handStageInfoList: BulkHandStageInfo[];
}

/** A bulk game whose deck was derived from a fresh server seed, with the seed and its commitment. */
export interface CommittedBulkGame extends BulkGame {
  serverSeed: string;
  seedCommitment: string;
}

/** Validates a complete bulk request (defaults already applied): its games and hands (limits.ts), 0 < rtp < 1. */
export function validateBulkRequest(request: {
  numberOfGames: number;
  numberOfHands: number;
  targetRtp: number;
}): BulkRequest {
  validateIntegerRange("numberOfGames", request.numberOfGames, BULK_MIN_GAMES, BULK_MAX_GAMES);
  const numberOfHands = BULK_HAND_COUNTS.find((count) => count === request.numberOfHands);
  if (numberOfHands === undefined) {
    throw new InvalidOddsRequestError(`numberOfHands must be ${BULK_HAND_COUNTS.join(" or ")}`);
  }
  validateTargetRtp(request.targetRtp);
  return { numberOfGames: request.numberOfGames, numberOfHands, targetRtp: request.targetRtp };
}

/** BULK-0001 for index 1: four digits, zero padded (a batch never exceeds 200). */
export function bulkGameId(index: number): string {
  return `BULK-${String(index).padStart(4, "0")}`;
}

/**
 * One game from its deck (derived from its seed: committedBulkGame): deal hole cards round-robin as the deal does,
 * then the next five cards are flop, turn and river (no burn cards, as at the table). Every
 * pre-river stage is priced by exact enumeration; the river by evaluating the seven-card hands.
 */
export function generateBulkGame(
  index: number,
  numberOfHands: BulkHandCount,
  targetRtp: number,
  deck: readonly Card[],
): BulkGame {
  validateIntegerRange("index", index, 1, Number.MAX_SAFE_INTEGER);
  if (numberOfHands !== 3 && numberOfHands !== 4) throw new InvalidOddsRequestError("numberOfHands must be 3 or 4");
  validateTargetRtp(targetRtp);
  assertFullDeck(deck);
  const { hands, rest } = dealHoleCards(deck, numberOfHands);
  const board = rest.slice(0, 5);

  const handStageInfoList = BOARD_SIZE_BY_STAGE.flatMap(([stage, boardSize]) => {
    const shown = board.slice(0, boardSize);
    return bulkStagePricing(stageEquities(hands, shown), stage, targetRtp).map((pricing, h): BulkHandStageInfo => {
      if (boardSize === 0) return { ...pricing, bestFiveCards: null, handDescShort: null, handDescLong: null };
      const description = describeHand([...hands[h]!, ...shown]);
      return {
        ...pricing,
        bestFiveCards: description.bestFive.map(formatCard).join(" "),
        handDescShort: description.short,
        handDescLong: description.long,
      };
    });
  });

  return { gameId: bulkGameId(index), hands: hands.map(formatHand), board: board.map(formatCard), handStageInfoList };
}

/** Game `index` of a batch, dealt from a committed deck (provably-fair.ts) like a table's game. */
export function committedBulkGame(index: number, numberOfHands: BulkHandCount, targetRtp: number): CommittedBulkGame {
  const { deck, serverSeed, seedCommitment } = commitDeck(bulkGameId(index));
  return { ...generateBulkGame(index, numberOfHands, targetRtp, deck), serverSeed, seedCommitment };
}
