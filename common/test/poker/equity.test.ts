import test from "ava";
import fc from "fast-check";
import { parseCard } from "../../src/poker/cards.js";
import { evaluate7 } from "../../src/poker/evaluator.js";
import { Xoshiro128, exactEquity, monteCarloEquity, type Equity } from "../../src/poker/equity.js";
import { naiveEquity } from "./helpers/naive-poker.js";

const cards = (s: string): number[] => (s.match(/\S\S/g) ?? []).map(parseCard);
const hands = (...hs: string[]): number[][] => hs.map(cards);
const round4 = (xs: number[]): number[] => xs.map((x) => Math.round(x * 1e4) / 1e4);

/** Asserts our equity equals the naive brute force exactly (same board count, same tallies). */
function sameAsNaive(
  t: { deepEqual: (a: unknown, b: unknown, m?: string) => void },
  hs: number[][],
  board: number[],
): void {
  const ours = exactEquity(hs, board);
  const naive = naiveEquity(hs, board);
  const label = `${JSON.stringify(hs)} / ${JSON.stringify(board)}`;
  t.deepEqual(
    { boards: ours.boards, win: round4(ours.winPercent), draw: round4(ours.drawPercent) },
    {
      boards: naive.boards,
      win: round4(naive.wins.map((w) => (100 * w) / naive.boards)),
      draw: round4(naive.draws.map((d) => (100 * d) / naive.boards)),
    },
    label,
  );
}

test("AhAd vs KsKc pre-flop", (t) => {
  const e = exactEquity(hands("AhAd", "KsKc"), []);
  t.is(e.boards, 1712304);
  t.deepEqual(round4(e.winPercent), [81.0646, 18.5536]);
  t.deepEqual(round4(e.drawPercent), [0.3818, 0.3818]);
});

test("AhAd vs KsKc vs QhJh vs 7c2d pre-flop", (t) => {
  const e = exactEquity(hands("AhAd", "KsKc", "QhJh", "7c2d"), []);
  t.is(e.boards, 1086008);
  t.deepEqual(round4(e.winPercent), [56.2053, 17.5372, 17.2022, 8.8316]);
});

test("3-, 4- and 6-hand flop and turn boards match the naive enumeration", (t) => {
  sameAsNaive(t, hands("AhKh", "QsQd", "9c8c"), cards("Qh 7h 2c"));
  sameAsNaive(t, hands("AhKh", "QsQd", "9c8c"), cards("Qh 7h 2c Tc"));
  sameAsNaive(t, hands("AsAc", "7h6h", "KdQd", "2s2h"), cards("5h 4h Kh"));
  sameAsNaive(t, hands("AsAc", "7h6h", "KdQd", "2s2h"), cards("5h 4h Kh 3c"));
  sameAsNaive(t, hands("AsKs", "AcKc", "AdKd", "AhKh", "2c3d", "7s8s"), cards("Qs Js 4c"));
  sameAsNaive(t, hands("AsKs", "AcKc", "AdKd", "AhKh", "2c3d", "7s8s"), cards("Qs Js 4c 9s"));
  sameAsNaive(t, hands("5c5d", "6h6s", "AhKc", "4d3d", "TcJc", "9s9h"), cards("2h 7c 8d"));
});

test("river, and boards of one and two known cards, match the naive enumeration", (t) => {
  sameAsNaive(t, hands("AhKh", "QsQd", "9c8c"), cards("Qh 7h 2c Tc 3s"));
  sameAsNaive(t, hands("AhKh", "AsKs"), cards("Qh Jh Th 2c 3s"));
  sameAsNaive(t, hands("AhKh", "QsQd", "9c8c"), cards("Qh 7h"));
  sameAsNaive(t, hands("2c2d", "AsKh"), cards("3h"));
});

const FULL = Array.from({ length: 52 }, (_, i) => i);

test("random 2..6-hand flop and turn spots match the naive enumeration", (t) => {
  const spot = fc
    .record({ players: fc.integer({ min: 2, max: 6 }), boardSize: fc.constantFrom(3, 4) })
    .chain(({ players, boardSize }) =>
      fc
        .shuffledSubarray(FULL, { minLength: 2 * players + boardSize, maxLength: 2 * players + boardSize })
        .map((cs) => ({
          hs: Array.from({ length: players }, (_, i) => cs.slice(2 * i, 2 * i + 2)),
          board: cs.slice(2 * players),
        })),
    );
  fc.assert(
    fc.property(spot, ({ hs, board }) => {
      const ours = exactEquity(hs, board);
      const naive = naiveEquity(hs, board);
      return (
        ours.boards === naive.boards &&
        ours.winPercent.every((w, i) => Math.abs(w - (100 * naive.wins[i]!) / naive.boards) < 1e-9) &&
        ours.drawPercent.every((d, i) => Math.abs(d - (100 * naive.draws[i]!) / naive.boards) < 1e-9)
      );
    }),
    { numRuns: 25 },
  );
  t.pass();
});

/** Simple enumeration of all boards with evaluate7 (which is itself checked against the naive reference). */
function plainEquity(hs: number[][], board: number[]): Pick<Equity, "winPercent" | "drawPercent" | "boards"> {
  const used = new Set([...hs.flat(), ...board]);
  const deck = FULL.filter((c) => !used.has(c));
  const wins = hs.map(() => 0);
  const draws = hs.map(() => 0);
  let boards = 0;
  const b = [...board];
  const walk = (from: number): void => {
    if (b.length === 5) {
      const v = hs.map((h) => evaluate7(h[0]!, h[1]!, b[0]!, b[1]!, b[2]!, b[3]!, b[4]!));
      const best = Math.max(...v);
      const winners = v.filter((x) => x === best).length;
      v.forEach((x, i) => {
        if (x === best) (winners === 1 ? wins : draws)[i]!++;
      });
      boards++;
      return;
    }
    for (let i = from; i < deck.length; i++) {
      b.push(deck[i]!);
      walk(i + 1);
      b.pop();
    }
  };
  walk(0);
  return { winPercent: wins.map((w) => (100 * w) / boards), drawPercent: draws.map((d) => (100 * d) / boards), boards };
}

test("3-hand pre-flop matches a plain enumeration with evaluate7", (t) => {
  const hs = hands("As9s", "KhQd", "7c7d");
  const ours = exactEquity(hs, []);
  const plain = plainEquity(hs, []);
  t.is(ours.boards, plain.boards);
  t.deepEqual(round4(ours.winPercent), round4(plain.winPercent));
  t.deepEqual(round4(ours.drawPercent), round4(plain.drawPercent));
});

test("Monte Carlo agrees with exact within five standard errors", (t) => {
  const hs = hands("AhAd", "KsKc", "QhJh", "7c2d");
  const exact = { win: [56.2053, 17.5372, 17.2022, 8.8316] };
  const n = 100000;
  for (const seed of [1, 2, undefined]) {
    const mc = monteCarloEquity(hs, [], n, seed);
    t.is(mc.boards, n);
    mc.winPercent.forEach((w, i) => {
      const p = exact.win[i]! / 100;
      const se = 100 * Math.sqrt((p * (1 - p)) / n);
      t.true(Math.abs(w - exact.win[i]!) < 5 * se, `hand ${i}: ${w} vs ${exact.win[i]} (seed ${seed})`);
    });
  }
});

test("Monte Carlo dead-heat shares agree with exact within five standard errors, where ties abound", (t) => {
  const n = 100000;
  for (const spot of [hands("2c3d", "2d3c", "2h3s", "KsQs"), hands("9cTs", "Tc9s", "AhKh")]) {
    const exact = exactEquity(spot, []);
    const mc = monteCarloEquity(spot, [], n, 5);
    t.is(mc.shares[0]!.denominator, n * (spot.length === 4 ? 12 : 6)); // lcm(1..4), lcm(1..3)
    mc.sharePercent.forEach((share, i) => {
      // A board's share for one hand lies in [0, 1], so its variance is at most p (1 - p).
      const p = exact.sharePercent[i]! / 100;
      const se = 100 * Math.sqrt((p * (1 - p)) / n);
      t.true(Math.abs(share - exact.sharePercent[i]!) < 5 * se, `hand ${i}: ${share} vs ${exact.sharePercent[i]}`);
    });
    t.is(
      mc.shares.reduce((sum, f) => sum + f.numerator, 0),
      mc.shares[0]!.denominator,
    );
  }
});

test("Monte Carlo with a seed is reproducible, and on the river equals exact", (t) => {
  const hs = hands("AhKh", "QsQd", "9c8c");
  t.deepEqual(monteCarloEquity(hs, cards("Qh 7h"), 1000, 7), monteCarloEquity(hs, cards("Qh 7h"), 1000, 7));
  const river = cards("Qh 7h 2c Tc 3s");
  const mc = monteCarloEquity(hs, river, 10, 3);
  const ex = exactEquity(hs, river);
  t.deepEqual(mc.winPercent, ex.winPercent);
  t.deepEqual(mc.drawPercent, ex.drawPercent);
  t.deepEqual(mc.sharePercent, ex.sharePercent);
});

test("bad input is rejected", (t) => {
  t.throws(() => exactEquity(hands("AhAd", "AhKc"), []), { message: /twice/ });
  t.throws(() => exactEquity([cards("AhAdKc")], []));
  t.throws(() => exactEquity(hands("AhAd", "KsKc"), cards("2c 3c 4c 5c 6c 7c")));
  t.throws(() => exactEquity(hands("AhAd", "KsKc"), [52]));
  t.throws(() => exactEquity([], []));
  t.throws(() => monteCarloEquity(hands("AhAd", "KsKc"), [], 0));
  t.throws(() => monteCarloEquity(hands("AhAd", "KsKc"), [], 1.5));
});

test("xoshiro128** matches its reference output and draws card indices uniformly", (t) => {
  // Reference: xoshiro128** from state (1, 2, 3, 4) (Blackman and Vigna's C code).
  const ref = new Xoshiro128([1, 2, 3, 4]);
  t.deepEqual([ref.next(), ref.next(), ref.next()], [11520, 0, 5927040]);
  // Chi-square of 520,000 draws below 52: 51 degrees of freedom, 99.9% critical value 87.97.
  const rng = new Xoshiro128(12345);
  const counts = new Array<number>(52).fill(0);
  const draws = 520000;
  for (let i = 0; i < draws; i++) counts[rng.below(52)]!++;
  const expected = draws / 52;
  const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
  t.true(chi2 < 87.97, `chi-square ${chi2}`);
  t.true(counts.every((c) => c > 0));
});

test("xoshiro128** belowSmall draws uniformly, two draws from each output", (t) => {
  // Chi-square of 520,000 draws below 52 and below 47 (51 and 46 degrees of freedom; 99.9%
  // critical values 87.97 and 81.40), and every index reached.
  const rng = new Xoshiro128(2024);
  for (const [bound, critical] of [
    [52, 87.97],
    [47, 81.4],
  ] as const) {
    const counts = new Array<number>(bound).fill(0);
    const draws = 520000;
    for (let i = 0; i < draws; i++) counts[rng.belowSmall(bound)]!++;
    const expected = draws / bound;
    const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    t.true(chi2 < critical, `bound ${bound}: chi-square ${chi2}`);
    t.true(counts.every((c) => c > 0));
  }
  // Both halves of one output are used: the low half first, then the high half.
  const a = new Xoshiro128([1, 2, 3, 4]);
  const word = new Xoshiro128([1, 2, 3, 4]).next();
  t.deepEqual([a.belowSmall(0x10000), a.belowSmall(0x10000)], [word & 0xffff, word >>> 16]);
});

test("Monte Carlo deals every remaining card, the first and last of the deck included", (t) => {
  const n = 200000;
  const spots: [number[][], number[], number][] = [
    // AcAd beats KcKd's trips only if the river is Ah or As: the last two cards of the deck.
    [hands("AcAd", "KcKd"), cards("Kh 7s 4h 9c"), 2 / 44],
    // 3c4c makes a straight only with a deuce or a seven: the first four cards of the deck are deuces.
    [hands("3c4c", "AsAd"), cards("5h 6d Kc Qs"), 8 / 44],
  ];
  for (const [hs, board, p] of spots) {
    t.is(Math.round(exactEquity(hs, board).winPercent[0]! * 1e9), Math.round(100 * p * 1e9));
    const mc = monteCarloEquity(hs, board, n, 99);
    const se = 100 * Math.sqrt((p * (1 - p)) / n);
    t.true(Math.abs(mc.winPercent[0]! - 100 * p) < 5 * se, `${mc.winPercent[0]} vs ${100 * p}`);
  }
});

test("too many hands for the deck is rejected", (t) => {
  const many = Array.from({ length: 24 }, (_, i) => [2 * i, 2 * i + 1]); // 48 cards: 4 left
  t.throws(() => exactEquity(many, []), { message: /too few cards/ });
  t.throws(() => monteCarloEquity(many, [48], 10), { message: /too few cards/ });
  t.is(exactEquity(many.slice(0, 23), []).boards, 6, "23 hands leave 6 cards: 6 boards of 5");
});
