import test from "ava";
import fc from "fast-check";
import { InvalidArgumentError } from "../../src/errors.js";
import { type Card, parseCard } from "../../src/poker/cards.js";
import { InvalidOddsRequestError } from "../../src/poker/errors.js";
import { exactEquity } from "../../src/poker/equity.js";
import { evaluateCards } from "../../src/poker/evaluator.js";
import { oddsTenths, roundPercent } from "../../src/poker/pricing.js";
import { priceHands, stageOfBoard } from "../../src/poker/stage-odds.js";

const cards = (codes: string): Card[] => codes.split(" ").map(parseCard);

/** lcm(1..6): a k-way tie's 1/k of a river is a whole number of 1/60 rivers for up to 6 hands. */
const SIXTIETHS = 60;

/**
 * Independent turn equity: enumerate every river card with the evaluator. share[i] counts hand
 * i's dead-heat share of the rivers in sixtieths of a river (a k-way tie gives each 60 / k).
 */
function turnEquity(
  hands: Card[][],
  board: Card[],
): { win: number[]; draw: number[]; share: number[]; rivers: number } {
  const used = new Set([...hands.flat(), ...board]);
  const win = hands.map(() => 0);
  const draw = hands.map(() => 0);
  const share = hands.map(() => 0);
  let rivers = 0;
  for (let river = 0; river < 52; river++) {
    if (used.has(river)) continue;
    rivers++;
    const values = hands.map((h) => evaluateCards([...h, ...board, river]));
    const top = Math.max(...values);
    const best = values.flatMap((v, i) => (v === top ? [i] : []));
    if (best.length === 1) win[best[0]!]!++;
    else for (const i of best) draw[i]!++;
    for (const i of best) share[i]! += SIXTIETHS / best.length;
  }
  return { win: win.map((w) => (100 * w) / rivers), draw: draw.map((d) => (100 * d) / rivers), share, rivers };
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
        // Priced from the dead-heat share (pricing.ts); no odds without an outright win.
        const share = { numerator: expected.share[i]!, denominator: SIXTIETHS * expected.rivers };
        t.is(p.oddsTenths, p.winPercentage === 0 ? 0 : oddsTenths(share, 0.97));
      });
    }),
    { numRuns: 200 },
  );
});

/** The displayed odds of `codes` (hands as "9cTs" etc.) on `board`, pre-flop when it is empty. */
const oddsOf = (codes: string[], board = ""): number[] =>
  priceHands(
    codes.map((c) => cards(`${c.slice(0, 2)} ${c.slice(2)}`)),
    board ? cards(board) : [],
    0.97,
  ).map((p) => p.oddsTenths / 10);

test("tie spots are priced from the dead-heat share: each hand returns the target", (t) => {
  // The same ranks: a tie on 98.5 % of the boards, a win alone on 0.74 % each. Priced from the
  // win alone the odds were 131.1 and a bet returned 131.1 x 0.5 = 65.55 per unit; the share is a half.
  t.deepEqual(oddsOf(["9cTs", "Tc9s"]), [1.9, 1.9]);
  // The same pair: ties unless a flush decides (2.17 % each); the win alone gave 44.6.
  t.deepEqual(oddsOf(["AhAd", "AcAs"]), [1.9, 1.9]);
  // Three hands of 2 and 3: three-way ties on most boards (95.8 %). The third hand holds the only
  // spade and so the best flush chances; win alone 0.84 % and 2.48 % gave 115.1 and 39.1.
  t.deepEqual(oddsOf(["2c3d", "2d3c", "2h3s"]), [3.0, 3.0, 2.8]);
  // The fairness report's worst bet: hand 1 won alone on 40 of 1,086,008 boards (0.0037 %), was
  // priced 26,216.2 and expected to return 5,084 per unit; its share with the ties is 19.39 %.
  t.deepEqual(oddsOf(["9cTs", "Tc9s", "5cAd", "Ac2s"]), [4.8, 5.0, 2.8, 3.8]);
  // On the turn both play Broadway; 9 heart rivers of 42 give hand 0 a flush, the other 33 a tie:
  // share 9/42 + 33/84 = 0.607, odds 1.6 (4.5 from the win alone). Hand 1 can only tie: odds 0.
  t.deepEqual(oddsOf(["AhKd", "AsKc", "2c3c"], "Qh Jh Th 9d"), [1.6, 0, 0]);
});

test("for random spots every hand that can win alone returns the target within the rounding", (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 6 }), fc.constantFrom(0, 3, 4), distinctCards(16), (n, size, deck) => {
      const hands = Array.from({ length: n }, (_, i) => deck.slice(2 * i, 2 * i + 2));
      const board = deck.slice(12, 12 + size);
      const { shares, winPercent } = exactEquity(hands, board);
      priceHands(hands, board, 0.97).forEach((p, i) => {
        const share = shares[i]!.numerator / shares[i]!.denominator;
        if (winPercent[i] === 0) return t.is(p.oddsTenths, 0);
        // |odds x share - rtp| <= 0.05 x share: the nearest tenth of rtp / share, times share.
        const error = Math.abs((p.oddsTenths / 10) * share - 0.97);
        t.true(error <= 0.05 * share * (1 + 1e-12), `hand ${i}: odds ${p.oddsTenths / 10}, share ${share}`);
      });
    }),
    { numRuns: 300 },
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
