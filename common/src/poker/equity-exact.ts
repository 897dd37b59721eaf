// Exact equity by weighted classes of boards instead of one board at a time.
//
// A hand's value depends on the board's suits only through flushes. So the boards to come are
// counted in two passes, each over classes of boards that give every hand the same value, each
// class evaluated once and counted with its number of boards as weight:
//
// 1. Rank pass. Every board's hands are valued as if no flush existed. Boards with the same
//    multiset of ranks then give the same values, so the pass walks rank multisets (at most 6,175
//    for five cards to come, instead of 1.7 million boards heads-up), each weighted by the number
//    of ways the deck deals it: the product over ranks of C(cards of that rank left, times used).
//
// 2. Flush pass, one suit at a time, over the boards where someone may hold a flush in it and
//    the rank pass was therefore wrong: those where the suit's new cards reach the threshold
//    t = 5 - (its known board cards) - (most hole cards of it in one hand). Its new cards are then
//    enumerated card by card (their ranks make the flush), but the others only as rank multisets
//    of at most two cards (no other suit can flush on such a board, see below). For each class
//    the rank-only result is taken back and the true one counted, when they differ.
//
// No board needs correcting for two suits: if two suits both reached their thresholds, their
// new cards would number t1 + t2 >= 10 - 2 - 2 - (known cards) > the cards to come; and a suit
// with t <= 0 (a flush made on the flop or turn) has three known cards or more, which pushes
// every other suit's threshold above the cards to come. checkOneFlushSuit asserts it.
//
// A board's result is the set of hands sharing the best value, recorded as one counter update
// (equity-tally.ts). Every count is an integer below 2^53, so the totals are exact, and equal
// count for count to the old board-by-board enumeration (test/helpers/equity-oracle.ts). Each
// hand's dead-heat share (a k-way tie counting 1/k of a board, what pricing divides by) is read
// off the same counters at the end, in whole units of 1 / lcm(1..n) board, so it is exact too.

import type { Card } from "./cards.js";
import type { Equity } from "./equity-types.js";
import { rankWinners, readSpot, type Spot } from "./equity-spot.js";
import { type HandCounts, WinnerTally, equityOf } from "./equity-tally.js";
import { CARD_RANK_KEY, FLUSH_VALUE, RANK_ROW_OFFSET, RANK_ROW_SHIFT, RANK_VALUE } from "./evaluator.js";

// The evaluator's tables bound to this module's own constants: V8 compiles loops that read
// module-level constants markedly faster than loops that read imported bindings.
const ROW_OFFSET = RANK_ROW_OFFSET;
const ROW_SHIFT = RANK_ROW_SHIFT;
const VALUE = RANK_VALUE;
const FLUSH = FLUSH_VALUE;
/** Rank key of each rank 0..12. */
const RANK_KEY = Int32Array.from({ length: 13 }, (_, rank) => CARD_RANK_KEY[rank * 4]!);
/** C(a, k) for a, k in 0..4, at a * 5 + k: ways to take k of the a cards of a rank left. */
const CHOOSE = Float64Array.from({ length: 25 }, (_, i) => binomial(Math.floor(i / 5), i % 5));

function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 0; i < k; i++) result = (result * (n - i)) / (i + 1);
  return Math.round(result);
}

/** Win, draw and share counts per hand, the boards they are out of, and the board classes evaluated. */
interface ExactCounts extends HandCounts {
  boards: number;
  classes: number;
}

/** The exact counts behind exactEquity (see the header). Throws InvalidArgumentError on bad input. */
export function exactCounts(hands: readonly (readonly Card[])[], board: readonly Card[]): ExactCounts {
  const { spot, tally, classes } = tallied(hands, board);
  return { ...tally.perHand(), boards: binomial(spot.deck.length, spot.missing), classes };
}

/**
 * Every set of hands that wins some completion of the board (one hand alone, or several tied for
 * best), as ascending hand indexes: which ties can happen, which the percentages do not say.
 */
export function exactWinnerSets(hands: readonly (readonly Card[])[], board: readonly Card[]): number[][] {
  const { spot, tally } = tallied(hands, board);
  return tally.occurring().map((mask) => Array.from({ length: spot.n }, (_, i) => i).filter((i) => mask & (1 << i)));
}

/** Every completion of the board counted by its winner set (see the header), and the classes evaluated. */
function tallied(hands: readonly (readonly Card[])[], board: readonly Card[]) {
  const spot = readSpot(hands, board);
  checkOneFlushSuit(spot);
  const tally = new WinnerTally(spot.n);
  let classes = rankPass(spot, tally, 12, spot.missing, spot.boardRank, 1);
  for (let suit = 0; suit < 4; suit++) classes += flushPass(spot, tally, suit);
  return { spot, tally, classes };
}

/**
 * Exact equity of each hand (two hole cards each) given 0..5 known board cards, over every
 * completion of the board from the remaining deck. Throws InvalidArgumentError on bad input.
 */
export function exactEquity(hands: readonly (readonly Card[])[], board: readonly Card[]): Equity {
  const counts = exactCounts(hands, board);
  return equityOf(counts, counts.boards);
}

/** New cards of `suit` from which some hand may hold a flush in it (may be <= 0). */
function flushThreshold(spot: Spot, suit: number): number {
  return 5 - spot.boardCount[suit]! - spot.maxHole[suit]!;
}

/** The proof in the header, checked: no two suits can both reach their thresholds. */
function checkOneFlushSuit(spot: Spot): void {
  for (let a = 0; a < 4; a++) {
    for (let b = a + 1; b < 4; b++) {
      const both = Math.max(0, flushThreshold(spot, a)) + Math.max(0, flushThreshold(spot, b));
      if (both <= spot.missing) throw new Error("equity: two suits could flush on one board");
    }
  }
}

/**
 * Rank pass over ranks `rank`..0 with `left` cards still to place; `key` is the board's rank key
 * so far and `weight` the boards dealing it. Returns the classes evaluated.
 */
function rankPass(spot: Spot, tally: WinnerTally, rank: number, left: number, key: number, weight: number): number {
  if (left === 0) {
    tally.add(rankWinners(spot.holeRank, spot.n, key), weight);
    return 1;
  }
  let classes = 0;
  const available = spot.deckByRank[rank]!;
  // Ranks below this one hold at most 4 * rank cards: skip what cannot place `left`.
  for (let k = Math.max(0, left - 4 * rank); k <= available && k <= left; k++) {
    classes += rankPass(
      spot,
      tally,
      rank - 1,
      left - k,
      key + k * RANK_KEY[rank]!,
      weight * CHOOSE[available * 5 + k]!,
    );
  }
  return classes;
}

/** Rank multisets of `size` cards (0..2) of the deck outside one suit: rank keys and weights. */
interface RankPatterns {
  count: number;
  keys: Int32Array;
  weights: Float64Array;
}

function rankPatterns(spot: Spot, suit: number, size: number): RankPatterns {
  if (size > 2) throw new Error(`equity: ${size} other cards in a flush class`);
  const left = new Int32Array(13);
  for (const c of spot.deck) if ((c & 3) !== suit) left[c >> 2]!++;
  const keys: number[] = [];
  const weights: number[] = [];
  const add = (key: number, weight: number): void => {
    if (weight === 0) return;
    keys.push(key);
    weights.push(weight);
  };
  if (size === 0) add(0, 1);
  for (let a = 0; a < 13 && size > 0; a++) {
    if (size === 1) add(RANK_KEY[a]!, left[a]!);
    else {
      add(2 * RANK_KEY[a]!, CHOOSE[left[a]! * 5 + 2]!);
      for (let b = a + 1; b < 13; b++) add(RANK_KEY[a]! + RANK_KEY[b]!, left[a]! * left[b]!);
    }
  }
  return { count: keys.length, keys: Int32Array.from(keys), weights: Float64Array.from(weights) };
}

/**
 * Flush pass for one suit: for each count c of its new cards from the threshold up, every set of
 * c of its cards left, crossed with every rank multiset of the other new cards. Returns the
 * classes evaluated.
 */
function flushPass(spot: Spot, tally: WinnerTally, suit: number): number {
  const least = Math.max(0, flushThreshold(spot, suit));
  if (least > spot.missing) return 0; // nobody can flush in this suit: the rank pass was right
  const ranks: number[] = [];
  for (const c of spot.deck) if ((c & 3) === suit) ranks.push(c >> 2);
  let classes = 0;
  const most = Math.min(spot.missing, ranks.length);
  for (let c = least; c <= most; c++) {
    const patterns = rankPatterns(spot, suit, spot.missing - c);
    const flushes = new Int32Array(spot.n);
    const visit = (from: number, left: number, mask: number, key: number): void => {
      if (left === 0) {
        classes += flushClass(spot, tally, suit, c, mask, key, patterns, flushes);
        return;
      }
      for (let p = from; p <= ranks.length - left; p++) {
        visit(p + 1, left - 1, mask | (1 << ranks[p]!), key + RANK_KEY[ranks[p]!]!);
      }
    };
    visit(0, c, 0, 0);
  }
  return classes;
}

/**
 * The boards whose new cards of `suit` are the c cards of rank bits `mask` (rank key `key`),
 * the others any of `patterns`: counts the true result in place of the rank pass's.
 * `flushes` is scratch for each hand's flush value (0: no flush).
 */
function flushClass(
  spot: Spot,
  tally: WinnerTally,
  suit: number,
  c: number,
  mask: number,
  key: number,
  patterns: RankPatterns,
  flushes: Int32Array,
): number {
  const { n, holeRank, holeMask, holeCount } = spot;
  const needed = 5 - spot.boardCount[suit]! - c; // hole cards of the suit that make a flush
  const suited = spot.boardMask[suit]! | mask;
  for (let i = 0; i < n; i++) {
    flushes[i] = holeCount[i * 4 + suit]! >= needed ? FLUSH[holeMask[i * 4 + suit]! | suited]! : 0;
  }
  const base = spot.boardRank + key;
  const { count, keys, weights } = patterns;
  for (let p = 0; p < count; p++) {
    const board = base + keys[p]!;
    let rankBest = -1;
    let rankMask = 0;
    let best = -1;
    let bestMask = 0;
    for (let i = 0; i < n; i++) {
      const k = board + holeRank[i]!;
      const v = VALUE[k + ROW_OFFSET[k >>> ROW_SHIFT]!]!;
      if (v > rankBest) {
        rankBest = v;
        rankMask = 1 << i;
      } else if (v === rankBest) rankMask |= 1 << i;
      // Seven cards holding a flush hold no full house or quads: the flush is the hand's value.
      const f = flushes[i]! > v ? flushes[i]! : v;
      if (f > best) {
        best = f;
        bestMask = 1 << i;
      } else if (f === best) bestMask |= 1 << i;
    }
    if (rankMask !== bestMask) {
      tally.add(rankMask, -weights[p]!);
      tally.add(bestMask, weights[p]!);
    }
  }
  return count;
}
