// Money is integer cents everywhere in the wallet: plain numbers, exact because every value stays
// far below 2^53 (these limits make that so).

// The largest single movement (1e9 units, decisions.md's largest amount) and the largest balance
// (1e13 units): common/src/limits.ts, shared with the gateway and the table service.
export { MAX_AMOUNT_CENTS, MAX_BALANCE_CENTS } from "@pokerodds/common/limits";
/** What a new player's account starts with: 1,000 units. */
export const WELCOME_CREDIT_CENTS = 100_000;
