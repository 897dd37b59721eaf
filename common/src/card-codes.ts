// Cards as the odds service deals them, the table service stores them and the public API shows them:
// a rank (2-9, T, J, Q, K, A) then a suit (c, d, h, s), e.g. "Ah". The browser's fairness verifier
// (web/src/fairness/verify.ts) writes them again on purpose: it shares no code with the house.

export const RANK_CHARS = "23456789TJQKA";
export const SUIT_CHARS = "cdhs";
export const DECK_SIZE = RANK_CHARS.length * SUIT_CHARS.length;

/** One card's code as a regular expression's source (the OpenAPI document states it as written here). */
export const CARD_CODE_PATTERN = "[2-9TJQKA][cdhs]";
