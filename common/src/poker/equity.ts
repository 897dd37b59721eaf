// Hold'em equity, the public entry point: exact over every board completion, or Monte Carlo.
//
//   equity-exact.ts        exact equity by weighted classes of boards: a rank pass over rank
//                          multisets, then a flush pass per suit over the boards where someone may
//                          flush; a few tens of thousands of classes instead of up to 1.7 million
//                          boards (README.md here has the design and the figures)
//   equity-monte-carlo.ts  sampled boards, each scored with one flush test for all hands
//   equity-random.ts       xoshiro128** and unbiased bounded draws, for Monte Carlo only
//   equity-spot.ts         input validation and the precomputed arrays both engines read
//   equity-tally.ts        one counter per winner set (bitmask of the hands sharing the best value)
//
// The board-by-board enumeration this replaced is kept as the test oracle
// (test/helpers/equity-oracle.ts); a property test holds the two equal count for count.

export type { Equity } from "./equity-types.js";
export { exactEquity } from "./equity-exact.js";
export { monteCarloEquity } from "./equity-monte-carlo.js";
export { Xoshiro128 } from "./equity-random.js";
