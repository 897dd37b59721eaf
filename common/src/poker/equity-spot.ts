// A validated equity question (hands, known board, remaining deck) with everything the exact and
// Monte Carlo loops need precomputed once, in typed arrays: the loops then read nothing else.

import { InvalidArgumentError } from "../errors.js";
import type { Card } from "./cards.js";
import {
  CARD_RANK_KEY,
  CARD_SUIT_KEY,
  RANK_ROW_OFFSET,
  RANK_ROW_SHIFT,
  RANK_VALUE,
  SUIT_KEY_START,
} from "./evaluator.js";

export interface Spot {
  /** Number of hands. */
  readonly n: number;
  /** Rank key and suit key (without SUIT_KEY_START) of each hand's two hole cards. */
  readonly holeRank: Int32Array;
  readonly holeSuit: Int32Array;
  /** Rank bits (1 << rank) of each hand's hole cards by suit: index hand * 4 + suit. */
  readonly holeMask: Int32Array;
  /** Hole cards of each suit: index hand * 4 + suit. */
  readonly holeCount: Int32Array;
  /** Most hole cards of each suit that any one hand holds. */
  readonly maxHole: Int32Array;
  /** Known board cards, their rank key and suit key (SUIT_KEY_START included). */
  readonly board: Int32Array;
  readonly boardRank: number;
  readonly boardSuit: number;
  /** Rank bits and number of the known board cards, by suit. */
  readonly boardMask: Int32Array;
  readonly boardCount: Int32Array;
  /** Board cards still to come: 5 minus the known ones. */
  readonly missing: number;
  /** Cards in no hand and not on the board, ascending; and how many of each rank. */
  readonly deck: Int32Array;
  readonly deckByRank: Int32Array;
}

/** Validates hands (two cards each, at least one hand) and a board of at most 5 cards. */
export function readSpot(hands: readonly (readonly Card[])[], board: readonly Card[]): Spot {
  if (hands.length < 1) throw new InvalidArgumentError("at least one hand is needed");
  if (board.length > 5) throw new InvalidArgumentError(`a board has at most 5 cards, got ${board.length}`);
  const used = new Uint8Array(52);
  const take = (c: Card): void => {
    if (!Number.isInteger(c) || c < 0 || c > 51) throw new InvalidArgumentError(`invalid card ${c}`);
    if (used[c]) throw new InvalidArgumentError(`card ${c} is used twice`);
    used[c] = 1;
  };
  const n = hands.length;
  const holeRank = new Int32Array(n);
  const holeSuit = new Int32Array(n);
  const holeMask = new Int32Array(n * 4);
  const holeCount = new Int32Array(n * 4);
  const maxHole = new Int32Array(4);
  hands.forEach((hand, i) => {
    if (hand.length !== 2) throw new InvalidArgumentError(`a hand has 2 hole cards, got ${hand.length}`);
    for (const c of hand) {
      take(c);
      holeRank[i]! += CARD_RANK_KEY[c]!;
      holeSuit[i]! += CARD_SUIT_KEY[c]!;
      holeMask[i * 4 + (c & 3)]! |= 1 << (c >> 2);
      maxHole[c & 3] = Math.max(maxHole[c & 3]!, ++holeCount[i * 4 + (c & 3)]!);
    }
  });
  const known = Int32Array.from(board);
  const boardMask = new Int32Array(4);
  const boardCount = new Int32Array(4);
  let boardRank = 0;
  let boardSuit = SUIT_KEY_START;
  for (const c of known) {
    take(c);
    boardRank += CARD_RANK_KEY[c]!;
    boardSuit += CARD_SUIT_KEY[c]!;
    boardMask[c & 3]! |= 1 << (c >> 2);
    boardCount[c & 3]!++;
  }
  const deck = new Int32Array(52 - 2 * n - known.length);
  const deckByRank = new Int32Array(13);
  for (let c = 0, p = 0; c < 52; c++) {
    if (used[c]) continue;
    deck[p++] = c;
    deckByRank[c >> 2]!++;
  }
  if (deck.length < 5 - known.length) {
    throw new InvalidArgumentError(`${n} hands and ${known.length} board cards leave too few cards to deal`);
  }
  return {
    n,
    holeRank,
    holeSuit,
    holeMask,
    holeCount,
    maxHole,
    board: known,
    boardRank,
    boardSuit,
    boardMask,
    boardCount,
    missing: 5 - known.length,
    deck,
    deckByRank,
  };
}

// The evaluator's tables bound to this module's constants (V8 optimizes loops over module constants best).
const ROW_OFFSET = RANK_ROW_OFFSET;
const ROW_SHIFT = RANK_ROW_SHIFT;
const VALUE = RANK_VALUE;

/** Winner mask of the hands (hole rank keys) when none has a flush, the board's rank key being `key`. */
export function rankWinners(holeRank: Int32Array, n: number, key: number): number {
  let best = -1;
  let mask = 0;
  for (let i = 0; i < n; i++) {
    const k = key + holeRank[i]!;
    const v = VALUE[k + ROW_OFFSET[k >>> ROW_SHIFT]!]!;
    if (v > best) {
      best = v;
      mask = 1 << i;
    } else if (v === best) mask |= 1 << i;
  }
  return mask;
}
