// Poker hand evaluator: incremental rank and suit keys, small lookup tables built at load.
//
// A HandValue is the hand's class number 1..7462 among all distinct five-card hand classes
// (1 = 7-5-4-3-2 offsuit, 7462 = royal flush): higher beats lower, equal values tie, 0 is never
// returned. It is the usual "Cactus Kev" equivalence class turned around: 7463 minus the value
// that npm phe / PokerHandEvaluator return. handCategory() gives the category of a value.
//
// Tables (about 525 KiB of typed arrays) are built once when the module loads, in about 30 ms.

import { InvalidArgumentError } from "../errors.js";
import type { Card } from "./cards.js";

type HandValue = number;

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
function straightHigh(mask: number): number {
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
  // Ranks holding 4, 3, 2 and 1 cards, each list highest first (no allocation: this runs for
  // every rank multiset while the tables are built).
  let quad = -1;
  let t0 = -1;
  let t1 = -1;
  let p0 = -1;
  let p1 = -1;
  let p2 = -1;
  let singles = 0; // up to five single ranks, highest in the top nibble
  let nSingles = 0;
  let mask = 0;
  for (let r = 12; r >= 0; r--) {
    const n = counts[r]!;
    if (n === 0) continue;
    mask |= 1 << r;
    if (n === 4) quad = r;
    else if (n === 3) {
      if (t0 < 0) t0 = r;
      else t1 = r;
    } else if (n === 2) {
      if (p0 < 0) p0 = r;
      else if (p1 < 0) p1 = r;
      else p2 = r;
    } else if (nSingles < 5) {
      singles |= r << (4 * (4 - nSingles));
      nSingles++;
    }
  }
  const s0 = nSingles > 0 ? singles >> 16 : -1;
  if (quad >= 0) return pack(HandCategory.FourOfAKind, quad, 31 - Math.clz32(mask & ~(1 << quad)));
  if (t0 >= 0 && (t1 >= 0 || p0 >= 0)) return pack(HandCategory.FullHouse, t0, Math.max(t1, p0));
  const high = straightHigh(mask);
  if (high >= 0) return pack(HandCategory.Straight, high);
  // From here there are no quads, at most one trips and, with trips, no pair.
  if (t0 >= 0) return (HandCategory.ThreeOfAKind << 20) | (t0 << 16) | ((singles >> 4) & 0xff00);
  if (p1 >= 0) return pack(HandCategory.TwoPair, p0, p1, Math.max(p2, s0));
  if (p0 >= 0) return (HandCategory.Pair << 20) | (p0 << 16) | ((singles >> 4) & 0xfff0);
  return (HandCategory.HighCard << 20) | singles;
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
//   rank key  the sum of each card's CARD_RANK_KEY, a key per rank. The keys are the greedy
//             choice (each the smallest that keeps all sums distinct) such that every multiset
//             of at most seven ranks, at most four of each, has its own sum; a seven-card rank
//             key is at most 18,393,157 < 2^25.
//   suit key  SUIT_KEY_START plus each card's CARD_SUIT_KEY: four 4-bit counters that start at 3,
//             so a counter reaches 8 (its top bit, tested by FLUSH_CHECK_MASK) exactly when its
//             suit holds five cards or more.
//
// A non-flush hand of 5..7 cards is valued through a perfect hash of its rank key, built at load
// by row displacement: the key's high bits pick a row, and each row's offset was chosen so that
// the rows' keys land in distinct slots of one table of values (about 225k slots of 2 bytes for
// the 73,775 rank multisets of 5..7 cards, plus 4 bytes of offset per row of 1024 keys). Flushes (at most one suit can hold five of seven cards, and then
// no full house or quads is possible) take a separate, rarer path: the flush suit's 13-bit rank
// mask indexes FLUSH_VALUE.
//
// Hot loops (enumeration, equity) use the exported keys and tables directly; they are read-only
// by convention. V8 compiles loops over module-level constants best, so bind them to constants
// of the module that holds the loop (see equity-exact.ts).

/** Rank keys by rank (2..A); see above. Checked for distinct sums when the tables are built. */
const RANK_KEYS = [1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520];
/** Number of rank multisets of 5..7 cards with at most four of each rank. */
const RANK_MULTISETS = 73775;
/** Row of the perfect hash: rank key >>> RANK_ROW_SHIFT. */
export const RANK_ROW_SHIFT = 10;

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
  CARD_RANK_KEY[card] = RANK_KEYS[card >> 2]!;
  CARD_SUIT_KEY[card] = 1 << (4 * (card & 3));
  CARD_RANK_BIT[card] = 1 << (card >> 2);
}

/**
 * RANK_ROW_OFFSET: per row of the perfect hash, the slot of the row's first possible key minus
 * that key. RANK_VALUE: value of each non-flush rank multiset of 5..7 cards, at slot
 * key + RANK_ROW_OFFSET[key >>> RANK_ROW_SHIFT].
 */
export const [RANK_ROW_OFFSET, RANK_VALUE] = buildRankTables();
/** Best flush or straight flush for each 13-bit rank mask with 5..7 bits; 0 elsewhere. */
export const FLUSH_VALUE = buildFlushTable();

function buildRankTables(): [Int32Array, Uint16Array] {
  const { keys, values } = rankMultisets();
  const { rowOffset, size } = displaceRows(keys);
  const value = new Uint16Array(size);
  for (let i = 0; i < RANK_MULTISETS; i++) {
    const key = keys[i]!;
    value[key + rowOffset[key >>> RANK_ROW_SHIFT]!] = values[i]!;
  }
  return [rowOffset, value];
}

/** Every rank multiset of 5..7 cards (at most four of a rank): its rank key and its value. */
function rankMultisets(): { keys: Int32Array; values: Uint16Array } {
  const keys = new Int32Array(RANK_MULTISETS);
  const values = new Uint16Array(RANK_MULTISETS);
  const counts = new Uint8Array(13);
  let found = 0;
  const walk = (rank: number, left: number, key: number): void => {
    if (rank < 0) {
      if (left <= 2) {
        keys[found] = key;
        values[found++] = classOf(nonFlushScore(counts));
      }
      return;
    }
    for (let n = 0; n <= 4 && n <= left; n++) {
      counts[rank] = n;
      walk(rank - 1, left - n, key + n * RANK_KEYS[rank]!);
    }
    counts[rank] = 0;
  };
  walk(12, 7, 0);
  if (found !== RANK_MULTISETS) throw new Error(`evaluator: ${found} rank multisets`);
  return { keys, values };
}

/**
 * The multisets bucketed by row (counting sort): row r's multiset indices are
 * byRow[rowStart[r] .. rowStart[r + 1] - 1].
 */
function bucketByRow(keys: Int32Array): { rows: number; rowStart: Int32Array; byRow: Int32Array } {
  let maxKey = 0;
  for (let i = 0; i < RANK_MULTISETS; i++) if (keys[i]! > maxKey) maxKey = keys[i]!;
  const rows = (maxKey >>> RANK_ROW_SHIFT) + 1;
  const rowStart = new Int32Array(rows + 1);
  for (let i = 0; i < RANK_MULTISETS; i++) rowStart[(keys[i]! >>> RANK_ROW_SHIFT) + 1]!++;
  for (let row = 0; row < rows; row++) rowStart[row + 1]! += rowStart[row]!;
  const byRow = new Int32Array(RANK_MULTISETS);
  const fill = rowStart.slice(0, rows);
  for (let i = 0; i < RANK_MULTISETS; i++) byRow[fill[keys[i]! >>> RANK_ROW_SHIFT]!++] = i;
  return { rows, rowStart, byRow };
}

/**
 * Row displacement: rows in key order, each at the first offset, searched from one row width
 * before the end of the table so far, where none of its slots is taken. Checks that the keys are
 * distinct. Returns each row's offset (slot of the row's first possible key minus that key) and
 * the table's size in slots.
 */
function displaceRows(keys: Int32Array): { rowOffset: Int32Array; size: number } {
  const width = 1 << RANK_ROW_SHIFT;
  const { rows, rowStart, byRow } = bucketByRow(keys);
  const columnSeen = new Int32Array(width).fill(-1);
  const rowOffset = new Int32Array(rows);
  const slots = freeSlots(RANK_MULTISETS * 4 + width);
  const columns = new Int32Array(width);
  let size = 0;
  for (let row = 0; row < rows; row++) {
    const first = rowStart[row]!;
    const count = rowStart[row + 1]! - first;
    if (count === 0) continue;
    for (let j = 0; j < count; j++) {
      const column = keys[byRow[first + j]!]! & (width - 1);
      if (columnSeen[column] === row) throw new Error("evaluator: rank keys collide");
      columnSeen[column] = row;
      columns[j] = column;
    }
    let base = Math.max(0, size - width);
    for (let j = 0; j < count;) {
      const column = columns[j]!;
      if (slots.taken[base + column]) {
        // Move on to the first offset where this column is free, testing it first from now on.
        columns[j] = columns[0]!;
        columns[0] = column;
        base = slots.firstFreeFrom(base + column) - column;
        j = 0;
      } else j++;
    }
    for (let j = 0; j < count; j++) size = Math.max(size, slots.take(base + columns[j]!) + 1);
    rowOffset[row] = base - (row << RANK_ROW_SHIFT);
    if (size > slots.taken.length - width) throw new Error("evaluator: rank table overflow");
  }
  return { rowOffset, size };
}

/** Slots of the table being laid out: which are taken, and the first free one from a slot on. */
function freeSlots(length: number) {
  const taken = new Uint8Array(length);
  // nextFree[slot]: a slot at or after it that may be free (path-compressed pointers).
  const nextFree = new Int32Array(length + 1);
  for (let slot = 0; slot < nextFree.length; slot++) nextFree[slot] = slot;
  return {
    taken,
    firstFreeFrom(slot: number): number {
      let free = slot;
      while (taken[free]) free = nextFree[free]!;
      while (slot !== free) {
        const next = nextFree[slot]!;
        nextFree[slot] = free;
        slot = next;
      }
      return free;
    },
    /** Marks the slot taken; returns it. */
    take(slot: number): number {
      taken[slot] = 1;
      nextFree[slot] = slot + 1;
      return slot;
    },
  };
}

function buildFlushTable(): Uint16Array {
  const table = new Uint16Array(1 << 13);
  for (let mask = 0; mask < 1 << 13; mask++) {
    let bits = 0;
    for (let m = mask; m; m &= m - 1) bits++;
    if (bits >= 5 && bits <= 7) table[mask] = classOf(flushScore(mask));
  }
  return table;
}

/** Bytes held by the evaluator's lookup tables. */
export const TABLE_BYTES = RANK_ROW_OFFSET.byteLength + RANK_VALUE.byteLength + FLUSH_VALUE.byteLength;

function classOf(score: number): HandValue {
  const value = CLASS_OF_SCORE.get(score);
  if (value === undefined) throw new Error(`evaluator: unknown score ${score}`);
  return value;
}

/** Value of a hand of 5..7 cards without a flush, from its rank key. */
export function valueOfRankKey(rankKey: number): HandValue {
  return RANK_VALUE[rankKey + RANK_ROW_OFFSET[rankKey >>> RANK_ROW_SHIFT]!]!;
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

/** Value of five distinct cards 0..51 (not validated: see evaluateCards). */
export function evaluate5(a: Card, b: Card, c: Card, d: Card, e: Card): HandValue {
  const rk = CARD_RANK_KEY[a]! + CARD_RANK_KEY[b]! + CARD_RANK_KEY[c]! + CARD_RANK_KEY[d]! + CARD_RANK_KEY[e]!;
  const sk =
    SUIT_KEY_START + CARD_SUIT_KEY[a]! + CARD_SUIT_KEY[b]! + CARD_SUIT_KEY[c]! + CARD_SUIT_KEY[d]! + CARD_SUIT_KEY[e]!;
  if ((sk & FLUSH_CHECK_MASK) === 0) return valueOfRankKey(rk);
  return FLUSH_VALUE[suitMask(flushSuitOf(sk), a, b, c, d, e, -1, -1)]!;
}

/** Value of the best five of seven distinct cards 0..51 (not validated: see evaluateCards). */
export function evaluate7(a: Card, b: Card, c: Card, d: Card, e: Card, f: Card, g: Card): HandValue {
  const rk =
    CARD_RANK_KEY[a]! +
    CARD_RANK_KEY[b]! +
    CARD_RANK_KEY[c]! +
    CARD_RANK_KEY[d]! +
    CARD_RANK_KEY[e]! +
    CARD_RANK_KEY[f]! +
    CARD_RANK_KEY[g]!;
  const sk =
    SUIT_KEY_START +
    CARD_SUIT_KEY[a]! +
    CARD_SUIT_KEY[b]! +
    CARD_SUIT_KEY[c]! +
    CARD_SUIT_KEY[d]! +
    CARD_SUIT_KEY[e]! +
    CARD_SUIT_KEY[f]! +
    CARD_SUIT_KEY[g]!;
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

/** Category of a HandValue; throws RangeError if it is not one (an integer 1..7462). */
export function handCategory(value: HandValue): HandCategory {
  if (!(value >= 1 && value <= HAND_CLASSES) || value !== Math.floor(value)) {
    throw new RangeError(`not a hand value: ${value}`);
  }
  return CATEGORY_OF_VALUE[value]! as HandCategory;
}
