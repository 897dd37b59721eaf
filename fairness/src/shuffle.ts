// A fair shuffle: Fisher-Yates driven by the operating system's CSPRNG. The fairness report's "plain"
// source, against which it measures the decks the product derives from seeds (common/src/deck-derivation.ts).

import { randomInt } from "node:crypto";
import { type Card, fullDeck } from "@pokerodds/common/poker/cards";

/**
 * A uniformly random permutation of the 52 cards.
 * crypto.randomInt(max) draws by rejection sampling, so every index 0..max-1 is exactly equally
 * likely (no modulo bias), and Fisher-Yates turns 51 such draws into one of the 52! orders with
 * equal probability. Never Math.random: it is predictable and its state is far smaller than 52!.
 */
export function shuffledDeck(): Card[] {
  const deck = fullDeck();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    const card = deck[i]!;
    deck[i] = deck[j]!;
    deck[j] = card;
  }
  return deck;
}
