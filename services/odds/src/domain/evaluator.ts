// Poker hand evaluator (simple, correct first version).
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

function classOf(score: number): HandValue {
  return CLASS_OF_SCORE.get(score)!;
}

/** Value of 5..7 distinct cards (no validation). */
function evaluateUnchecked(cards: ArrayLike<number>, n: number): HandValue {
  const counts = new Uint8Array(13);
  const suitMasks = [0, 0, 0, 0];
  const suitCounts = [0, 0, 0, 0];
  for (let i = 0; i < n; i++) {
    const c = cards[i]!;
    counts[c >> 2]!++;
    suitMasks[c & 3]! |= 1 << (c >> 2);
    suitCounts[c & 3]!++;
  }
  for (let s = 0; s < 4; s++) if (suitCounts[s]! >= 5) return classOf(flushScore(suitMasks[s]!));
  return classOf(nonFlushScore(counts));
}

export function evaluate5(a: Card, b: Card, c: Card, d: Card, e: Card): HandValue {
  return evaluateUnchecked([a, b, c, d, e], 5);
}

export function evaluate7(a: Card, b: Card, c: Card, d: Card, e: Card, f: Card, g: Card): HandValue {
  return evaluateUnchecked([a, b, c, d, e, f, g], 7);
}

/** Value of the best five of 5, 6 or 7 distinct cards. Throws InvalidArgumentError otherwise. */
export function evaluateCards(cards: readonly Card[]): HandValue {
  if (cards.length < 5 || cards.length > 7) {
    throw new InvalidArgumentError(`a hand needs 5 to 7 cards, got ${cards.length}`);
  }
  let seen = 0n;
  for (const c of cards) {
    if (!Number.isInteger(c) || c < 0 || c > 51) throw new InvalidArgumentError(`invalid card ${c}`);
    const bit = 1n << BigInt(c);
    if (seen & bit) throw new InvalidArgumentError(`duplicate card ${c}`);
    seen |= bit;
  }
  return evaluateUnchecked(cards, cards.length);
}

export function handCategory(value: HandValue): HandCategory {
  if (!Number.isInteger(value) || value < 1 || value > HAND_CLASSES) {
    throw new RangeError(`not a hand value: ${value}`);
  }
  return CATEGORY_OF_VALUE[value]! as HandCategory;
}
