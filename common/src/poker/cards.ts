// A card is an integer 0..51: rank * 4 + suit, rank 0..12 for 2..A, suit 0..3 for c, d, h, s.
// Integers keep the evaluator's table lookups and the enumeration loops cheap.

import { DECK_SIZE, RANK_CHARS, SUIT_CHARS } from "../card-codes.js";
import { InvalidArgumentError } from "../errors.js";

export type Card = number;

class InvalidCardError extends InvalidArgumentError {
  constructor(code: string) {
    super(`invalid card code: ${JSON.stringify(code)}`);
  }
}

export const rankOf = (card: Card): number => card >> 2;
const suitOf = (card: Card): number => card & 3;
const makeCard = (rank: number, suit: number): Card => rank * 4 + suit;

export function parseCard(code: string): Card {
  const rank = code.length === 2 ? RANK_CHARS.indexOf(code[0]!) : -1;
  const suit = code.length === 2 ? SUIT_CHARS.indexOf(code[1]!) : -1;
  if (rank < 0 || suit < 0) throw new InvalidCardError(code);
  return makeCard(rank, suit);
}

export function formatCard(card: Card): string {
  return RANK_CHARS[rankOf(card)]! + SUIT_CHARS[suitOf(card)]!;
}

/** "AhKd" -> [Ah, Kd]. */
export function parseHand(code: string): [Card, Card] {
  if (code.length !== 4) throw new InvalidCardError(code);
  return [parseCard(code.slice(0, 2)), parseCard(code.slice(2))];
}

export function formatHand(hand: readonly Card[]): string {
  return hand.map(formatCard).join("");
}

export function fullDeck(): Card[] {
  return Array.from({ length: DECK_SIZE }, (_, i) => i);
}
