import test from "ava";
import fc from "fast-check";
import { parseCard } from "../../src/poker/cards.js";
import {
  CARD_RANK_BIT,
  CARD_RANK_KEY,
  CARD_SUIT_KEY,
  FLUSH_CHECK_MASK,
  HAND_CLASSES,
  HandCategory,
  SUIT_KEY_START,
  evaluate5,
  evaluate7,
  evaluateCards,
  flushSuitOf,
  handCategory,
  valueOfFlushMask,
  valueOfRankKey,
} from "../../src/poker/evaluator.js";
import { CATEGORY, combinations, compareNaive, naiveBest, naiveRank5 } from "./helpers/naive-poker.js";

const cards = (s: string): number[] => (s.match(/\S\S/g) ?? []).map(parseCard);

/** A naive rank as one number (base 16 digits), so it can be compared and stored cheaply. */
const naiveKey = (r: readonly number[]): number => {
  let k = 0;
  for (let i = 0; i < 6; i++) k = k * 16 + (r[i] ?? 0);
  return k;
};

test("all 2,598,960 five-card hands: 7462 classes, ordered like the naive reference, standard frequencies", (t) => {
  const keyOfValue = new Map<number, number>();
  const categoryCounts = new Array<number>(9).fill(0);
  let hands = 0;
  let mismatches = 0;
  for (let a = 0; a < 52; a++)
    for (let b = a + 1; b < 52; b++)
      for (let c = b + 1; c < 52; c++)
        for (let d = c + 1; d < 52; d++)
          for (let e = d + 1; e < 52; e++) {
            const value = evaluate5(a, b, c, d, e);
            const naive = naiveRank5([a, b, c, d, e]);
            const key = naiveKey(naive);
            const known = keyOfValue.get(value);
            if (known === undefined) keyOfValue.set(value, key);
            else if (known !== key) mismatches++;
            if (handCategory(value) !== naive[0]) mismatches++;
            categoryCounts[handCategory(value)]!++;
            hands++;
          }
  t.is(hands, 2598960);
  t.is(mismatches, 0, "hands with one value must have one naive rank and the same category");
  t.is(keyOfValue.size, 7462);
  const values = [...keyOfValue.keys()].sort((x, y) => x - y);
  t.is(values[0], 1);
  t.is(values.at(-1), HAND_CLASSES);
  // Strictly increasing values must mean strictly increasing naive ranks.
  let outOfOrder = 0;
  for (let i = 1; i < values.length; i++) {
    if (keyOfValue.get(values[i]!)! <= keyOfValue.get(values[i - 1]!)!) outOfOrder++;
  }
  t.is(outOfOrder, 0);
  t.deepEqual(categoryCounts, [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]);
});

test("known five-card hands", (t) => {
  t.is(handCategory(evaluateCards(cards("Ah Kh Qh Jh Th"))), HandCategory.StraightFlush);
  t.is(evaluateCards(cards("Ah Kh Qh Jh Th")), HAND_CLASSES);
  t.is(evaluateCards(cards("7c 5d 4h 3s 2c")), 1, "7-5-4-3-2 offsuit is the worst hand");
  t.is(handCategory(evaluateCards(cards("5s 4s 3s 2s As"))), HandCategory.StraightFlush);
  t.is(handCategory(evaluateCards(cards("5s 4d 3s 2s As"))), HandCategory.Straight);
  t.true(
    evaluateCards(cards("6s 5d 4s 3s 2s")) > evaluateCards(cards("5s 4d 3s 2s As")),
    "six-high straight beats the wheel",
  );
  t.true(evaluateCards(cards("As Ad Ac Ah 2c")) > evaluateCards(cards("Ks Kd Kc Kh Qc")));
  t.true(evaluateCards(cards("2s 2d 2c 3h 3c")) > evaluateCards(cards("As Ks 9s 5s 3s")), "full house beats flush");
  t.true(evaluateCards(cards("As Ad Kc Kh 3c")) > evaluateCards(cards("As Ad Kc Kh 2c")), "kicker counts");
  t.is(evaluateCards(cards("As Ad Kc Kh 3c")), evaluateCards(cards("Ah Ac Ks Kd 3d")), "suits do not matter");
});

const distinct7 = (deck: readonly number[]) =>
  fc
    .shuffledSubarray([...deck], { minLength: 7, maxLength: 7 })
    .chain((h) => fc.shuffledSubarray(h, { minLength: 7, maxLength: 7 }));

const FULL = Array.from({ length: 52 }, (_, i) => i);
// Narrow decks make flushes, straights, full houses and quads common instead of rare.
const TWO_SUITS = FULL.filter((c) => c % 4 < 2);
const arbitraryHand = fc.oneof(
  distinct7(FULL),
  distinct7(TWO_SUITS),
  fc.integer({ min: 0, max: 8 }).chain((low) => distinct7(FULL.filter((c) => c >> 2 >= low && c >> 2 < low + 5))),
  distinct7(FULL.filter((c) => c >> 2 <= 4 || c >> 2 === 12)),
);

test("evaluate7 orders random 7-card hands like the naive best-of-21", (t) => {
  fc.assert(
    fc.property(arbitraryHand, arbitraryHand, (x, y) => {
      const vx = evaluate7(x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, x[6]!);
      const vy = evaluate7(y[0]!, y[1]!, y[2]!, y[3]!, y[4]!, y[5]!, y[6]!);
      const nx = naiveBest(x);
      const ny = naiveBest(y);
      return Math.sign(vx - vy) === compareNaive(nx, ny) && handCategory(vx) === nx[0] && vx === evaluateCards(x);
    }),
    { numRuns: 20000 },
  );
  t.pass();
});

test("evaluateCards on six cards is the best of its five-card subsets", (t) => {
  fc.assert(
    fc.property(arbitraryHand, (h) => {
      const six = h.slice(0, 6);
      const best = Math.max(...combinations(six, 5).map((f) => evaluate5(f[0]!, f[1]!, f[2]!, f[3]!, f[4]!)));
      return evaluateCards(six) === best && handCategory(best) === naiveBest(six)[0];
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

test("evaluate7 equals the best of its 21 five-card subsets", (t) => {
  fc.assert(
    fc.property(arbitraryHand, (h) => {
      const best = Math.max(...combinations(h, 5).map((f) => evaluate5(f[0]!, f[1]!, f[2]!, f[3]!, f[4]!)));
      return evaluate7(h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!) === best;
    }),
    { numRuns: 5000 },
  );
  t.pass();
});

/** Value of any 5..7 distinct cards through the incremental keys, as hot loops use them. */
function incremental(cs: readonly number[]): number {
  let rk = 0;
  let sk = SUIT_KEY_START;
  for (const c of cs) {
    rk += CARD_RANK_KEY[c]!;
    sk += CARD_SUIT_KEY[c]!;
  }
  if ((sk & FLUSH_CHECK_MASK) === 0) return valueOfRankKey(rk);
  const suit = flushSuitOf(sk);
  let mask = 0;
  for (const c of cs) if (c % 4 === suit) mask |= CARD_RANK_BIT[c]!;
  return valueOfFlushMask(mask);
}

test("the incremental keys give the same values as evaluate5, evaluate7 and evaluateCards", (t) => {
  fc.assert(
    fc.property(arbitraryHand, fc.integer({ min: 5, max: 7 }), (h, n) => {
      const cs = h.slice(0, n);
      const expected =
        n === 5
          ? evaluate5(cs[0]!, cs[1]!, cs[2]!, cs[3]!, cs[4]!)
          : n === 7
            ? evaluate7(cs[0]!, cs[1]!, cs[2]!, cs[3]!, cs[4]!, cs[5]!, cs[6]!)
            : evaluateCards(cs);
      return incremental(cs) === expected && evaluateCards(cs) === expected;
    }),
    { numRuns: 20000 },
  );
  t.pass();
});

test("all 133,784,560 seven-card hands: standard category frequencies, 4824 distinct values", (t) => {
  // Nested loops adding one card's keys per level, as the equity enumeration does.
  const perValue = new Float64Array(HAND_CLASSES + 1);
  const RK = CARD_RANK_KEY;
  const SK = CARD_SUIT_KEY;
  for (let a = 0; a < 46; a++) {
    const ra = RK[a]!,
      sa = SUIT_KEY_START + SK[a]!;
    for (let b = a + 1; b < 47; b++) {
      const rb = ra + RK[b]!,
        sb = sa + SK[b]!;
      for (let c = b + 1; c < 48; c++) {
        const rc = rb + RK[c]!,
          sc = sb + SK[c]!;
        for (let d = c + 1; d < 49; d++) {
          const rd = rc + RK[d]!,
            sd = sc + SK[d]!;
          for (let e = d + 1; e < 50; e++) {
            const re = rd + RK[e]!,
              se = sd + SK[e]!;
            for (let f = e + 1; f < 51; f++) {
              const rf = re + RK[f]!,
                sf = se + SK[f]!;
              for (let g = f + 1; g < 52; g++) {
                const s = sf + SK[g]!;
                const v =
                  (s & FLUSH_CHECK_MASK) === 0 ? valueOfRankKey(rf + RK[g]!) : incremental([a, b, c, d, e, f, g]);
                perValue[v]!++;
              }
            }
          }
        }
      }
    }
  }
  const perCategory = new Array<number>(9).fill(0);
  let distinct = 0;
  perValue.forEach((count, value) => {
    if (count === 0) return;
    distinct++;
    perCategory[handCategory(value)]! += count;
  });
  t.deepEqual(perCategory, [23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 41584]);
  t.is(distinct, 4824);
});

test("evaluateCards and handCategory reject bad input", (t) => {
  t.throws(() => evaluateCards(cards("As Ks Qs Js")));
  t.throws(() => evaluateCards(cards("As Ks Qs Js Ts 9s 8s 7s")));
  t.throws(() => evaluateCards(cards("As Ks Qs Js As")));
  t.throws(() => evaluateCards([0, 1, 2, 3, 52]));
  t.throws(() => evaluateCards([0, 1, 2, 3, 1.5]));
  t.throws(() => handCategory(0));
  t.throws(() => handCategory(HAND_CLASSES + 1));
  t.is(CATEGORY.StraightFlush, HandCategory.StraightFlush);
});
