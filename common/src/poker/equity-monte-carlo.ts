// Monte Carlo equity: boards completed uniformly at random, each a partial Fisher-Yates shuffle
// of the remaining deck (equity-random.ts draws the indices without bias).
//
// Per board, one test of the board's suit key against every hand's most cards of each suit tells
// whether anyone can hold a flush; most boards (82-96% of them pre-flop in the bench's 6, 4 and
// 2-hand deals) then take the plain loop of one rank lookup per hand, and nothing about suits is
// gathered for them. Only on the others are the board's rank bits by suit collected, once, so
// that each hand's flush is one lookup instead of a rescan of the board per hand. A board's result
// is one counter update by winner mask (equity-tally.ts). Card indices come from xoshiro128**
// 16 bits at a time (belowSmall): one output deals two cards.

import { InvalidArgumentError } from "../errors.js";
import type { Card } from "./cards.js";
import type { Equity } from "./equity-types.js";
import { Xoshiro128 } from "./equity-random.js";
import { rankWinners, readSpot, type Spot } from "./equity-spot.js";
import { WinnerTally } from "./equity-tally.js";
import {
  CARD_RANK_KEY,
  CARD_SUIT_KEY,
  FLUSH_CHECK_MASK,
  FLUSH_VALUE,
  RANK_ROW_OFFSET,
  RANK_ROW_SHIFT,
  RANK_VALUE,
} from "./evaluator.js";

// The evaluator's tables bound to this module's own constants (V8 optimizes loops over module
// constants best).
const RANK_KEY = CARD_RANK_KEY;
const SUIT_KEY = CARD_SUIT_KEY;
const ROW_OFFSET = RANK_ROW_OFFSET;
const ROW_SHIFT = RANK_ROW_SHIFT;
const VALUE = RANK_VALUE;
const FLUSH = FLUSH_VALUE;
const CHECK = FLUSH_CHECK_MASK;
/** Scratch: a board's rank bits by suit (the loops are synchronous, so one array serves all). */
const SUITED = new Int32Array(4);

/**
 * Monte Carlo equity over `iterations` boards completed uniformly at random (see the RNG notes
 * in equity-random.ts). Pass `seed` to make a run reproducible.
 */
export function monteCarloEquity(
  hands: readonly (readonly Card[])[],
  board: readonly Card[],
  iterations: number,
  seed?: number,
): Equity {
  const spot = readSpot(hands, board);
  if (!Number.isSafeInteger(iterations) || iterations < 1) {
    throw new InvalidArgumentError(`iterations must be a positive integer, got ${iterations}`);
  }
  const tally = new WinnerTally(spot.n);
  simulate(spot, tally, new Xoshiro128(seed), iterations);
  return tally.toEquity(iterations);
}

/** Most hole cards of each suit in any one hand, as a suit key (a 4-bit counter per suit). */
function mostHoleCards(spot: Spot): number {
  let key = 0;
  for (let suit = 0; suit < 4; suit++) key += spot.maxHole[suit]! << (4 * suit);
  return key;
}

function simulate(spot: Spot, tally: WinnerTally, rng: Xoshiro128, iterations: number): void {
  const { n, deck, holeRank, boardRank, boardSuit, missing } = spot;
  const size = deck.length;
  const mostHole = mostHoleCards(spot);
  for (let it = 0; it < iterations; it++) {
    let r = boardRank;
    let s = boardSuit;
    // Partial Fisher-Yates: the first `missing` deck positions become a uniform random draw.
    for (let i = 0; i < missing; i++) {
      const j = i + rng.belowSmall(size - i);
      const c = deck[j]!;
      deck[j] = deck[i]!;
      deck[i] = c;
      r += RANK_KEY[c]!;
      s += SUIT_KEY[c]!;
    }
    tally.add((s + mostHole) & CHECK ? flushWinners(spot, r, s) : rankWinners(holeRank, n, r), 1);
  }
}

/**
 * Winner mask of a complete board with rank key r and suit key s, its new cards being the first
 * deck positions. Only here, on the rarer boards, are the board's rank bits by suit gathered.
 */
function flushWinners(spot: Spot, r: number, s: number): number {
  const { n, holeRank, holeSuit, holeMask, deck, missing } = spot;
  const suited = SUITED;
  for (let suit = 0; suit < 4; suit++) suited[suit] = spot.boardMask[suit]!;
  for (let i = 0; i < missing; i++) suited[deck[i]! & 3]! |= 1 << (deck[i]! >> 2);
  let best = -1;
  let mask = 0;
  for (let i = 0; i < n; i++) {
    const hs = s + holeSuit[i]!;
    let v: number;
    if ((hs & CHECK) === 0) {
      const k = r + holeRank[i]!;
      v = VALUE[k + ROW_OFFSET[k >>> ROW_SHIFT]!]!;
    } else {
      const suit = (31 - Math.clz32(hs & CHECK)) >> 2;
      v = FLUSH[holeMask[i * 4 + suit]! | suited[suit]!]!;
    }
    if (v > best) {
      best = v;
      mask = 1 << i;
    } else if (v === best) mask |= 1 << i;
  }
  return mask;
}
