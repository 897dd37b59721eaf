import test from "ava";
import fc from "fast-check";
import type { Fraction } from "../../src/poker/equity-types.js";
import { INT32_MAX, MIN_TABLE_TARGET_RTP } from "../../src/limits.js";
import { InvalidOddsRequestError } from "../../src/poker/errors.js";
import {
  type BettingStage,
  Stage,
  bulkStagePricing,
  favouriteIndex,
  handOddsPanels,
  oddsTenths,
  riverEquities,
  roundPercent,
} from "../../src/poker/pricing.js";

const RUNS = { numRuns: 2000 };

// Percentages with 4 decimals as integer units of 0.0001 %, and RTPs as integer units of 0.0001:
// the exact reference is then integer arithmetic.
const winUnits = fc.integer({ min: 1, max: 1_000_000 });
const rtpUnits = fc.integer({ min: 1, max: 9_999 });
const anyRtp = fc.double({ min: Number.MIN_VALUE, max: 1, maxExcluded: true, noNaN: true });
const stages = fc.constantFrom<BettingStage>(Stage.HOLE, Stage.FLOP, Stage.TURN);
const allStages = fc.constantFrom<BettingStage>(Stage.HOLE, Stage.FLOP, Stage.TURN, Stage.RIVER);

// Equities that often tie and often hit 0 and 100, mixed with arbitrary doubles.
const percent = fc.oneof(
  fc.constantFrom(0, 0, 100, 50, 25, 12.5, 33.3333, 99.9, 0.0001),
  fc.integer({ min: 0, max: 10 }).map((k) => k * 10),
  fc.double({ min: 0, max: 100, noNaN: true }),
);
// Exact shares: any fraction in (0, 1] from small denominators (thirds, halves) to the engine's,
// down to 1 / 2,000,000 (a hand that wins alone has at least one board of at most C(48, 5)).
const share = fc
  .integer({ min: 1, max: 1_000_000_000 })
  .chain((denominator) =>
    fc
      .integer({ min: Math.ceil(denominator / 2_000_000), max: denominator })
      .map((numerator): Fraction => ({ numerator, denominator })),
  );
const equity = fc.record({ winPercent: percent, drawPercent: percent, share });
const equities = fc.array(equity, { minLength: 2, maxLength: 6 });

/** A share of W units of 0.0001 % (the old tests' percentages), as an exact fraction. */
const units = (W: number): Fraction => ({ numerator: W, denominator: 1_000_000 });
/** A percentage with up to 4 decimals as the share it is. */
const pct = (percent: number): Fraction => units(Math.round(percent * 1e4));
/** A hand's equity whose share is its win percentage (no ties), or the share given. */
const eq = (winPercent: number, drawPercent: number, shareOf = pct(winPercent)) => ({
  winPercent,
  drawPercent,
  share: shareOf,
});

/** Exact half-up tenths of 10 x rtp / share for share = W / 1e6, rtp = R / 1e4: round(1000 R / W). */
const referenceTenths = (W: number, R: number): number => Math.floor((2000 * R + W) / (2 * W));

/** Whether odds of `tenths` are within 0.05 of rtp / share, exactly: |tenths x n x rDen - 10 x R x d| x 2 <= n x rDen. */
const withinRounding = (tenths: number, f: Fraction, R: number): boolean => {
  const n = BigInt(f.numerator);
  const d = BigInt(f.denominator);
  const gap = BigInt(tenths) * n * 10_000n - 10n * BigInt(R) * d;
  return 2n * (gap < 0n ? -gap : gap) <= n * 10_000n;
};

// ---------- roundPercent ----------

test("roundPercent: 4 decimals, within half a unit, never a false zero", (t) => {
  fc.assert(
    fc.property(fc.double({ min: 0, max: 100, noNaN: true }), (raw) => {
      const r = roundPercent(raw);
      t.true(Number.isInteger(Math.round(r * 1e4)) && Math.abs(r * 1e4 - Math.round(r * 1e4)) < 1e-6);
      if (raw === 0) return r === 0;
      return r > 0 && (Math.abs(r - raw) <= 0.00005 + 1e-12 || r === 0.0001);
    }),
    RUNS,
  );
  t.is(roundPercent(1e-9), 0.0001);
  t.is(roundPercent(0), 0);
  t.is(roundPercent(100), 100);
  t.is(roundPercent(100 / 3), 33.3333);
  t.is(roundPercent(200 / 3), 66.6667);
  t.throws(() => roundPercent(Number.NaN), { instanceOf: RangeError });
  t.throws(() => roundPercent(101), { instanceOf: RangeError });
});

// ---------- oddsTenths ----------

test("oddsTenths is the exact half-up nearest tenth of rtp / share", (t) => {
  fc.assert(
    fc.property(winUnits, rtpUnits, (W, R) => oddsTenths(units(W), R / 1e4) === referenceTenths(W, R)),
    { numRuns: 20_000 },
  );
  // Any fraction, reduced or not: within half a tenth, so odds x share is the target within 0.05 x share.
  fc.assert(
    fc.property(share, rtpUnits, fc.integer({ min: 1, max: 7 }), (f, R, k) => {
      const tenths = oddsTenths(f, R / 1e4);
      const scaled = oddsTenths({ numerator: f.numerator * k, denominator: f.denominator * k }, R / 1e4);
      return withinRounding(tenths, f, R) && scaled === tenths;
    }),
    { numRuns: 20_000 },
  );
  t.pass();
});

test("oddsTenths rounds every exact halfway value up", (t) => {
  // 1000 R / W is exactly m / 2 for an odd divisor m of 2000 R with W = 2000 R / m: expect (m + 1) / 2.
  const halfway = rtpUnits.chain((R) => {
    let odd = 2000 * R;
    while (odd % 2 === 0) odd /= 2;
    const ms: number[] = [];
    for (let m = 1; m * m <= odd; m += 2) if (odd % m === 0) ms.push(m, odd / m);
    return fc.constantFrom(...ms.filter((m) => (2000 * R) / m <= 1_000_000)).map((m) => ({ R, m, W: (2000 * R) / m }));
  });
  fc.assert(
    fc.property(halfway, ({ R, m, W }) => oddsTenths(units(W), R / 1e4) === (m + 1) / 2),
    RUNS,
  );
  t.pass();
});

test("oddsTenths rounds .x5 boundaries up where naive float arithmetic rounds down", (t) => {
  // Each of these is exactly halfway; (1 / (w / 100)) x rtp evaluates to just below it in floats.
  t.is(oddsTenths(pct(3.104), 0.97), 313); // 31.25
  t.is(oddsTenths(pct(14.4), 0.9), 63); // 6.25
  t.is(oddsTenths(pct(56), 0.98), 18); // 1.75
  t.is(oddsTenths(pct(78), 0.975), 13); // 1.25
  t.is(oddsTenths(pct(0.032), 0.97), 30313); // 3031.25
  t.is(oddsTenths(pct(20), 0.97), 49); // 4.85
  // And just either side of a boundary.
  t.is(oddsTenths(pct(50), 0.97), 19); // 1.94
  t.is(oddsTenths(pct(50), 0.975), 20); // 1.95
  t.is(oddsTenths(pct(25), 0.97), 39); // 3.88
  // Shares that no decimal percentage gives exactly: a third, and a sixth of a board out of 1,712,304.
  t.is(oddsTenths({ numerator: 1, denominator: 3 }, 0.97), 29); // 2.91
  t.is(oddsTenths({ numerator: 1, denominator: 6 * 1_712_304 }, 0.97), 99_656_093); // 9,965,609.3
});

test("oddsTenths at the edges: a share of 0 gives 0, of 1 gives rtp rounded to a tenth", (t) => {
  fc.assert(
    fc.property(anyRtp, (rtp) => oddsTenths({ numerator: 0, denominator: 7 }, rtp) === 0),
    RUNS,
  );
  fc.assert(
    fc.property(rtpUnits, (R) => oddsTenths(units(1_000_000), R / 1e4) === Math.floor((R + 500) / 1000)),
    RUNS,
  );
  t.is(oddsTenths(pct(100), 0.97), 10);
  t.is(oddsTenths(pct(100), 0.94), 9);
  t.is(oddsTenths(pct(100), 0.01), 0);
  t.is(oddsTenths(pct(0.0001), 0.97), 9_700_000);
  for (const bad of [
    { numerator: 2, denominator: 1 },
    { numerator: -1, denominator: 2 },
    { numerator: 1, denominator: 0 },
    { numerator: 0.5, denominator: 2 },
    { numerator: 1, denominator: 2 ** 53 },
    { numerator: 1, denominator: 2 ** 31 }, // odds beyond the int32 of the wire
  ]) {
    t.throws(() => oddsTenths(bad, 0.97), { instanceOf: RangeError });
  }
});

test("oddsTenths is within half a tenth of the float formula for arbitrary RTPs", (t) => {
  fc.assert(
    fc.property(share, anyRtp, (f, rtp) => {
      const tenths = oddsTenths(f, rtp);
      const margin = (f.denominator / f.numerator) * rtp;
      return Number.isInteger(tenths) && Math.abs(tenths / 10 - margin) <= 0.05 * (1 + 1e-9) + 1e-12 * margin;
    }),
    RUNS,
  );
  t.pass();
});

test("oddsTenths never increases with the share", (t) => {
  fc.assert(
    fc.property(winUnits, winUnits, rtpUnits, (a, b, R) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      return oddsTenths(units(lo), R / 1e4) >= oddsTenths(units(hi), R / 1e4);
    }),
    RUNS,
  );
  t.pass();
});

test("targetRtp outside (0, 1) is an InvalidOddsRequestError", (t) => {
  for (const rtp of [0, 1, -0.5, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    t.throws(() => oddsTenths(pct(50), rtp), { instanceOf: InvalidOddsRequestError });
    t.throws(() => bulkStagePricing([eq(50, 0)], Stage.HOLE, rtp), {
      instanceOf: InvalidOddsRequestError,
    });
    t.throws(() => handOddsPanels([eq(50, 0)], Stage.HOLE, rtp), {
      instanceOf: InvalidOddsRequestError,
    });
  }
});

// ---------- favourite ----------

test("favouriteIndex: highest win among live hands, lowest index on a tie, dead never", (t) => {
  fc.assert(
    fc.property(equities, (es) => {
      const fav = favouriteIndex(es);
      const live = es.map((e, i) => ({ ...e, i })).filter((e) => e.winPercent > 0 || e.drawPercent > 0);
      if (live.length === 0) return fav === -1;
      const top = Math.max(...live.map((e) => e.winPercent));
      return fav === live.find((e) => e.winPercent === top)!.i;
    }),
    RUNS,
  );
  t.is(favouriteIndex([eq(40, 0), eq(40, 0)]), 0);
  t.is(favouriteIndex([eq(0, 0), eq(0, 50), eq(0, 50)]), 1);
});

// ---------- handOddsPanels ----------

test("handOddsPanels before the river: one favourite, dead hands, odds from the exact share", (t) => {
  fc.assert(
    fc.property(equities, stages, rtpUnits, (es, stage, R) => {
      const rtp = R / 1e4;
      const panels = handOddsPanels(es, stage, rtp);
      const rounded = es.map((e) => ({
        winPercent: roundPercent(e.winPercent),
        drawPercent: roundPercent(e.drawPercent),
        share: e.share,
      }));
      const fav = favouriteIndex(rounded);
      t.is(panels.length, es.length);
      panels.forEach((p, i) => {
        const e = rounded[i]!;
        t.is(p.handIndex, i);
        t.is(p.bettingStage, stage);
        t.is(p.winPercentage, e.winPercent);
        t.is(p.drawPercentage, e.drawPercent);
        // The ruling: no outright win, odds 0 (even for a hand that can tie); else priced from the share.
        t.is(p.oddsTenths, e.winPercent === 0 ? 0 : oddsTenths(e.share, rtp));
        const dead = e.winPercent === 0 && e.drawPercent === 0;
        t.is(p.handStatus, dead ? "DEAD_CANNOT_WIN" : i === fav ? "IN_PLAY_FAVOURITE" : "IN_PLAY_BETTING_STAGE_ACTIVE");
      });
      const favourites = panels.filter((p) => p.handStatus === "IN_PLAY_FAVOURITE").length;
      t.is(favourites, rounded.some((e) => e.winPercent > 0 || e.drawPercent > 0) ? 1 : 0);
    }),
    { numRuns: 300 },
  );
});

test("handOddsPanels: ties go to the lowest index, a dead hand is never the favourite", (t) => {
  // Every tie here is two-way between hands 1..3: each share is its win plus half its draw.
  const panels = handOddsPanels(
    [eq(0, 0), eq(30, 10, pct(35)), eq(30, 10, pct(35)), eq(20, 10, pct(25))],
    Stage.FLOP,
    0.97,
  );
  t.deepEqual(
    panels.map((p) => p.handStatus),
    ["DEAD_CANNOT_WIN", "IN_PLAY_FAVOURITE", "IN_PLAY_BETTING_STAGE_ACTIVE", "IN_PLAY_BETTING_STAGE_ACTIVE"],
  );
  // 0.97 / 0.35 = 2.77 and 0.97 / 0.25 = 3.88 (priced from the win alone they were 3.2 and 4.9).
  t.deepEqual(
    panels.map((p) => p.oddsTenths),
    [0, 28, 28, 39],
  );
  // A hand that can only tie is alive (not dead) but shows odds 0, though its share is a half.
  const chop = handOddsPanels([eq(0, 100, pct(50)), eq(0, 100, pct(50))], Stage.TURN, 0.97);
  t.deepEqual(
    chop.map((p) => [p.handStatus, p.oddsTenths]),
    [
      ["IN_PLAY_FAVOURITE", 0],
      ["IN_PLAY_BETTING_STAGE_ACTIVE", 0],
    ],
  );
});

test("handOddsPanels at the river: WINNER for winners and tied winners, LOSER otherwise", (t) => {
  const sole = handOddsPanels(riverEquities([5, 9, 2]), Stage.RIVER, 0.97);
  t.deepEqual(
    sole.map((p) => [p.bettingStage, p.handStatus, p.winPercentage, p.drawPercentage, p.oddsTenths]),
    [
      [-1, "LOSER", 0, 0, 0],
      [-1, "WINNER", 100, 0, 10],
      [-1, "LOSER", 0, 0, 0],
    ],
  );
  const tied = handOddsPanels(riverEquities([9, 3, 9, 9]), Stage.RIVER, 0.97);
  t.deepEqual(
    tied.map((p) => [p.handStatus, p.winPercentage, p.drawPercentage, p.oddsTenths]),
    [
      ["WINNER", 0, 100, 0],
      ["LOSER", 0, 0, 0],
      ["WINNER", 0, 100, 0],
      ["WINNER", 0, 100, 0],
    ],
  );
});

test("riverEquities: exactly the best hands are credited", (t) => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 2, maxLength: 6 }), (values) => {
      const top = Math.max(...values);
      const winners = values.filter((v) => v === top).length;
      return riverEquities(values).every((e, i) =>
        values[i] !== top
          ? e.winPercent === 0 && e.drawPercent === 0
          : winners === 1
            ? e.winPercent === 100 && e.drawPercent === 0
            : e.winPercent === 0 && e.drawPercent === 100,
      );
    }),
    RUNS,
  );
  t.pass();
});

// ---------- bulkStagePricing ----------

const relClose = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

test("bulkStagePricing follows the spec's formulas", (t) => {
  fc.assert(
    fc.property(
      equities,
      allStages,
      fc.oneof(
        rtpUnits.map((R) => R / 1e4),
        anyRtp,
      ),
      (es, stage, rtp) => {
        const infos = bulkStagePricing(es, stage, rtp);
        t.is(infos.length, es.length);
        infos.forEach((info, i) => {
          const w = roundPercent(es[i]!.winPercent);
          const d = roundPercent(es[i]!.drawPercent);
          t.is(info.handIndex, i);
          t.is(info.bettingStage, stage);
          t.is(info.percentWin, w);
          t.is(info.percentDraw, d);
          // 1 decimal, and within half a tenth of the exact sum (half up).
          t.true(Math.abs(info.percentWinOrDraw * 10 - Math.round(info.percentWinOrDraw * 10)) < 1e-9);
          t.true(info.percentWinOrDraw - (w + d) <= 0.05 + 1e-9 && w + d - info.percentWinOrDraw < 0.05 + 1e-9);
          for (const v of Object.values(info)) if (typeof v === "number") t.true(Number.isFinite(v));
          if (w === 0) {
            t.deepEqual(
              [info.oddsActual, info.oddsMargin, info.oddsRounded, info.actualRtp, info.roundingRake],
              [0, 0, 0, 0, 0],
            );
          } else {
            // The win probability of the spec's formulas is the dead-heat share (pricing.ts).
            const f = es[i]!.share;
            t.true(relClose(info.oddsActual, f.denominator / f.numerator));
            t.is(info.oddsMargin, info.oddsActual * rtp);
            t.is(info.oddsRounded, oddsTenths(f, rtp) / 10);
            t.true(Math.abs(info.oddsRounded - info.oddsMargin) <= 0.05 + 1e-9 * info.oddsMargin);
            t.is(info.actualRtp, info.oddsRounded / info.oddsActual);
            t.is(info.roundingRake, (info.oddsMargin - info.oddsRounded) / info.oddsActual);
            // The two parts of the return add up to the target.
            t.true(Math.abs(info.actualRtp + info.roundingRake - rtp) < 1e-9);
          }
          t.is(info.statusIsWinner, stage === Stage.RIVER && (w > 0 || d > 0));
        });
      },
    ),
    { numRuns: 300 },
  );
});

test("bulkStagePricing flags: favourite, can't lose and best RTP", (t) => {
  fc.assert(
    fc.property(equities, allStages, rtpUnits, (es, stage, R) => {
      const infos = bulkStagePricing(es, stage, R / 1e4);
      const rounded = infos.map((i) => ({ winPercent: i.percentWin, drawPercent: i.percentDraw }));
      const fav = favouriteIndex(rounded);
      const priced = infos.filter((i) => i.percentWin > 0);
      const best = Math.max(...priced.map((i) => i.oddsRounded));
      infos.forEach((info, i) => {
        t.is(info.statusIsFavourite, i === fav);
        t.is(info.statusBestRtp, info.percentWin > 0 && info.oddsRounded === best);
        // Compared in integer units of 0.0001 % so 99.9 itself is not lost to float error.
        const units = Math.round(info.percentWin * 1e4) + Math.round(info.percentDraw * 1e4);
        t.is(info.statusCantLose, units >= 999_000);
      });
      t.is(infos.filter((i) => i.statusBestRtp).length >= 1, priced.length > 0);
    }),
    { numRuns: 300 },
  );
});

test("bulkStagePricing: exact boundaries of percentWinOrDraw and statusCantLose", (t) => {
  const info = (winPercent: number, drawPercent: number) =>
    bulkStagePricing(
      [eq(winPercent, drawPercent, pct(Math.min(100, winPercent + drawPercent))), eq(0.05, 0)],
      Stage.TURN,
      0.97,
    )[0]!;
  t.is(info(33.3, 66.6).percentWinOrDraw, 99.9); // 33.3 + 66.6 is 99.89999999999999 in floats
  t.true(info(33.3, 66.6).statusCantLose);
  t.false(info(33.3, 66.5999).statusCantLose);
  t.true(info(99.9, 0).statusCantLose);
  t.true(info(100, 0).statusCantLose);
  t.is(info(1.15, 0).percentWinOrDraw, 1.2); // half up
  t.is(info(1.045, 0.005).percentWinOrDraw, 1.1); // Math.round((w + d) * 10) / 10 gives 1.0
  t.is(info(8.315, 3.335).percentWinOrDraw, 11.7); // ... and 11.6
  t.is(info(12.25, 0).percentWinOrDraw, 12.3);
  t.is(info(12.2499, 0).percentWinOrDraw, 12.2);
  t.is(info(0.05, 0).percentWinOrDraw, 0.1);
  t.is(info(0, 0).percentWinOrDraw, 0);
});

test("bulkStagePricing: ties for favourite and for best RTP", (t) => {
  const infos = bulkStagePricing(
    [eq(20, 5, pct(22.5)), eq(35, 5, pct(37.5)), eq(35, 5, pct(37.5)), eq(0, 0)],
    Stage.FLOP,
    0.97,
  );
  t.deepEqual(
    infos.map((i) => i.statusIsFavourite),
    [false, true, false, false],
  );
  t.deepEqual(
    infos.map((i) => i.statusBestRtp),
    [true, false, false, false],
  );
  // Different win percentages that round to the same odds all share best RTP.
  const same = bulkStagePricing([eq(24.9, 0), eq(25, 0), eq(50, 0)], Stage.HOLE, 0.97);
  t.deepEqual(
    same.map((i) => [i.oddsRounded, i.statusBestRtp]),
    [
      [3.9, true],
      [3.9, true],
      [1.9, false],
    ],
  );
});

test("bulkStagePricing at the river: sole winner, tied winners, losers", (t) => {
  const sole = bulkStagePricing(riverEquities([7, 3, 1]), Stage.RIVER, 0.97);
  t.like(sole[0], {
    bettingStage: -1,
    percentWin: 100,
    percentDraw: 0,
    percentWinOrDraw: 100,
    oddsActual: 1,
    oddsMargin: 0.97,
    oddsRounded: 1,
    statusIsWinner: true,
    statusCantLose: true,
    statusIsFavourite: true,
    statusBestRtp: true,
  });
  t.true(Math.abs(sole[0]!.roundingRake - -0.03) < 1e-12);
  t.like(sole[1], { percentWin: 0, percentDraw: 0, oddsRounded: 0, statusIsWinner: false, statusCantLose: false });
  const tied = bulkStagePricing(riverEquities([1, 7, 7]), Stage.RIVER, 0.97);
  t.deepEqual(
    tied.map((i) => [
      i.percentWin,
      i.percentDraw,
      i.oddsActual,
      i.oddsRounded,
      i.statusIsWinner,
      i.statusCantLose,
      i.statusBestRtp,
    ]),
    [
      [0, 0, 0, 0, false, false, false],
      [0, 100, 0, 0, true, true, false],
      [0, 100, 0, 0, true, true, false],
    ],
  );
  t.deepEqual(
    tied.map((i) => i.statusIsFavourite),
    [false, true, false],
  );
});

test("statusIsWinner is never set before the river", (t) => {
  const infos = bulkStagePricing([eq(100, 0), eq(0, 0)], Stage.TURN, 0.97);
  t.deepEqual(
    infos.map((i) => [i.statusIsWinner, i.statusCantLose, i.statusIsFavourite]),
    [
      [false, true, true],
      [false, false, false],
    ],
  );
});

test("pricing's guards hold at their bounds", (t) => {
  // roundPercent takes float noise of 1e-9 beyond 0 and 100 as 0 and 100, and nothing further out.
  t.is(roundPercent(-1e-9), 0);
  t.is(roundPercent(100 + 1e-9), 100);
  for (const raw of [-2e-9, -0.5, 100 + 2e-9]) t.throws(() => roundPercent(raw), { instanceOf: RangeError });
  // The largest odds the wire's int32 carries are given; the next tenth is refused (the edges test).
  t.is(oddsTenths({ numerator: 1, denominator: INT32_MAX }, 0.1), INT32_MAX);
  // A share is a fraction of safe integers, with a denominator of at least 1.
  for (const bad of [
    { numerator: 0, denominator: 0 },
    { numerator: Number.MAX_SAFE_INTEGER, denominator: Number.MAX_SAFE_INTEGER + 3 },
  ]) {
    t.throws(() => oddsTenths(bad, 0.97), { instanceOf: RangeError }, JSON.stringify(bad));
  }
  // No favourite among dead hands only.
  t.is(favouriteIndex([eq(0, 0), eq(0, 0)]), -1);
  // A hand winning alone with no share is an engine fault, never odds of 0 on a live hand.
  const noShare = [eq(10, 0, { numerator: 0, denominator: 1 }), eq(90, 0)];
  t.throws(() => handOddsPanels(noShare, Stage.FLOP, 0.97), { instanceOf: RangeError });
  t.throws(() => bulkStagePricing(noShare, Stage.FLOP, 0.97), { instanceOf: RangeError });
  // A stage is one of HOLE, FLOP, TURN and RIVER.
  for (const stage of [3, -2, 0.5]) {
    t.throws(() => handOddsPanels([eq(50, 0), eq(50, 0)], stage as BettingStage, 0.97), { instanceOf: RangeError });
    t.throws(() => bulkStagePricing([eq(50, 0), eq(50, 0)], stage as BettingStage, 0.97), { instanceOf: RangeError });
  }
});

test("bulkStagePricing counts a rounded percentage as its whole units, whichever way floats miss them", (t) => {
  // 0.0003 x 1e4 is 2.9999999999999996 in floats and 0.0051 x 1e4 is 51.00000000000001.
  const cantLose = (win: number, draw: number) => bulkStagePricing([eq(win, draw)], Stage.TURN, 0.97)[0]!;
  t.like(cantLose(0.0003, 99.8997), { percentWinOrDraw: 99.9, statusCantLose: true });
  t.like(cantLose(99.8997, 0.0003), { percentWinOrDraw: 99.9, statusCantLose: true });
  t.like(cantLose(0.0051, 99.8948), { percentWinOrDraw: 99.9, statusCantLose: false });
  t.like(cantLose(99.8948, 0.0051), { percentWinOrDraw: 99.9, statusCantLose: false });
});

test("riverEquities: the shares are exact fractions that add up to 1, a loser's 0", (t) => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 2, maxLength: 6 }), (values) => {
      const shares = riverEquities(values).map((e) => e.share);
      const top = Math.max(...values);
      const k = values.filter((v) => v === top).length;
      shares.forEach((s, i) => {
        t.true(Number.isSafeInteger(s.numerator) && Number.isSafeInteger(s.denominator) && s.denominator >= 1);
        t.is(s.numerator * k, values[i] === top ? s.denominator : 0);
      });
    }),
    RUNS,
  );
});

test("at the tables' lowest target RTP a hand certain to win still shows odds, and just below it none", (t) => {
  const certain = { numerator: 1, denominator: 1 };
  t.is(oddsTenths(certain, MIN_TABLE_TARGET_RTP), 1);
  t.is(oddsTenths(certain, MIN_TABLE_TARGET_RTP - 0.0001), 0);
  // Every share is at most 1, so at that RTP every hand that can win is priced above 0.
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (numerator, extra) => {
      t.true(oddsTenths({ numerator, denominator: numerator + extra }, MIN_TABLE_TARGET_RTP) >= 1);
    }),
  );
});
