// Hold'em equity: exact enumeration of every board completion, or Monte Carlo sampling.
//
// Both build on the evaluator's incremental keys: a board prefix's rank and suit keys are summed
// once per enumeration level, and each hand is evaluated by adding its two hole cards' keys to
// the board's (see evaluator.ts).
//
// Exact enumeration walks the remaining deck in nested levels. At the last board card it skips
// work that cannot change the result: the deck is sorted by rank, and when no hand can make a
// flush with the last card (no hand holds four of its suit among the six cards known so far),
// every remaining card of one rank gives every hand the same value, so each rank is evaluated
// once and counted as many times as it has cards left. Cards that could complete a flush are
// evaluated one by one.

import { InvalidArgumentError } from "@pokerodds/common/errors";
import type { Card } from "./cards.js";
import {
  CARD_RANK_KEY,
  CARD_SUIT_KEY,
  FLUSH_CHECK_MASK,
  RANK_ROW_OFFSET,
  RANK_ROW_SHIFT,
  RANK_VALUE,
  SUIT_KEY_START,
  flushSuitOf,
  valueOfFlushMask,
} from "./evaluator.js";

// The evaluator's tables bound to this module's own constants: V8 compiles loops that read
// module-level constants markedly faster than loops that read imported bindings.
const RANK_KEY = CARD_RANK_KEY;
const SUIT_KEY = CARD_SUIT_KEY;
const ROW_OFFSET = RANK_ROW_OFFSET;
const ROW_SHIFT = RANK_ROW_SHIFT;
const VALUE = RANK_VALUE;

/** Percentages 0..100 per hand. win: this hand alone has the best hand; draw: it ties for best. */
export interface Equity {
  winPercent: number[];
  drawPercent: number[];
  /** Boards counted: every completion (exact) or the iterations (Monte Carlo). */
  boards: number;
}

/** Adding one more card of a suit to a suit key sets that suit's check bit iff it then has 5+. */
const ONE_OF_EACH_SUIT = 0x1111;

/** A validated spot with everything the inner loops need precomputed, in typed arrays. */
class Spot {
  readonly n: number;
  /** Rank and suit keys of each hand's two hole cards. */
  readonly holeRank: Int32Array;
  readonly holeSuit: Int32Array;
  /** Rank bits of each hand's hole cards by suit: index hand * 4 + suit. */
  readonly holeMask: Int32Array;
  /** Cards not in any hand or on the known board, ascending (so grouped by rank). */
  readonly deck: Int32Array;
  /** For each deck position, the first position holding a higher rank. */
  readonly runEnd: Int32Array;
  /** Known board cards, then the enumerated ones. */
  readonly board = new Int32Array(5);
  readonly known: number;
  readonly wins: Float64Array;
  readonly draws: Float64Array;
  /** Scratch: hand values of the current board; hands' partial rank keys. */
  readonly values: Int32Array;
  readonly partial: Int32Array;

  constructor(hands: readonly (readonly Card[])[], board: readonly Card[]) {
    if (hands.length < 1) throw new InvalidArgumentError("at least one hand is needed");
    if (board.length > 5) throw new InvalidArgumentError(`a board has at most 5 cards, got ${board.length}`);
    const used = new Uint8Array(52);
    const take = (c: Card): void => {
      if (!Number.isInteger(c) || c < 0 || c > 51) throw new InvalidArgumentError(`invalid card ${c}`);
      if (used[c]) throw new InvalidArgumentError(`card ${c} is used twice`);
      used[c] = 1;
    };
    const n = hands.length;
    this.n = n;
    this.holeRank = new Int32Array(n);
    this.holeSuit = new Int32Array(n);
    this.holeMask = new Int32Array(n * 4);
    hands.forEach((hand, i) => {
      if (hand.length !== 2) throw new InvalidArgumentError(`a hand has 2 hole cards, got ${hand.length}`);
      for (const c of hand) {
        take(c);
        this.holeRank[i]! += RANK_KEY[c]!;
        this.holeSuit[i]! += SUIT_KEY[c]!;
        this.holeMask[i * 4 + (c & 3)]! |= 1 << (c >> 2);
      }
    });
    board.forEach((c, i) => {
      take(c);
      this.board[i] = c;
    });
    this.known = board.length;
    const deck: number[] = [];
    for (let c = 0; c < 52; c++) if (!used[c]) deck.push(c);
    if (deck.length < 5 - board.length) {
      throw new InvalidArgumentError(`${n} hands and ${board.length} board cards leave too few cards to deal`);
    }
    this.deck = Int32Array.from(deck);
    this.runEnd = new Int32Array(deck.length);
    for (let p = deck.length - 1; p >= 0; p--) {
      const next = p + 1 < deck.length && deck[p + 1]! >> 2 === deck[p]! >> 2 ? this.runEnd[p + 1]! : p + 1;
      this.runEnd[p] = next;
    }
    this.wins = new Float64Array(n);
    this.draws = new Float64Array(n);
    this.values = new Int32Array(n);
    this.partial = new Int32Array(n);
  }

  /** Keys of the known board cards. */
  boardKeys(): [number, number] {
    let r = 0;
    let s = SUIT_KEY_START;
    for (let i = 0; i < this.known; i++) {
      r += RANK_KEY[this.board[i]!]!;
      s += SUIT_KEY[this.board[i]!]!;
    }
    return [r, s];
  }

  toEquity(boards: number): Equity {
    return {
      winPercent: Array.from(this.wins, (w) => (100 * w) / boards),
      drawPercent: Array.from(this.draws, (d) => (100 * d) / boards),
      boards,
    };
  }
}

/** Value of a hand of 5..7 cards without a flush, from its rank key (evaluator.valueOfRankKey). */
function rankValue(rankKey: number): number {
  return VALUE[rankKey + ROW_OFFSET[rankKey >>> ROW_SHIFT]!]!;
}

/** Value of hand i's flush in `suit` on the complete board in spot.board. */
function flushValue(spot: Spot, i: number, suit: number): number {
  const board = spot.board;
  let mask = spot.holeMask[i * 4 + suit]!;
  for (let k = 0; k < 5; k++) {
    const c = board[k]!;
    if ((c & 3) === suit) mask |= 1 << (c >> 2);
  }
  return valueOfFlushMask(mask);
}

/** Credits the board just evaluated (values in spot.values), counted `weight` times. */
function credit(spot: Spot, best: number, bestHand: number, ties: number, weight: number): void {
  if (ties === 0) {
    spot.wins[bestHand]! += weight;
    return;
  }
  const { values, draws, n } = spot;
  for (let i = 0; i < n; i++) if (values[i] === best) draws[i]! += weight;
}

/**
 * Evaluates every hand on the complete board spot.board, whose keys are r and s. tallyRanks below is
 * its twin for boards where no flush is possible: kept apart on purpose, as the hot loop of the odds
 * (one branch fewer per hand and board).
 */
function tallyBoard(spot: Spot, r: number, s: number, weight: number): void {
  const { n, holeRank, holeSuit, values } = spot;
  let best = -1;
  let bestHand = 0;
  let ties = 0;
  for (let i = 0; i < n; i++) {
    const hs = s + holeSuit[i]!;
    const v = (hs & FLUSH_CHECK_MASK) === 0 ? rankValue(r + holeRank[i]!) : flushValue(spot, i, flushSuitOf(hs));
    values[i] = v;
    if (v > best) {
      best = v;
      bestHand = i;
      ties = 0;
    } else if (v === best) ties++;
  }
  credit(spot, best, bestHand, ties, weight);
}

/** Evaluates every hand with no flush possible: hand i's rank key is spot.partial[i] + lastRank. */
function tallyRanks(spot: Spot, lastRank: number, weight: number): void {
  const { n, partial, values } = spot;
  let best = -1;
  let bestHand = 0;
  let ties = 0;
  for (let i = 0; i < n; i++) {
    const v = rankValue(partial[i]! + lastRank);
    values[i] = v;
    if (v > best) {
      best = v;
      bestHand = i;
      ties = 0;
    } else if (v === best) ties++;
  }
  credit(spot, best, bestHand, ties, weight);
}

/** The last board card, over deck positions from..end, with the first four board cards' keys r, s. */
function lastCard(spot: Spot, from: number, r: number, s: number): void {
  const { n, holeRank, holeSuit, partial, deck, runEnd, board } = spot;
  // Suits in which some hand would have a flush if the last card were of that suit.
  let flushSuits = 0;
  for (let i = 0; i < n; i++) {
    partial[i] = r + holeRank[i]!;
    const hs = s + holeSuit[i]!;
    // A hand with a flush already has one whatever the last card: evaluate every card.
    flushSuits |= (hs & FLUSH_CHECK_MASK) !== 0 ? FLUSH_CHECK_MASK : (hs + ONE_OF_EACH_SUIT) & FLUSH_CHECK_MASK;
  }
  const size = deck.length;
  for (let p = from; p < size;) {
    const end = runEnd[p]!;
    const rankKey = RANK_KEY[deck[p]!]!;
    if (flushSuits === 0) tallyRanks(spot, rankKey, end - p);
    else {
      let plain = 0;
      for (let q = p; q < end; q++) {
        const c = deck[q]!;
        if ((flushSuits & (8 << ((c & 3) << 2))) === 0) plain++;
        else {
          board[4] = c;
          tallyBoard(spot, r + rankKey, s + SUIT_KEY[c]!, 1);
        }
      }
      if (plain > 0) tallyRanks(spot, rankKey, plain);
    }
    p = end;
  }
}

/** Board positions level..4 over deck positions from.., with the board so far having keys r, s. */
function walk(spot: Spot, level: number, from: number, r: number, s: number): void {
  if (level === 4) {
    lastCard(spot, from, r, s);
    return;
  }
  const { deck, board } = spot;
  const last = deck.length - (5 - level);
  for (let p = from; p <= last; p++) {
    const c = deck[p]!;
    board[level] = c;
    walk(spot, level + 1, p + 1, r + RANK_KEY[c]!, s + SUIT_KEY[c]!);
  }
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 0; i < k; i++) result = (result * (n - i)) / (i + 1);
  return Math.round(result);
}

/**
 * Exact equity of each hand (two hole cards each) given 0..5 known board cards, over every
 * completion of the board from the remaining deck. Throws InvalidArgumentError on bad input.
 */
export function exactEquity(hands: readonly (readonly Card[])[], board: readonly Card[]): Equity {
  const spot = new Spot(hands, board);
  const [r, s] = spot.boardKeys();
  if (spot.known === 5) tallyBoard(spot, r, s, 1);
  else walk(spot, spot.known, 0, r, s);
  return spot.toEquity(binomial(spot.deck.length, 5 - spot.known));
}

// ---------------------------------------------------------------------------------------------
// Monte Carlo.
//
// Random numbers: xoshiro128** (Blackman and Vigna; 128-bit state, period 2^128 - 1, passes
// BigCrush), seeded from crypto.getRandomValues unless a seed is given. Each board is a partial
// Fisher-Yates shuffle of the remaining deck, its indices drawn without modulo bias by Lemire's
// multiply-and-reject method. This is fast and statistically sound for simulation; it is NOT a
// cryptographic generator and must not be used to deal real cards.

/** xoshiro128** generator of uniform 32-bit unsigned integers. */
export class Xoshiro128 {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /**
   * seed: none for a seed from crypto.getRandomValues; a number for a reproducible stream (each
   * state word is a Weyl-sequence step through the murmur3 finalizer, as splitmix does); or
   * the four state words themselves (all zero is not a valid state and becomes 1, 0, 0, 0).
   */
  constructor(seed?: number | readonly [number, number, number, number]) {
    const s = new Uint32Array(4);
    if (seed === undefined) crypto.getRandomValues(s);
    else if (typeof seed !== "number") s.set(seed);
    else {
      let x = seed >>> 0;
      for (let i = 0; i < 4; i++) {
        x = (x + 0x9e3779b9) >>> 0;
        let z = x;
        z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
        z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
        s[i] = z ^ (z >>> 16);
      }
    }
    if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1;
    this.s0 = s[0]! | 0;
    this.s1 = s[1]! | 0;
    this.s2 = s[2]! | 0;
    this.s3 = s[3]! | 0;
  }

  /** Next uniform integer in [0, 2^32). */
  next(): number {
    const s1 = this.s1;
    const x = Math.imul(s1, 5);
    const result = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 = s1 ^ this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result;
  }

  /** Uniform integer in [0, bound), 1 <= bound <= 2^32, without bias (Lemire's method). */
  below(bound: number): number {
    // m = x * bound (exact, < 2^53); its high 32 bits are the result, its low 32 bits decide
    // whether x fell in the short, biased slice that must be rejected.
    let m = this.next() * bound;
    let high = Math.floor(m / 0x100000000);
    let low = m - high * 0x100000000;
    if (low < bound) {
      const reject = (0x100000000 - bound) % bound; // 2^32 mod bound
      while (low < reject) {
        m = this.next() * bound;
        high = Math.floor(m / 0x100000000);
        low = m - high * 0x100000000;
      }
    }
    return high;
  }
}

/**
 * Monte Carlo equity over `iterations` boards completed uniformly at random (see the RNG notes
 * above). Pass `seed` to make a run reproducible.
 */
export function monteCarloEquity(
  hands: readonly (readonly Card[])[],
  board: readonly Card[],
  iterations: number,
  seed?: number,
): Equity {
  const spot = new Spot(hands, board);
  if (!Number.isSafeInteger(iterations) || iterations < 1) {
    throw new InvalidArgumentError(`iterations must be a positive integer, got ${iterations}`);
  }
  const rng = new Xoshiro128(seed);
  const deck = spot.deck;
  const size = deck.length;
  const known = spot.known;
  const cards = spot.board;
  const [r0, s0] = spot.boardKeys();
  for (let it = 0; it < iterations; it++) {
    let r = r0;
    let s = s0;
    // Partial Fisher-Yates: the first (5 - known) deck positions become a uniform random draw.
    for (let k = known; k < 5; k++) {
      const i = k - known;
      const j = i + rng.below(size - i);
      const c = deck[j]!;
      deck[j] = deck[i]!;
      deck[i] = c;
      cards[k] = c;
      r += RANK_KEY[c]!;
      s += SUIT_KEY[c]!;
    }
    tallyBoard(spot, r, s, 1);
  }
  return spot.toEquity(iterations);
}
