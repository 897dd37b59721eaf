import test from "ava";
import fc from "fast-check";
import { parseCard } from "@pokerodds/common/poker/cards";
import { exactEquity } from "@pokerodds/common/poker/equity";
import { evaluateCards } from "@pokerodds/common/poker/evaluator";
import { engineShares, enumeratedShares, forEachCompletion, remainingCards, winnersOn } from "../src/shares.js";

const hand = (code: string) => [parseCard(code.slice(0, 2)), parseCard(code.slice(2))];
const distinct = (count: number) =>
  fc.uniqueArray(fc.integer({ min: 0, max: 51 }), { minLength: count, maxLength: count });

test("winnersOn is the set of hands with the best seven-card value", (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 6 }), distinct(17), (n, cards) => {
      const hands = Array.from({ length: n }, (_, i) => cards.slice(2 * i, 2 * i + 2));
      const board = cards.slice(12, 17);
      const values = hands.map((h) => evaluateCards([...h, ...board]));
      const top = Math.max(...values);
      t.deepEqual(
        winnersOn(hands, board),
        values.flatMap((v, i) => (v === top ? [i] : [])),
      );
    }),
  );
});

test("forEachCompletion visits every completion once", (t) => {
  const deck = remainingCards([hand("AhKd")], [parseCard("2c"), parseCard("3c"), parseCard("4c")]);
  t.is(deck.length, 47);
  const seen = new Set<string>();
  forEachCompletion([1, 2, 3], deck, (full) => seen.add(full.join(",")));
  t.is(seen.size, (47 * 46) / 2);
});

test("enumerated shares agree with the engine and split every board's pot exactly once", (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 6 }), fc.constantFrom(3, 4), distinct(16), (n, size, cards) => {
      const hands = Array.from({ length: n }, (_, i) => cards.slice(2 * i, 2 * i + 2));
      const board = cards.slice(12, 12 + size);
      const shares = enumeratedShares(hands, board);
      const engine = exactEquity(hands, board);
      t.is(shares.boards, engine.boards);
      hands.forEach((_, i) => {
        t.true(Math.abs((100 * shares.wins[i]!) / shares.boards - engine.winPercent[i]!) < 1e-9);
        t.true(Math.abs((100 * shares.draws[i]!) / shares.boards - engine.drawPercent[i]!) < 1e-9);
        // A share lies between winning alone and winning alone or splitting two ways.
        t.true(shares.share[i]! >= shares.wins[i]! / shares.boards - 1e-12);
        t.true(shares.share[i]! <= (shares.wins[i]! + shares.draws[i]! / 2) / shares.boards + 1e-12);
      });
      t.true(Math.abs(shares.share.reduce((s, x) => s + x, 0) - 1) < 1e-9);
    }),
    { numRuns: 60 },
  );
});

test("hole shares: the engine's exact shares equal an enumeration of every board, wide ties included", (t) => {
  const spots = [
    ["AhAd", "KsKc"],
    ["8c9h", "8h9c"],
    ["AhKh", "AdKd", "7c2s"],
    ["2c3d", "2d3c", "2h3s"],
    ["2c3d", "2d3c", "2h3s", "2s3h"],
    ["8c9h", "Qh4h", "Jd2c", "8h9c"],
    ["9cTs", "Tc9s", "5cAd", "Ac2s"],
  ];
  for (const codes of spots) {
    const hands = codes.map(hand);
    const exact = enumeratedShares(hands, []);
    const engine = engineShares(hands, []);
    t.deepEqual(engine.wins, exact.wins);
    t.deepEqual(engine.draws, exact.draws);
    t.is(engine.boards, exact.boards);
    hands.forEach((_, i) => {
      const error = Math.abs(engine.share[i]! - exact.share[i]!);
      t.true(error < 1e-12, `${codes.join(" ")} hand ${i}: ${error}`);
    });
    if (codes.length === 4 && codes[0] === "2c3d") {
      // Where wide ties abound, counting every tie as two-way would be far off.
      const twoWay = (exact.wins[0]! + exact.draws[0]! / 2) / exact.boards;
      t.true(Math.abs(twoWay - exact.share[0]!) > 0.05);
    }
  }
});
