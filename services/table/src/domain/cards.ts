// Card codes exactly as the odds service sends them: rank (2-9, T, J, Q, K, A) then suit (c d h s).
// The table only stores and reveals cards, so it checks codes but never evaluates them.

const CARD = /^[2-9TJQKA][cdhs]$/;

export const DECK_SIZE = 52;

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
    throw new RangeError(`a deal must hold exactly ${numberOfHands} hands`);
  }
  const cards: string[] = [];
  for (const hand of hands) {
    const pair = typeof hand === "string" ? holeCards(hand) : null;
    if (!pair) throw new RangeError(`invalid hole cards: ${JSON.stringify(hand)}`);
    cards.push(...pair);
  }
  for (const card of deck) {
    if (typeof card !== "string" || !CARD.test(card)) throw new RangeError(`invalid card: ${JSON.stringify(card)}`);
    cards.push(card);
  }
  if (cards.length !== DECK_SIZE || new Set(cards).size !== DECK_SIZE) {
    throw new RangeError("hands and remaining deck must hold each of the 52 cards exactly once");
  }
}
