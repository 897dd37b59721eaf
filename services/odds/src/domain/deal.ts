// The stand-alone deal: a deck derived from a fresh seed (committedDeal), two hole cards per hand, pre-flop odds.

import { DECK_SIZE } from "@pokerodds/common/card-codes";
import { dealHoleCards } from "@pokerodds/common/deck-derivation";
import { MAX_HANDS_PER_GAME, MIN_HANDS_PER_GAME } from "@pokerodds/common/limits";
import { type Card, formatCard, formatHand } from "@pokerodds/common/poker/cards";
import { validateIntegerRange, validateTargetRtp } from "@pokerodds/common/poker/errors";
import { type HandOdds, Stage, handOddsPanels } from "@pokerodds/common/poker/pricing";
import { commitDeck } from "./provably-fair.js";
import { stageEquities } from "@pokerodds/common/poker/stage-odds";

/** Card codes exactly as the API shows them: hands "AhKd", remainingDeck ["Qs", ...]. */
interface DealResult {
  hands: string[];
  /** Pre-flop panels (bettingStage 0), one per hand in hand order. */
  handOdds: HandOdds[];
  /** The 52 - 2n undealt cards in shuffled order: flop, turn and river are drawn from the front. */
  remainingDeck: string[];
}

/** Throws unless deck holds each of the 52 cards exactly once (an injected deck is a programming input). */
export function assertFullDeck(deck: readonly Card[]): void {
  const seen = new Set(deck);
  if (
    deck.length !== DECK_SIZE ||
    seen.size !== DECK_SIZE ||
    !deck.every((c) => Number.isInteger(c) && c >= 0 && c < DECK_SIZE)
  ) {
    throw new RangeError("a deck must hold each of the 52 cards exactly once");
  }
}

/**
 * Deals numberOfHands (2..6) hands from `deck` (derived from its seed: committedDeal) and prices them
 * pre-flop by exact enumeration at targetRtp (0 < rtp < 1).
 */
export function deal(numberOfHands: number, targetRtp: number, deck: readonly Card[]): DealResult {
  validateIntegerRange("numberOfHands", numberOfHands, MIN_HANDS_PER_GAME, MAX_HANDS_PER_GAME);
  validateTargetRtp(targetRtp);
  assertFullDeck(deck);
  const { hands, rest } = dealHoleCards(deck, numberOfHands);
  return {
    hands: hands.map(formatHand),
    handOdds: handOddsPanels(stageEquities(hands, []), Stage.HOLE, targetRtp),
    remainingDeck: rest.map(formatCard),
  };
}

/** A deal whose deck was committed to (provably-fair.ts): the result with its game id, seed and commitment. */
export interface CommittedDealResult extends DealResult {
  gameId: string;
  serverSeed: string;
  seedCommitment: string;
}

/** Deals from a deck derived from gameId and a fresh server seed, as every game of this house is dealt. */
export function committedDeal(numberOfHands: number, targetRtp: number, gameId: string): CommittedDealResult {
  const { deck, serverSeed, seedCommitment } = commitDeck(gameId);
  return { ...deal(numberOfHands, targetRtp, deck), gameId, serverSeed, seedCommitment };
}
