// The test oracle: the exact enumeration the odds service used before the weighted engine of
// src/poker/equity-exact.ts, kept unchanged (bar its exports) so the new engine can be checked
// against it count for count, and timed against it by bench/evaluator.ts. Not used in production.
// Its one extension since: it also credits each board's dead-heat shares (1/k of the board to each
// of k tied hands, in whole units of 1 / lcm(1..n) board), for the engine's shares to be checked
// count for count as well.
//
// It walks every board completion in nested levels, summing a board prefix's rank and suit keys
// once per level. At the last board card only, when no hand can make a flush with it, every
// remaining card of one rank gives every hand the same value, so each rank is evaluated once and
// counted as many times as it has cards left.

import { InvalidArgumentError } from "../../../src/errors.js";
import type { Card } from "../../../src/poker/cards.js";
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
} from "../../../src/poker/evaluator.js";

// The evaluator's tables bound to this module's own constants: V8 compiles loops that read
// module-level constants markedly faster than loops that read imported bindings.
const RANK_KEY = CARD_RANK_KEY;
const SUIT_KEY = CARD_SUIT_KEY;
const ROW_OFFSET = RANK_ROW_OFFSET;
const ROW_SHIFT = RANK_ROW_SHIFT;
const VALUE = RANK_VALUE;

/** Board counts per hand: wins alone, ties for best, share units; and the boards enumerated. */
interface OracleCounts {
  wins: number[];
  draws: number[];
  /** Boards won, a k-way tie counting 1/k, in units of 1 / shareScale board. */
  shareUnits: number[];
  shareScale: number;
  boards: number;
}

/** lcm(1..n) as the product, over the primes p <= n, of the largest power of p not above n. */
function lcmUpTo(n: number): number {
  let scale = 1;
  for (let p = 2; p <= n; p++) {
    const prime = Array.from({ length: p - 2 }, (_, k) => k + 2).every((d) => p % d !== 0);
    if (!prime) continue;
    let power = p;
    while (power * p <= n) power *= p;
    scale *= power;
  }
  return scale;
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
  readonly shares: Float64Array;
  readonly shareScale: number;
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
    this.shares = new Float64Array(n);
    this.shareScale = lcmUpTo(n);
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

  toCounts(boards: number): OracleCounts {
    return {
      wins: Array.from(this.wins),
      draws: Array.from(this.draws),
      shareUnits: Array.from(this.shares),
      shareScale: this.shareScale,
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
    spot.shares[bestHand]! += weight * spot.shareScale;
    return;
  }
  const { values, draws, shares, n } = spot;
  const units = (weight * spot.shareScale) / (ties + 1);
  for (let i = 0; i < n; i++) {
    if (values[i] !== best) continue;
    draws[i]! += weight;
    shares[i]! += units;
  }
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

/** Win and draw counts of each hand over every completion of the board (the old exactEquity). */
export function oracleCounts(hands: readonly (readonly Card[])[], board: readonly Card[]): OracleCounts {
  const spot = new Spot(hands, board);
  const [r, s] = spot.boardKeys();
  if (spot.known === 5) tallyBoard(spot, r, s, 1);
  else walk(spot, spot.known, 0, r, s);
  return spot.toCounts(binomial(spot.deck.length, 5 - spot.known));
}

/** The old exactEquity (and shares): percentages as 100 * count / boards, the formulas the engine uses too. */
export function oracleEquity(
  hands: readonly (readonly Card[])[],
  board: readonly Card[],
): { winPercent: number[]; drawPercent: number[]; sharePercent: number[]; boards: number } {
  const { wins, draws, shareUnits, shareScale, boards } = oracleCounts(hands, board);
  return {
    winPercent: wins.map((w) => (100 * w) / boards),
    drawPercent: draws.map((d) => (100 * d) / boards),
    sharePercent: shareUnits.map((u) => (100 * u) / (shareScale * boards)),
    boards,
  };
}
