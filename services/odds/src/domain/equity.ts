// Hold'em equity: exact enumeration of every board completion, or Monte Carlo sampling.
// (Simple, correct first version.)

import { InvalidArgumentError } from "@pokerodds/common/errors";
import type { Card } from "./cards.js";
import { evaluateCards } from "./evaluator.js";

/** Percentages 0..100 per hand. win: this hand alone has the best hand; draw: it ties for best. */
export interface Equity {
  winPercent: number[];
  drawPercent: number[];
  boards: number;
}

function validate(hands: readonly (readonly Card[])[], board: readonly Card[]): Card[] {
  if (hands.length < 1) throw new InvalidArgumentError("at least one hand is needed");
  if (board.length > 5) throw new InvalidArgumentError(`a board has at most 5 cards, got ${board.length}`);
  const used = new Uint8Array(52);
  const take = (c: Card): void => {
    if (!Number.isInteger(c) || c < 0 || c > 51) throw new InvalidArgumentError(`invalid card ${c}`);
    if (used[c]) throw new InvalidArgumentError(`card ${c} is used twice`);
    used[c] = 1;
  };
  for (const hand of hands) {
    if (hand.length !== 2) throw new InvalidArgumentError(`a hand has 2 hole cards, got ${hand.length}`);
    hand.forEach(take);
  }
  board.forEach(take);
  const deck: Card[] = [];
  for (let c = 0; c < 52; c++) if (!used[c]) deck.push(c);
  return deck;
}

function tally(hands: readonly (readonly Card[])[], board: readonly Card[], wins: number[], draws: number[]): void {
  let best = -1;
  let winners: number[] = [];
  hands.forEach((hand, i) => {
    const v = evaluateCards([...hand, ...board]);
    if (v > best) {
      best = v;
      winners = [i];
    } else if (v === best) winners.push(i);
  });
  if (winners.length === 1) wins[winners[0]!]!++;
  else for (const i of winners) draws[i]!++;
}

function toEquity(wins: number[], draws: number[], boards: number): Equity {
  return {
    winPercent: wins.map((w) => (100 * w) / boards),
    drawPercent: draws.map((d) => (100 * d) / boards),
    boards,
  };
}

export function exactEquity(hands: readonly (readonly Card[])[], board: readonly Card[]): Equity {
  const deck = validate(hands, board);
  const wins = hands.map(() => 0);
  const draws = hands.map(() => 0);
  let boards = 0;
  const full = [...board];
  const walk = (from: number): void => {
    if (full.length === 5) {
      tally(hands, full, wins, draws);
      boards++;
      return;
    }
    for (let i = from; i < deck.length; i++) {
      full.push(deck[i]!);
      walk(i + 1);
      full.pop();
    }
  };
  walk(0);
  return toEquity(wins, draws, boards);
}

/** xoshiro128** 32-bit generator; seeded from crypto unless a seed is given. */
function makeRng(seed?: number): () => number {
  const s = new Uint32Array(4);
  if (seed === undefined) crypto.getRandomValues(s);
  else {
    let x = seed >>> 0;
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      s[i] = (z ^ (z >>> 16)) >>> 0;
    }
  }
  if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1;
  return () => {
    const result = Math.imul(rotl(Math.imul(s[1]!, 5), 7), 9) >>> 0;
    const t = s[1]! << 9;
    s[2]! ^= s[0]!;
    s[3]! ^= s[1]!;
    s[1]! ^= s[2]!;
    s[0]! ^= s[3]!;
    s[2]! ^= t;
    s[3] = rotl(s[3]!, 11);
    return result;
  };
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

export function monteCarloEquity(
  hands: readonly (readonly Card[])[],
  board: readonly Card[],
  iterations: number,
  seed?: number,
): Equity {
  const deck = validate(hands, board);
  if (!Number.isInteger(iterations) || iterations < 1) {
    throw new InvalidArgumentError(`iterations must be a positive integer, got ${iterations}`);
  }
  const next = makeRng(seed);
  const wins = hands.map(() => 0);
  const draws = hands.map(() => 0);
  const need = 5 - board.length;
  for (let it = 0; it < iterations; it++) {
    const full = [...board];
    for (let k = 0; k < need; k++) {
      const n = deck.length - k;
      const j = k + Math.floor((next() / 2 ** 32) * n);
      const tmp = deck[k]!;
      deck[k] = deck[j]!;
      deck[j] = tmp;
      full.push(deck[k]!);
    }
    tally(hands, full, wins, draws);
  }
  return toEquity(wins, draws, iterations);
}
