// The weighted exact engine against the board-by-board enumeration it replaced (the oracle in
// helpers/equity-oracle.ts): the same win, draw and dead-heat share counts, count for count, hence
// the same percentages to the last bit and the same exact shares, on random deals of every stage
// and on the spots that stress its flush pass (suited hands, flushes made on the flop, flush
// boards, many hands) or its shares (hands of the same ranks, three- and four-way ties).

import test from "ava";
import fc from "fast-check";
import { parseCard } from "../../src/poker/cards.js";
import { exactEquity } from "../../src/poker/equity.js";
import { exactCounts, exactWinnerSets } from "../../src/poker/equity-exact.js";
import { evaluateCards } from "../../src/poker/evaluator.js";
import { oracleCounts, oracleEquity } from "./helpers/equity-oracle.js";

const cards = (s: string): number[] => (s.match(/\S\S/g) ?? []).map(parseCard);
const hands = (...hs: string[]): number[][] => hs.map(cards);

const FULL = Array.from({ length: 52 }, (_, i) => i);
// Two suits only: suited hands, flush draws and made flushes become the common case.
const TWO_SUITS = FULL.filter((c) => c % 4 < 2);
// Hearts and a few more cards: several hands suited in one suit, boards of that suit.
const HEARTS_HEAVY = FULL.filter((c) => c % 4 === 2 || c >> 2 >= 8);

/** A deal of `players` hands and `boardSize` board cards, all distinct, from one of the decks. */
function deal(players: fc.Arbitrary<number>, boardSize: fc.Arbitrary<number>) {
  return fc
    .record({ players, boardSize, deck: fc.constantFrom(FULL, TWO_SUITS, HEARTS_HEAVY) })
    .filter(({ players, boardSize, deck }) => 2 * players + boardSize <= deck.length)
    .chain(({ players, boardSize, deck }) =>
      fc
        .shuffledSubarray(deck, { minLength: 2 * players + boardSize, maxLength: 2 * players + boardSize })
        .map((cs) => ({
          hs: Array.from({ length: players }, (_, i) => cs.slice(2 * i, 2 * i + 2)),
          board: cs.slice(2 * players),
        })),
    );
}

/** The engine's counts equal the oracle's exactly, and so do the percentages and the shares. */
function sameAsOracle(hs: number[][], board: number[]): boolean {
  const ours = exactCounts(hs, board);
  const oracle = oracleCounts(hs, board);
  const same =
    ours.boards === oracle.boards &&
    ours.shareScale === oracle.shareScale &&
    ours.wins.every((w, i) => w === oracle.wins[i]) &&
    ours.draws.every((d, i) => d === oracle.draws[i]) &&
    ours.shareUnits.every((u, i) => u === oracle.shareUnits[i]);
  const percent = exactEquity(hs, board);
  const oraclePercent = oracleEquity(hs, board);
  return (
    same &&
    percent.boards === oraclePercent.boards &&
    percent.winPercent.every((w, i) => Object.is(w, oraclePercent.winPercent[i])) &&
    percent.drawPercent.every((d, i) => Object.is(d, oraclePercent.drawPercent[i])) &&
    percent.sharePercent.every((p, i) => Object.is(p, oraclePercent.sharePercent[i])) &&
    percent.shares.every(
      (f, i) => f.numerator === oracle.shareUnits[i] && f.denominator === oracle.shareScale * oracle.boards,
    )
  );
}

const property = (hands: fc.Arbitrary<number>, board: fc.Arbitrary<number>) =>
  fc.property(deal(hands, board), ({ hs, board }) => sameAsOracle(hs, board));

test("pre-flop, 2..6 hands: count for count equal to the oracle", (t) => {
  // The oracle takes 10-40 ms a deal pre-flop: fewer runs here than at the later stages
  // (the whole file runs in about 15 s on one core).
  fc.assert(property(fc.integer({ min: 2, max: 6 }), fc.constant(0)), { numRuns: 200 });
  t.pass();
});

test("flop and turn, 2..6 hands: count for count equal to the oracle", (t) => {
  fc.assert(property(fc.integer({ min: 2, max: 6 }), fc.constantFrom(3, 4)), { numRuns: 4000 });
  t.pass();
});

test("one or two known board cards, and the river, 2..6 hands: equal to the oracle", (t) => {
  fc.assert(property(fc.integer({ min: 2, max: 6 }), fc.constantFrom(1, 2, 5)), { numRuns: 400 });
  t.pass();
});

test("one hand, and 7..20 hands (counted by a Map past 12): equal to the oracle", (t) => {
  fc.assert(property(fc.constant(1), fc.constantFrom(0, 3, 4)), { numRuns: 40 });
  fc.assert(property(fc.integer({ min: 7, max: 20 }), fc.constantFrom(3, 4, 5)), { numRuns: 200 });
  t.pass();
});

test("chosen flush spots: equal to the oracle", (t) => {
  const spots: [string[], string][] = [
    [["AhKh", "QhJh", "Th9h", "8h7h"], ""], // four suited hands of one suit
    [["AhKh", "QhJh", "Th9h", "8h7h", "6h5h", "4h3h"], ""], // six
    [["AhKh", "2c2d"], "Qh 7h 3h"], // flush made on the flop
    [["AhKh", "QhJh", "2c2d"], "Th 7h 3h 4c"], // two made flushes on the turn
    [["AsKd", "QcJc"], "2h 7h 9h Th"], // four to a flush on the board, no hand suited
    [["AhAd", "KsKc"], "2h 3h 4h 5h 6h"], // a straight flush on the board
    [["Ah2c", "Kh3d", "Qh4s", "Jh5c"], "Th 9h"], // one heart each, two on the board
  ];
  for (const [hs, board] of spots) t.true(sameAsOracle(hands(...hs), cards(board)), `${hs.join(" ")} / ${board}`);
});

test("chosen tie spots: shares equal to the oracle, and every board's pot shared out once", (t) => {
  const spots: [string[], string][] = [
    [["9cTs", "Tc9s"], ""], // the same ranks: mostly two-way ties
    [["AhAd", "AcAs"], ""], // the same pair: ties unless a flush decides
    [["2c3d", "2d3c", "2h3s"], ""], // three-way ties on most boards
    [["2c3d", "2d3c", "2h3s", "2s3h"], ""], // four-way
    [["8c9h", "Qh4h", "Jd2c", "8h9c"], "Ts 7d 2h"], // a made straight shared, with a flush draw
    [["AhKd", "AsKc", "2c3c"], "Qh Jh Ts 9d"], // Broadway for two: only running hearts decide
  ];
  for (const [hs, board] of spots) {
    const spot = hands(...hs);
    t.true(sameAsOracle(spot, cards(board)), `${hs.join(" ")} / ${board}`);
    const { shares } = exactEquity(spot, cards(board));
    // Every board's pot goes to its winners in full: the share numerators add up to the denominator.
    t.is(
      shares.reduce((sum, f) => sum + f.numerator, 0),
      shares[0]!.denominator,
    );
  }
});

test("the references: AhAd vs KsKc, and AhAd KsKc QhJh 7c2d, from far fewer board classes", (t) => {
  const two = exactCounts(hands("AhAd", "KsKc"), []);
  t.is(two.boards, 1712304);
  t.true(two.classes < 40000, `${two.classes} classes`);
  const four = exactCounts(hands("AhAd", "KsKc", "QhJh", "7c2d"), []);
  t.is(four.boards, 1086008);
  t.true(four.classes < 40000, `${four.classes} classes`);
  t.deepEqual(two, { ...oracleCounts(hands("AhAd", "KsKc"), []), classes: two.classes });
  t.deepEqual(four, { ...oracleCounts(hands("AhAd", "KsKc", "QhJh", "7c2d"), []), classes: four.classes });
  // Two hands: every tie is two-way, so a share is the wins plus half the draws.
  t.deepEqual(two.shareUnits, [two.wins[0]! * 2 + two.draws[0]!, two.wins[1]! * 2 + two.draws[1]!]);
  t.is(two.shareScale, 2);
  t.is(four.shareScale, 12);
});

/** Every winner set over the board's completions, one board at a time, as sorted "0,3" keys. */
function winnerSetsOneByOne(hs: number[][], board: number[]): string[] {
  const used = new Set([...hs.flat(), ...board]);
  const rest = FULL.filter((card) => !used.has(card));
  const sets = new Set<string>();
  const complete = (from: number, cardsSoFar: number[]): void => {
    if (cardsSoFar.length === 5) {
      const values = hs.map((hand) => evaluateCards([...hand, ...cardsSoFar]));
      const best = Math.max(...values);
      sets.add(values.flatMap((value, i) => (value === best ? [i] : [])).join(","));
      return;
    }
    for (let i = from; i < rest.length; i++) complete(i + 1, [...cardsSoFar, rest[i]!]);
  };
  complete(0, board);
  return [...sets].sort();
}

test("the winner sets that can happen at the flop and the turn, 2..6 hands: those of every board one by one", (t) => {
  fc.assert(
    fc.property(deal(fc.integer({ min: 2, max: 6 }), fc.constantFrom(3, 4)), ({ hs, board }) => {
      const ours = exactWinnerSets(hs, board)
        .map((set) => set.join(","))
        .sort();
      t.deepEqual(ours, winnerSetsOneByOne(hs, board));
    }),
    { numRuns: 300 },
  );
  // A flop where hand 3 can only tie, with hand 0, never win alone.
  t.deepEqual(
    exactWinnerSets(hands("TcQh", "Js5s", "6s9d", "3hTs"), cards("5hTd5c"))
      .map(String)
      .sort(),
    ["0", "0,3", "1", "2"],
  );
});
