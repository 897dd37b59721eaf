import test from "ava";
import fc from "fast-check";
import { formatCard, parseCard } from "@pokerodds/common/poker/cards";
import { describeHand } from "../src/domain/describe.js";
import { evaluate5, evaluateCards, handCategory } from "@pokerodds/common/poker/evaluator";

const cards = (s: string): number[] => (s.match(/\S\S/g) ?? []).map(parseCard);
const describe = (s: string) => {
  const d = describeHand(cards(s));
  return { best: d.bestFive.map(formatCard).join(" "), short: d.short, long: d.long };
};

const cases: [string, string, string, string][] = [
  // input, bestFive, short, long
  ["2c 7d 9h Jc As", "As Jc 9h 7d 2c", "High Card", "High Card, Ace"],
  ["Kd 3c Ks 9h 4d", "Ks Kd 9h 4d 3c", "Pair", "Pair of Kings"],
  ["7h Kc 2d 7s Kd", "Kd Kc 7s 7h 2d", "Two Pair", "Two Pair, Kings and Sevens"],
  ["5c 5d Ah 5s 9c", "5s 5d 5c Ah 9c", "Three of a Kind", "Three of a Kind, Fives"],
  ["Td Jc Qh Ks Ac", "Ac Ks Qh Jc Td", "Straight", "Straight, Ten to Ace"],
  ["3h Ad 5c 2s 4d", "5c 4d 3h 2s Ad", "Straight", "Straight, Ace to Five"],
  ["Kh 9h 2h 5h 7h", "Kh 9h 7h 5h 2h", "Flush", "Flush, King High"],
  ["4c Qd 4h Qs Qc", "Qs Qd Qc 4h 4c", "Full House", "Full House, Queens over Fours"],
  ["9c 9d 9h 9s 3d", "9s 9h 9d 9c 3d", "Four of a Kind", "Four of a Kind, Nines"],
  ["7c 5c 9c 6c 8c", "9c 8c 7c 6c 5c", "Straight Flush", "Straight Flush, Five to Nine"],
  ["Ad 2d 3d 4d 5d", "5d 4d 3d 2d Ad", "Straight Flush", "Straight Flush, Ace to Five"],
  ["Ts Js Qs Ks As", "As Ks Qs Js Ts", "Royal Flush", "Royal Flush"],
  // Six and seven cards: the best five are picked.
  ["2c 7d 9h Jc As 3d", "As Jc 9h 7d 3d", "High Card", "High Card, Ace"],
  ["Ah Kh Qh Jh Th 9h", "Ah Kh Qh Jh Th", "Royal Flush", "Royal Flush"],
  ["9h Kh Qh Jh Th 8h 2c", "Kh Qh Jh Th 9h", "Straight Flush", "Straight Flush, Nine to King"],
  ["Ac 2d 3h 4s 5c 6d Kh", "6d 5c 4s 3h 2d", "Straight", "Straight, Two to Six"],
  ["Ac 2d 3h 4s 5c Kd Kh", "5c 4s 3h 2d Ac", "Straight", "Straight, Ace to Five"],
  ["As Ad Ac Kh Kd Kc 2s", "As Ad Ac Kh Kd", "Full House", "Full House, Aces over Kings"],
  ["7h 7d 5c 5s 3h 3d Ac", "7h 7d 5s 5c Ac", "Two Pair", "Two Pair, Sevens and Fives"],
  ["7h 7d 5c 5s 3h 3d 2c", "7h 7d 5s 5c 3h", "Two Pair", "Two Pair, Sevens and Fives"],
  ["9c 9d 9h 9s Kd Kh 2c", "9s 9h 9d 9c Kh", "Four of a Kind", "Four of a Kind, Nines"],
  ["2h 5h 9h Jh Kh Ah 2c", "Ah Kh Jh 9h 5h", "Flush", "Flush, Ace High"],
  ["Qs Qh Qd 8c 8d 4s 4h", "Qs Qh Qd 8d 8c", "Full House", "Full House, Queens over Eights"],
  ["2c 3c 4c 5c 6d 7d 8d", "8d 7d 6d 5c 4c", "Straight", "Straight, Four to Eight"],
];

for (const [input, best, short, long] of cases) {
  test(`describeHand(${input})`, (t) => {
    t.deepEqual(describe(input), { best, short, long });
  });
}

test("among equal five-card choices the higher suits are picked, whatever the input order", (t) => {
  // Two sevens and two fives available in extra suits; the best five use the highest suits.
  t.is(describe("Ac Kd 7c 7d 7h 7s 2c").best, "7s 7h 7d 7c Ac");
  t.is(describe("Kc Kd Ks 4c 4d 4h 2c").best, "Ks Kd Kc 4h 4d");
  t.is(describe("Td Jc Qh Ks Ac Ts").best, "Ac Ks Qh Jc Ts");
  t.is(describe("Ts Ac Ks Qh Jc Td").best, "Ac Ks Qh Jc Ts");
  t.is(describe("Ah Kh Qc Jd 9s 3c 2d").best, "Ah Kh Qc Jd 9s");
});

const SHORT = ["High Card", "Pair", "Two Pair", "Three of a Kind", "Straight", "Flush", "Full House", "Four of a Kind"];

test("bestFive is a best five of the input, named by its category, whatever the input order", (t) => {
  const FULL = Array.from({ length: 52 }, (_, i) => i);
  const arbitraryCards = fc.oneof(
    fc.shuffledSubarray(FULL, { minLength: 5, maxLength: 7 }),
    fc.shuffledSubarray(
      FULL.filter((c) => c % 4 < 2),
      { minLength: 5, maxLength: 7 },
    ),
  );
  fc.assert(
    fc.property(
      arbitraryCards.chain((cs) =>
        fc.tuple(fc.constant(cs), fc.shuffledSubarray(cs, { minLength: cs.length, maxLength: cs.length })),
      ),
      ([cs, shuffled]) => {
        const d = describeHand(cs);
        const [a, b, c, e, f] = d.bestFive;
        const value = evaluate5(a!, b!, c!, e!, f!);
        const category = handCategory(value);
        const short =
          category === 8 ? (d.bestFive[0]! >> 2 === 12 ? "Royal Flush" : "Straight Flush") : SHORT[category];
        return (
          d.bestFive.length === 5 &&
          d.bestFive.every((x) => cs.includes(x)) &&
          value === evaluateCards(cs) &&
          d.short === short &&
          JSON.stringify(describeHand(shuffled)) === JSON.stringify(d)
        );
      },
    ),
    { numRuns: 3000 },
  );
  t.pass();
});

test("describeHand rejects bad input", (t) => {
  t.throws(() => describeHand(cards("As Ks Qs Js")));
  t.throws(() => describeHand(cards("As Ks Qs Js Ts 9s 8s 7s")));
  t.throws(() => describeHand(cards("As As Qs Js Ts")));
});
