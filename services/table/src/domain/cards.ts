// Card codes exactly as the odds service sends them (common/src/card-codes.ts).
// The table only stores and reveals cards, so it checks codes but never evaluates them.

import { CARD_CODE_PATTERN, DECK_SIZE } from "@pokerodds/common/card-codes";
import { derivedDeal } from "@pokerodds/common/deck-derivation";
import { commitmentOf } from "@pokerodds/common/server-seed";
import type { Fairness, TableSnapshot } from "./types.js";
import { UntrueOddsAnswerError } from "./untrue-odds-answer.js";
import { CLIENT_SEED_PATTERN, SEED_HEX } from "@pokerodds/common/limits";

const CARD = new RegExp(`^${CARD_CODE_PATTERN}$`);

/** The two cards of a hole-card pair "AhKd", or null when it is not one. */
function holeCards(hand: string): [string, string] | null {
  const cards: [string, string] = [hand.slice(0, 2), hand.slice(2)];
  return hand.length === 4 && cards.every((c) => CARD.test(c)) ? cards : null;
}

/**
 * Throws unless hands are numberOfHands hole-card pairs and hands plus deck are the 52 cards,
 * each exactly once: a dealt table can then never reveal a card twice or run out.
 */
export function assertDealtCards(hands: readonly string[], deck: readonly string[], numberOfHands: number): void {
  if (!Array.isArray(hands) || !Array.isArray(deck) || hands.length !== numberOfHands) {
    throw new UntrueOddsAnswerError(`a deal must hold exactly ${numberOfHands} hands`);
  }
  const cards: string[] = [];
  for (const hand of hands) {
    const pair = typeof hand === "string" ? holeCards(hand) : null;
    if (!pair) throw new UntrueOddsAnswerError(`invalid hole cards: ${JSON.stringify(hand)}`);
    cards.push(...pair);
  }
  for (const card of deck) {
    if (typeof card !== "string" || !CARD.test(card))
      throw new UntrueOddsAnswerError(`invalid card: ${JSON.stringify(card)}`);
    cards.push(card);
  }
  if (cards.length !== DECK_SIZE || new Set(cards).size !== DECK_SIZE) {
    throw new UntrueOddsAnswerError("hands and remaining deck must hold each of the 52 cards exactly once");
  }
}

/** A deal's seed and its commitment, as the odds service answers them. */
export type DealtSeed = Pick<Fairness, "serverSeed" | "seedCommitment">;

/**
 * The deal's seed and commitment as the odds service sent them, with the client seed the deal was
 * asked with. UntrueOddsAnswerError unless both are 64 hex digits, the commitment is SHA-256 of the seed's bytes
 * and the seed is the one the game committed to (if any): a table never shows a commitment its seed
 * cannot keep. That the cards derive from the seeds is assertDerivedDeal's check.
 */
export function checkedFairness(dealt: DealtSeed, committed: Fairness | null, clientSeed: string | null): Fairness {
  const { serverSeed, seedCommitment } = dealt;
  if (!SEED_HEX.test(serverSeed) || !SEED_HEX.test(seedCommitment)) {
    throw new UntrueOddsAnswerError("a deal's seed and commitment must be 64 lowercase hex digits");
  }
  if (commitmentOf(serverSeed) !== seedCommitment) {
    throw new UntrueOddsAnswerError("the deal's commitment is not SHA-256 of its seed");
  }
  if (committed && committed.serverSeed !== serverSeed) {
    throw new UntrueOddsAnswerError("the deal is not from the seed the game committed to");
  }
  if (clientSeed !== null && !CLIENT_SEED_PATTERN.test(clientSeed)) throw new RangeError("invalid client seed");
  return { serverSeed, seedCommitment, clientSeed };
}

/**
 * Throws unless the hands and the remaining deck are exactly the deal the seeds derive for gameId
 * (docs/provably-fair.md): an odds service that dealt other cards, by fault or by intent, would
 * have players bet on a game whose reveal cannot verify; the table stores no such deal.
 */
export function assertDerivedDeal(
  dealt: { hands: readonly string[]; remainingDeck: readonly string[] },
  fairness: Fairness,
  gameId: string,
): void {
  const derived = derivedDeal(fairness, gameId, dealt.hands.length);
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (!same(dealt.hands, derived.hands) || !same(dealt.remainingDeck, derived.remainingDeck)) {
    throw new UntrueOddsAnswerError(`the deal's cards are not the deck its seeds derive for game ${gameId}`);
  }
}

/**
 * The snapshot with its game's deck committed to: a game not dealt yet and without a commitment gets
 * `drawSeed()`'s seed and its commitment, which its state shows from then on, before any client seed
 * or bet. Any other snapshot is returned as it is.
 */
export function withCommittedDeck(snapshot: TableSnapshot, drawSeed: () => string): TableSnapshot {
  if (snapshot.hands !== null || snapshot.fairness !== null) return snapshot;
  const serverSeed = drawSeed();
  if (!SEED_HEX.test(serverSeed)) throw new RangeError("a server seed must be 64 lowercase hex digits");
  return { ...snapshot, fairness: { serverSeed, seedCommitment: commitmentOf(serverSeed), clientSeed: null } };
}
