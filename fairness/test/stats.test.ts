import test from "ava";
import { randomInt } from "node:crypto";
import { shuffledDeck } from "../src/shuffle.js";
import {
  DECK,
  addPair,
  addToHistogram,
  cardPositionChiSquare,
  countPositions,
  emptyHistogram,
  emptyPositionCounts,
  emptyRatio,
  mergeHistograms,
  ratioEstimate,
} from "../src/stats.js";
import { P_VALUE_FLOOR } from "../src/summary.js";

function tally(shuffles: number, shuffle: () => number[]) {
  const counts = emptyPositionCounts();
  for (let s = 0; s < shuffles; s++) countPositions(counts, shuffle());
  return cardPositionChiSquare(counts, shuffles);
}

/** The classic mistake: swapping each position with any position gives 52^52 paths onto 52! orders. */
function naiveShuffle(): number[] {
  const deck = Array.from({ length: DECK }, (_, i) => i);
  for (let i = 0; i < DECK; i++) {
    const j = randomInt(DECK);
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  return deck;
}

/** Fisher-Yates with a byte taken modulo the range: low indices come up slightly more often. */
function moduloBiasedShuffle(): number[] {
  const deck = Array.from({ length: DECK }, (_, i) => i);
  for (let i = DECK - 1; i > 0; i--) {
    const j = randomInt(256) % (i + 1);
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  return deck;
}

test("the chi-square passes the real shuffle and detects a biased one", (t) => {
  const fair = tally(50_000, shuffledDeck);
  t.log(`fair: chi-square ${fair.statistic.toFixed(1)}, p ${fair.pValue.toPrecision(3)}`);
  t.is(fair.df, 2652); // 52 x 51: both margins of the table are fixed by the design
  t.true(fair.pValue >= P_VALUE_FLOOR && fair.lowerTailP >= P_VALUE_FLOOR);

  const naive = tally(20_000, naiveShuffle);
  t.log(`naive swap: chi-square ${naive.statistic.toFixed(1)}, p ${naive.pValue.toPrecision(3)}`);
  t.true(naive.pValue < 1e-12);

  const modulo = tally(50_000, moduloBiasedShuffle);
  t.log(`modulo bias: chi-square ${modulo.statistic.toFixed(1)}, p ${modulo.pValue.toPrecision(3)}`);
  t.true(modulo.pValue < P_VALUE_FLOOR);
});

test("a too-even table fails the lower tail", (t) => {
  // 52 decks, each a rotation of the last: every card lands exactly once at every position.
  const counts = emptyPositionCounts();
  for (let r = 0; r < DECK; r++)
    countPositions(
      counts,
      Array.from({ length: DECK }, (_, i) => (i + r) % DECK),
    );
  const result = cardPositionChiSquare(counts, DECK);
  t.is(result.statistic, 0);
  t.is(result.pValue, 1);
  t.true(result.lowerTailP < P_VALUE_FLOOR);
  t.throws(() => cardPositionChiSquare(new Float64Array(10), 1), { instanceOf: RangeError });
});

test("ratio estimate: value and delta-method standard error by hand", (t) => {
  const sums = emptyRatio();
  for (const [x, y] of [
    [1, 2],
    [1, 0],
    [1, 1],
    [1, 1],
  ] as const) {
    addPair(sums, x, y);
  }
  const e = ratioEstimate(sums);
  t.is(e.value, 1);
  // Residuals y - x: 1, -1, 0, 0; sample variance 2/3; SE = sqrt(2/3 x 4) / 4.
  t.true(Math.abs(e.standardError - Math.sqrt(8 / 3) / 4) < 1e-12);
  t.true(Math.abs(e.high - e.value - 1.959963984540054 * e.standardError) < 1e-12);
  t.true(Number.isNaN(ratioEstimate(emptyRatio()).value));
});

test("ratio confidence intervals cover the true ratio about 95 % of the time", (t) => {
  // Games of 1..3 bets, each returning 2 with probability 0.45 (true RTP 0.9).
  let covered = 0;
  const trials = 400;
  for (let trial = 0; trial < trials; trial++) {
    const sums = emptyRatio();
    for (let g = 0; g < 300; g++) {
      const bets = 1 + randomInt(3);
      let returned = 0;
      for (let b = 0; b < bets; b++) if (randomInt(100) < 45) returned += 2;
      addPair(sums, bets, returned);
    }
    const e = ratioEstimate(sums);
    if (e.low <= 0.9 && 0.9 <= e.high) covered++;
  }
  t.log(`coverage ${covered} of ${trials}`);
  // Binomial(400, 0.95): sd 4.4, so 355..395 is about +-4.5 sd.
  t.true(covered >= 355 && covered <= 395, `covered ${covered}`);
});

test("histograms count every value, out-of-range ones apart, and merge bin by bin", (t) => {
  const a = emptyHistogram(0, 1, 4);
  for (const v of [-0.1, 0, 0.24, 0.25, 0.99, 1, 5]) addToHistogram(a, v);
  t.deepEqual(a.counts, [2, 1, 0, 1]);
  t.is(a.below, 1);
  t.is(a.above, 2);
  const b = emptyHistogram(0, 1, 4);
  addToHistogram(b, 0.6);
  t.deepEqual(mergeHistograms(a, b).counts, [2, 1, 1, 1]);
  t.throws(() => mergeHistograms(a, emptyHistogram(0, 2, 4)), { instanceOf: RangeError });
  t.throws(() => emptyHistogram(1, 0, 4), { instanceOf: RangeError });
});
