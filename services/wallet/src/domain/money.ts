// Money is integer cents everywhere in the wallet: plain numbers, exact because every value stays
// far below 2^53 (common/src/limits.ts bounds a movement and a balance for every service).

/** What a new player's account starts with: 1,000 units. */
export const WELCOME_CREDIT_CENTS = 100_000;
