// Poker hand evaluator: incremental rank and suit keys, small lookup tables built at load.
//
// A HandValue is the hand's class number 1..7462 over all distinct five-card hand classes:
// higher beats lower, equal values tie. 0 is never returned.

import { InvalidArgumentError } from "@pokerodds/common/errors";
import type { Card } from "./cards.js";

export type HandValue = number;

export enum HandCategory {
  HighCard = 0,
  Pair,
  TwoPair,
  ThreeOfAKind,
  Straight,
  Flush,
  FullHouse,
  FourOfAKind,
  StraightFlush,
}

/** Number of distinct five-card hand classes; HandValues run 1..HAND_CLASSES. */
export const HAND_CLASSES = 7462;

// ---------------------------------------------------------------------------------------------
// Scores: an intermediate, sparse but ordered encoding used to build the dense class numbers.
// score = category << 20 | r0 << 16 | r1 << 12 | r2 << 8 | r3 << 4 | r4, with r0.. the ranks
// that decide the hand inside its category, most significant first.

function pack(category: HandCategory, r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0): number {
  return (category << 20) | (r0 << 16) | (r1 << 12) | (r2 << 8) | (r3 << 4) | r4;
}

/** Highest rank of a straight contained in a 13-bit rank mask, 3 for the wheel, -1 if none. */
export function straightHigh(mask: number): number {
  for (let high = 12; high >= 4; high--) {
    const run = 0x1f << (high - 4);
    if ((mask & run) === run) return high;
  }
  return (mask & 0x100f) === 0x100f ? 3 : -1;
}

/** Score of the best five cards of one suit, given that suit's rank mask (5..7 bits set). */
function flushScore(mask: number): number {
  const high = straightHigh(mask);
  if (high >= 0) return pack(HandCategory.StraightFlush, high);
  const top: number[] = [];
  for (let r = 12; r >= 0 && top.length < 5; r--) if (mask & (1 << r)) top.push(r);
  return pack(HandCategory.Flush, top[0], top[1], top[2], top[3], top[4]);
}

/** Score of the best five cards, ignoring flushes, for rank counts of 5..7 cards. */
function nonFlushScore(counts: ArrayLike<number>): number {
  let quad = -1;
  const trips: number[] = [];
  const pairs: number[] = [];
  const singles: number[] = [];
  let mask = 0;
  for (let r = 12; r >= 0; r--) {
    const n = counts[r] ?? 0;
    if (n === 0) continue;
    mask |= 1 << r;
    if (n === 4) quad = r;
    else if (n === 3) trips.push(r);
    else if (n === 2) pairs.push(r);
    else singles.push(r);
  }
  if (quad >= 0) {
    let kicker = -1;
    for (let r = 12; r >= 0; r--) if (r !== quad && mask & (1 << r)) { kicker = r; break; }
    return pack(HandCategory.FourOfAKind, quad, kicker);
  }
  const [t0, t1] = trips;
  const [p0, p1, p2] = pairs;
  if (t0 !== undefined && (t1 !== undefined || p0 !== undefined)) {
    return pack(HandCategory.FullHouse, t0, Math.max(t1 ?? -1, p0 ?? -1));
  }
  const high = straightHigh(mask);
  if (high >= 0) return pack(HandCategory.Straight, high);
  if (t0 !== undefined) return pack(HandCategory.ThreeOfAKind, t0, singles[0], singles[1]);
  if (p0 !== undefined && p1 !== undefined) {
    return pack(HandCategory.TwoPair, p0, p1, Math.max(p2 ?? -1, singles[0] ?? -1));
  }
  if (p0 !== undefined) return pack(HandCategory.Pair, p0, singles[0], singles[1], singles[2]);
  return pack(HandCategory.HighCard, singles[0], singles[1], singles[2], singles[3], singles[4]);
}

// Dense class numbers: every distinct five-card score, sorted, numbered 1..7462.
const CLASS_OF_SCORE = new Map<number, number>();
/** Category of each HandValue (index 0 unused). */
const CATEGORY_OF_VALUE = new Uint8Array(HAND_CLASSES + 1);
{
  const scores = new Set<number>();
  const counts = new Uint8Array(13);
  const walk = (rank: number, left: number): void => {
    if (left === 0) {
      scores.add(nonFlushScore(counts));
      return;
    }
    if (rank < 0) return;
    for (let n = Math.min(4, left); n >= 0; n--) {
      counts[rank] = n;
      walk(rank - 1, left - n);
    }
    counts[rank] = 0;
  };
  walk(12, 5);
  for (let mask = 0; mask < 1 << 13; mask++) {
    let bits = 0;
    for (let m = mask; m; m &= m - 1) bits++;
    if (bits === 5) scores.add(flushScore(mask));
  }
  const sorted = [...scores].sort((x, y) => x - y);
  if (sorted.length !== HAND_CLASSES) throw new Error(`evaluator: ${sorted.length} hand classes`);
  sorted.forEach((score, i) => {
    CLASS_OF_SCORE.set(score, i + 1);
    CATEGORY_OF_VALUE[i + 1] = score >> 20;
  });
}

// ---------------------------------------------------------------------------------------------
// Incremental hand keys.
//
// A hand is two small integers that cards are ADDED to, so a partial hand (hole cards, a board
// prefix) is computed once and extended by one addition per card:
//
//   rank key  the sum of each card's CARD_RANK_KEY. Ranks 2..8 carry keys in the low 16 bits,
//             ranks 9..A in the bits above. Within each group the keys are chosen (greedily, the
//             smallest key that keeps every sum distinct) so that every multiset of up to seven
//             ranks, at most four of each, has its own sum: low field <= 43717 < 2^16, high field
//             <= 10551, so a seven-card rank key stays below 2^30.
//   suit key  SUIT_KEY_START plus each card's CARD_SUIT_KEY: four 4-bit counters that start at 3,
//             so a counter reaches 8 (its top bit, tested by FLUSH_CHECK_MASK) exactly when its
//             suit holds five cards or more.
//
// Lookup of a non-flush hand of 5..7 cards: the high field indexes the rank multisets of the high
// group, numbered by how many cards they hold (fewest first); the low field selects where in
// NON_FLUSH_VALUE that low multiset's block starts. A block holds exactly the high multisets that
// complete it to 5..7 cards, so the table has one entry per rank multiset of 5..7 cards (73,775),
// with no hashing and no gaps. Flushes (at most one suit can hold five of seven cards, and then
// no full house or quads is possible) take a separate path: the flush suit's 13-bit rank mask
// indexes FLUSH_VALUE.

const LOW_GROUP_KEYS = [1, 5, 24, 112, 521, 2247, 9244]; // ranks 0..6 (2..8)
const HIGH_GROUP_KEYS = [1, 5, 24, 112, 521, 2247]; // ranks 7..12 (9..A), shifted left by 16
const LOW_RANKS = LOW_GROUP_KEYS.length;
const HIGH_SHIFT = 16;
const LOW_MASK = (1 << HIGH_SHIFT) - 1;

/** Rank key of each card (index = card). */
export const CARD_RANK_KEY = new Int32Array(52);
/** Suit key of each card: 1 << (4 * suit). */
export const CARD_SUIT_KEY = new Int32Array(52);
/** Bit of each card's rank, 1 << rank (for flush rank masks). */
export const CARD_RANK_BIT = new Int32Array(52);
/** Suit key of a hand with no cards. */
export const SUIT_KEY_START = 0x3333;
/** Non-zero in (suit key & FLUSH_CHECK_MASK) exactly when some suit holds five or more cards. */
export const FLUSH_CHECK_MASK = 0x8888;

for (let card = 0; card < 52; card++) {
  const rank = card >> 2;
  CARD_RANK_KEY[card] = rank < LOW_RANKS ? LOW_GROUP_KEYS[rank]! : HIGH_GROUP_KEYS[rank - LOW_RANKS]! << HIGH_SHIFT;
  CARD_SUIT_KEY[card] = 1 << (4 * (card & 3));
  CARD_RANK_BIT[card] = 1 << rank;
}

interface RankMultiset {
  key: number;
  cards: number;
  counts: number[];
}

/** Every multiset of the given ranks with at most 4 of each and at most `max` in all. */
function rankMultisets(keys: readonly number[], max: number): RankMultiset[] {
  const out: RankMultiset[] = [];
  const counts = keys.map(() => 0);
  const walk = (i: number, key: number, cards: number): void => {
    if (i === keys.length) {
      out.push({ key, cards, counts: [...counts] });
      return;
    }
    for (let n = 0; n <= 4 && cards + n <= max; n++) {
      counts[i] = n;
      walk(i + 1, key + n * keys[i]!, cards + n);
    }
    counts[i] = 0;
  };
  walk(0, 0, 0);
  return out;
}

const HIGH_MULTISETS = rankMultisets(HIGH_GROUP_KEYS, 7).sort((x, y) => x.cards - y.cards);
const LOW_MULTISETS = rankMultisets(LOW_GROUP_KEYS, 7);

/** High-group multiset number, by high field of the rank key. */
export const HIGH_INDEX = new Uint16Array(Math.max(...HIGH_MULTISETS.map((m) => m.key)) + 1);
/** Start of each low multiset's block in NON_FLUSH_VALUE, minus the first high index it uses. */
export const LOW_BASE = new Int32Array(Math.max(...LOW_MULTISETS.map((m) => m.key)) + 1);
export const NON_FLUSH_VALUE = new Uint16Array(73775);
/** Best flush or straight flush for each 13-bit rank mask with 5..7 bits; 0 elsewhere. */
const FLUSH_VALUE = new Uint16Array(1 << 13);

{
  // firstHigh[n]: index of the first high multiset with n cards (n = 0..8).
  const firstHigh = new Array<number>(9).fill(HIGH_MULTISETS.length);
  const seenHigh = new Uint8Array(HIGH_INDEX.length);
  HIGH_MULTISETS.forEach((m, i) => {
    if (seenHigh[m.key]) throw new Error("evaluator: high rank keys collide");
    seenHigh[m.key] = 1;
    HIGH_INDEX[m.key] = i;
    if (i < firstHigh[m.cards]!) firstHigh[m.cards] = i;
  });
  for (let n = 7; n >= 0; n--) firstHigh[n] = Math.min(firstHigh[n]!, firstHigh[n + 1]!);

  const seenLow = new Uint8Array(LOW_BASE.length);
  const counts = new Array<number>(13).fill(0);
  let cursor = 0;
  for (const low of LOW_MULTISETS) {
    if (seenLow[low.key]) throw new Error("evaluator: low rank keys collide");
    seenLow[low.key] = 1;
    const from = firstHigh[Math.max(0, 5 - low.cards)]!;
    const to = firstHigh[8 - low.cards]!;
    LOW_BASE[low.key] = cursor - from;
    for (let r = 0; r < LOW_RANKS; r++) counts[r] = low.counts[r]!;
    for (let i = from; i < to; i++) {
      const high = HIGH_MULTISETS[i]!;
      for (let r = LOW_RANKS; r < 13; r++) counts[r] = high.counts[r - LOW_RANKS]!;
      NON_FLUSH_VALUE[cursor++] = classOf(nonFlushScore(counts));
    }
  }
  if (cursor !== NON_FLUSH_VALUE.length) throw new Error(`evaluator: ${cursor} rank multisets`);

  for (let mask = 0; mask < 1 << 13; mask++) {
    let bits = 0;
    for (let m = mask; m; m &= m - 1) bits++;
    if (bits >= 5 && bits <= 7) FLUSH_VALUE[mask] = classOf(flushScore(mask));
  }
}

function classOf(score: number): HandValue {
  const value = CLASS_OF_SCORE.get(score);
  if (value === undefined) throw new Error(`evaluator: unknown score ${score}`);
  return value;
}

/** Value of a hand of 5..7 cards without a flush, from its rank key. */
export function valueOfRankKey(rankKey: number): HandValue {
  return NON_FLUSH_VALUE[LOW_BASE[rankKey & LOW_MASK]! + HIGH_INDEX[rankKey >>> HIGH_SHIFT]!]!;
}

/** Suit (0..3) holding five or more cards, for a suit key that passed FLUSH_CHECK_MASK. */
export function flushSuitOf(suitKey: number): number {
  return (31 - Math.clz32(suitKey & FLUSH_CHECK_MASK)) >> 2;
}

/** Value of the best flush (or straight flush) in a 13-bit rank mask of 5..7 cards of one suit. */
export function valueOfFlushMask(rankMask: number): HandValue {
  return FLUSH_VALUE[rankMask]!;
}

/** Rank mask of the cards of `suit` among up to seven cards (missing ones passed as -1). */
function suitMask(suit: number, a: Card, b: Card, c: Card, d: Card, e: Card, f: Card, g: Card): number {
  let m = 0;
  if ((a & 3) === suit) m |= 1 << (a >> 2);
  if ((b & 3) === suit) m |= 1 << (b >> 2);
  if ((c & 3) === suit) m |= 1 << (c >> 2);
  if ((d & 3) === suit) m |= 1 << (d >> 2);
  if ((e & 3) === suit) m |= 1 << (e >> 2);
  if (f >= 0 && (f & 3) === suit) m |= 1 << (f >> 2);
  if (g >= 0 && (g & 3) === suit) m |= 1 << (g >> 2);
  return m;
}

export function evaluate5(a: Card, b: Card, c: Card, d: Card, e: Card): HandValue {
  const rk = CARD_RANK_KEY[a]! + CARD_RANK_KEY[b]! + CARD_RANK_KEY[c]! + CARD_RANK_KEY[d]! + CARD_RANK_KEY[e]!;
  const sk = SUIT_KEY_START + CARD_SUIT_KEY[a]! + CARD_SUIT_KEY[b]! + CARD_SUIT_KEY[c]! + CARD_SUIT_KEY[d]! + CARD_SUIT_KEY[e]!;
  if ((sk & FLUSH_CHECK_MASK) === 0) return valueOfRankKey(rk);
  return FLUSH_VALUE[suitMask(flushSuitOf(sk), a, b, c, d, e, -1, -1)]!;
}

export function evaluate7(a: Card, b: Card, c: Card, d: Card, e: Card, f: Card, g: Card): HandValue {
  const rk =
    CARD_RANK_KEY[a]! + CARD_RANK_KEY[b]! + CARD_RANK_KEY[c]! + CARD_RANK_KEY[d]! + CARD_RANK_KEY[e]! + CARD_RANK_KEY[f]! + CARD_RANK_KEY[g]!;
  const sk =
    SUIT_KEY_START +
    CARD_SUIT_KEY[a]! + CARD_SUIT_KEY[b]! + CARD_SUIT_KEY[c]! + CARD_SUIT_KEY[d]! + CARD_SUIT_KEY[e]! + CARD_SUIT_KEY[f]! + CARD_SUIT_KEY[g]!;
  if ((sk & FLUSH_CHECK_MASK) === 0) return valueOfRankKey(rk);
  return FLUSH_VALUE[suitMask(flushSuitOf(sk), a, b, c, d, e, f, g)]!;
}

/** Value of the best five of 5, 6 or 7 distinct cards. Throws InvalidArgumentError otherwise. */
export function evaluateCards(cards: readonly Card[]): HandValue {
  const n = cards.length;
  if (n < 5 || n > 7) throw new InvalidArgumentError(`a hand needs 5 to 7 cards, got ${n}`);
  let rk = 0;
  let sk = SUIT_KEY_START;
  let seenLow = 0; // cards 0..25
  let seenHigh = 0; // cards 26..51
  for (const c of cards) {
    if (!Number.isInteger(c) || c < 0 || c > 51) throw new InvalidArgumentError(`invalid card ${c}`);
    const bit = 1 << (c % 26);
    if ((c < 26 ? seenLow : seenHigh) & bit) throw new InvalidArgumentError(`duplicate card ${c}`);
    if (c < 26) seenLow |= bit;
    else seenHigh |= bit;
    rk += CARD_RANK_KEY[c]!;
    sk += CARD_SUIT_KEY[c]!;
  }
  if ((sk & FLUSH_CHECK_MASK) === 0) return valueOfRankKey(rk);
  const suit = flushSuitOf(sk);
  let mask = 0;
  for (const c of cards) if ((c & 3) === suit) mask |= CARD_RANK_BIT[c]!;
  return FLUSH_VALUE[mask]!;
}

export function handCategory(value: HandValue): HandCategory {
  if (!(value >= 1 && value <= HAND_CLASSES) || value !== Math.floor(value)) {
    throw new RangeError(`not a hand value: ${value}`);
  }
  return CATEGORY_OF_VALUE[value]! as HandCategory;
}
