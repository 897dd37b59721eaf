import test from "ava";
import fc from "fast-check";
import { InvalidArgumentError } from "@pokerodds/common/errors";
import { type Card, parseCard } from "../src/domain/cards.js";
import { InvalidOddsRequestError } from "../src/domain/errors.js";
import { evaluateCards } from "../src/domain/evaluator.js";
import { oddsTenths, roundPercent } from "../src/domain/pricing.js";
import { priceHands, stageOfBoard } from "../src/domain/stage-odds.js";

const cards = (codes: string): Card[] => codes.split(" ").map(parseCard);

/** Independent turn equity: enumerate every river card with the evaluator. */
function turnEquity(hands: Card[][], board: Card[]): { win: number[]; draw: number[] } {
  const used = new Set([...hands.flat(), ...board]);
  const win = hands.map(() => 0);
  const draw = hands.map(() => 0);
  let rivers = 0;
  for (let river = 0; river < 52; river++) {
    if (used.has(river)) continue;
    rivers++;
    const values = hands.map((h) => evaluateCards([...h, ...board, river]));
    const top = Math.max(...values);
    const best = values.flatMap((v, i) => (v === top ? [i] : []));
    if (best.length === 1) win[best[0]!]!++;
    else for (const i of best) draw[i]!++;
  }
  return { win: win.map((w) => (100 * w) / rivers), draw: draw.map((d) => (100 * d) / rivers) };
}

const distinctCards = (count: number) =>
  fc.uniqueArray(fc.integer({ min: 0, max: 51 }), { minLength: count, maxLength: count });

test("stageOfBoard maps board sizes to betting stages", (t) => {
  t.deepEqual([0, 3, 4, 5].map(stageOfBoard), [0, 1, 2, -1]);
  for (const size of [1, 2, 6]) t.throws(() => stageOfBoard(size), { instanceOf: InvalidOddsRequestError });
});

test("priceHands at the turn matches an independent enumeration of the rivers", (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 6 }), distinctCards(16), (n, deck) => {
      const hands = Array.from({ length: n }, (_, i) => deck.slice(2 * i, 2 * i + 2));
      const board = deck.slice(12, 16);
      const panels = priceHands(hands, board, 0.97);
      const expected = turnEquity(hands, board);
      panels.forEach((p, i) => {
        t.is(p.bettingStage, 2);
        t.is(p.winPercentage, roundPercent(expected.win[i]!));
        t.is(p.drawPercentage, roundPercent(expected.draw[i]!));
        t.is(p.oddsTenths, oddsTenths(p.winPercentage, 0.97));
      });
    }),
    { numRuns: 200 },
  );
});

test("priceHands at the river: WINNER exactly for the best seven-card hands", (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 6 }), distinctCards(17), (n, deck) => {
      const hands = Array.from({ length: n }, (_, i) => deck.slice(2 * i, 2 * i + 2));
      const board = deck.slice(12, 17);
      const values = hands.map((h) => evaluateCards([...h, ...board]));
      const top = Math.max(...values);
      const tied = values.filter((v) => v === top).length > 1;
      priceHands(hands, board, 0.97).forEach((p, i) => {
        t.is(p.bettingStage, -1);
        const winner = values[i] === top;
        t.is(p.handStatus, winner ? "WINNER" : "LOSER");
        t.is(p.winPercentage, winner && !tied ? 100 : 0);
        t.is(p.drawPercentage, winner && tied ? 100 : 0);
      });
    }),
    { numRuns: 500 },
  );
});

test("priceHands marks a hand that cannot win as dead", (t) => {
  // Ts makes a royal flush on the turn: nothing on the river can beat or tie it.
  const panels = priceHands([cards("Ts 2c"), cards("Ah Ad"), cards("9s 8s")], cards("As Ks Qs Js"), 0.97);
  t.deepEqual(
    panels.map((p) => [p.handStatus, p.winPercentage, p.drawPercentage, p.oddsTenths]),
    [
      ["IN_PLAY_FAVOURITE", 100, 0, 10],
      ["DEAD_CANNOT_WIN", 0, 0, 0],
      ["DEAD_CANNOT_WIN", 0, 0, 0],
    ],
  );
});

test("priceHands: a board that plays for everyone is a tie of WINNERs at the river", (t) => {
  const panels = priceHands([cards("2c 3d"), cards("4h 5c")], cards("As Ks Qs Js Ts"), 0.97);
  t.deepEqual(
    panels.map((p) => [p.handStatus, p.winPercentage, p.drawPercentage, p.oddsTenths]),
    [
      ["WINNER", 0, 100, 0],
      ["WINNER", 0, 100, 0],
    ],
  );
});

test("priceHands on the flop sums to a whole", (t) => {
  const panels = priceHands([cards("As Ah"), cards("Ks Kh")], cards("2c 7d 9c"), 0.97);
  t.is(panels[0]!.handStatus, "IN_PLAY_FAVOURITE");
  t.is(panels[1]!.handStatus, "IN_PLAY_BETTING_STAGE_ACTIVE");
  t.true(panels[0]!.winPercentage > 85);
  // Two hands: each board is a win for one or a draw for both.
  t.true(Math.abs(panels[0]!.winPercentage + panels[1]!.winPercentage + panels[0]!.drawPercentage - 100) < 0.0003);
  t.is(panels[0]!.drawPercentage, panels[1]!.drawPercentage);
});

test("priceHands rejects malformed requests with InvalidOddsRequestError (a 400)", (t) => {
  const ok = [cards("As Ah"), cards("Ks Kh")];
  const bad: [Card[][], Card[], number][] = [
    [[cards("As Ah")], [], 0.97], // one hand
    [Array.from({ length: 7 }, (_, i) => [2 * i, 2 * i + 1]), [], 0.97], // seven hands
    [[cards("As Ah Ad"), cards("Ks Kh")], [], 0.97], // three hole cards
    [[cards("As"), cards("Ks Kh")], [], 0.97], // one hole card
    [ok, cards("2c 7d"), 0.97], // two board cards
    [ok, cards("2c 7d 9c 3h 4h 5h"), 0.97], // six board cards
    [ok, cards("2c 7d As"), 0.97], // duplicate between hand and board
    [[cards("As Ah"), cards("As Kh")], [], 0.97], // duplicate between hands
    [[[52, 1], cards("Ks Kh")], [], 0.97], // invalid card
    [[[-1, 1], cards("Ks Kh")], [], 0.97],
    [[[1.5, 1], cards("Ks Kh")], [], 0.97],
    [ok, [], 0],
    [ok, [], 1],
    [ok, [], Number.NaN],
  ];
  for (const [hands, board, rtp] of bad) {
    const error = t.throws(() => priceHands(hands, board, rtp), { instanceOf: InvalidOddsRequestError });
    t.true(error instanceof InvalidArgumentError);
  }
});
