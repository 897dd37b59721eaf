import test from "ava";
import { InvalidArgumentError } from "@pokerodds/common/errors";
import { type Card, fullDeck, parseCard } from "@pokerodds/common/poker/cards";
import { dealHoleCards } from "@pokerodds/common/deck-derivation";
import { deal } from "../src/domain/deal.js";
import { exactEquity } from "@pokerodds/common/poker/equity";
import { InvalidOddsRequestError } from "@pokerodds/common/poker/errors";
import { oddsTenths } from "@pokerodds/common/poker/pricing";
import { randomDeck } from "./helpers/random-deck.js";

const codes = (s: string): Card[] => s.split(" ").map(parseCard);

test("a deal of four hands from a random deck: 4 hands, 44 remaining, 52 distinct cards, stage-0 panels", (t) => {
  const result = deal(4, 0.97, randomDeck());
  t.is(result.hands.length, 4);
  t.is(result.remainingDeck.length, 44);
  for (const hand of result.hands) t.regex(hand, /^([2-9TJQKA][cdhs]){2}$/);
  const all = [...result.hands.flatMap((h) => [h.slice(0, 2), h.slice(2)]), ...result.remainingDeck];
  t.is(new Set(all.map(parseCard)).size, 52);
  t.deepEqual(
    result.handOdds.map((p) => [p.handIndex, p.bettingStage]),
    [
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 0],
    ],
  );
  t.is(result.handOdds.filter((p) => p.handStatus === "IN_PLAY_FAVOURITE").length, 1);
  // Pre-flop nobody is dead: every hand can at least tie on some board.
  t.true(result.handOdds.every((p) => p.handStatus !== "DEAD_CANNOT_WIN"));
  // Priced from each hand's exact dead-heat share (pricing.ts), which the panel does not show.
  const { shares } = exactEquity(
    result.hands.map((h) => [parseCard(h.slice(0, 2)), parseCard(h.slice(2))]),
    [],
  );
  for (const p of result.handOdds) {
    t.is(p.oddsTenths, oddsTenths(shares[p.handIndex]!, 0.97));
    t.is(Math.round(p.winPercentage * 1e4) / 1e4, p.winPercentage); // 4 decimals
    t.true(Number.isInteger(p.oddsTenths) && p.oddsTenths > 0);
  }
  const fav = result.handOdds.find((p) => p.handStatus === "IN_PLAY_FAVOURITE")!;
  t.is(fav.winPercentage, Math.max(...result.handOdds.map((p) => p.winPercentage)));
});

test("remainingDeck has 52 - 2n cards for every hand count", (t) => {
  for (const n of [2, 6]) {
    const result = deal(n, 0.97, randomDeck());
    t.is(result.hands.length, n);
    t.is(result.remainingDeck.length, 52 - 2 * n);
    t.is(result.handOdds.length, n);
  }
});

test("hole cards are dealt round-robin and the rest keeps the shuffled order", (t) => {
  const deck = fullDeck().reverse(); // As Ah Ad Ac Ks Kh ...
  const { hands, rest } = dealHoleCards(deck, 3);
  t.deepEqual(hands, [
    [deck[0], deck[3]],
    [deck[1], deck[4]],
    [deck[2], deck[5]],
  ]);
  t.deepEqual(rest, deck.slice(6));

  const result = deal(3, 0.97, deck);
  t.deepEqual(result.hands, ["AsAc", "AhKs", "AdKh"]);
  t.deepEqual(result.remainingDeck.slice(0, 5), ["Kd", "Kc", "Qs", "Qh", "Qd"]);
  t.is(result.remainingDeck.at(-1), "2c");
  t.is(result.remainingDeck.length, 46);
});

test("aces against kings pre-flop: about 82/18, priced from the dead-heat shares", (t) => {
  const [as, ks, ah, kh] = codes("As Ks Ah Kh");
  const deck = [as!, ks!, ah!, kh!, ...fullDeck().filter((c) => ![as, ks, ah, kh].includes(c))];
  const result = deal(2, 0.97, deck);
  t.deepEqual(result.hands, ["AsAh", "KsKh"]);
  const [aces, kings] = result.handOdds;
  // AA against KK is 81-83 % depending on suits (exact values are the equity module's tests).
  t.true(aces!.winPercentage > 81 && aces!.winPercentage < 83, `${aces!.winPercentage}`);
  t.true(kings!.winPercentage > 16.5 && kings!.winPercentage < 18.5, `${kings!.winPercentage}`);
  // Two hands: every board is a win for one of them or a draw for both.
  t.is(aces!.drawPercentage, kings!.drawPercentage);
  t.true(Math.abs(aces!.winPercentage + kings!.winPercentage + aces!.drawPercentage - 100) < 0.0003);
  t.is(aces!.handStatus, "IN_PLAY_FAVOURITE");
  t.is(kings!.handStatus, "IN_PLAY_BETTING_STAGE_ACTIVE");
  t.is(aces!.oddsTenths, 12); // 0.97 / 0.82 = 1.18
  // Two hands tie two ways: the kings' share is their win plus half the draws.
  const share = (kings!.winPercentage + kings!.drawPercentage / 2) / 100;
  t.true(Math.abs(kings!.oddsTenths / 10 - 0.97 / share) <= 0.05 + 1e-6);
  t.true(kings!.oddsTenths >= 52 && kings!.oddsTenths <= 59);
});

test("two identical-strength hands tie for favourite: the lower index wins", (t) => {
  // 2c 2h against 2d 2s: suits are symmetric, so their equities are equal.
  const result = deal(2, 0.97, fullDeck());
  t.deepEqual(result.hands, ["2c2h", "2d2s"]);
  t.is(result.handOdds[0]!.winPercentage, result.handOdds[1]!.winPercentage);
  t.deepEqual(
    result.handOdds.map((p) => p.handStatus),
    ["IN_PLAY_FAVOURITE", "IN_PLAY_BETTING_STAGE_ACTIVE"],
  );
});

test("deal validates numberOfHands 2..6 and 0 < targetRtp < 1", (t) => {
  for (const n of [0, 1, 7, 64, 2.5, Number.NaN, -4]) {
    const error = t.throws(() => deal(n, 0.97, fullDeck()), { instanceOf: InvalidOddsRequestError });
    t.true(error instanceof InvalidArgumentError);
    t.regex(error.message, /numberOfHands/);
  }
  for (const rtp of [0, 1, -0.1, 1.01, Number.NaN, Number.POSITIVE_INFINITY]) {
    t.throws(() => deal(4, rtp, fullDeck()), { instanceOf: InvalidOddsRequestError, message: /targetRtp/ });
  }
});

test("an injected deck must be a permutation of the 52 cards", (t) => {
  t.throws(() => deal(2, 0.97, fullDeck().slice(1)), { instanceOf: RangeError });
  t.throws(
    () =>
      deal(
        2,
        0.97,
        [...fullDeck().slice(1), 0].map((c, i) => (i === 51 ? 1 : c)),
      ),
    {
      instanceOf: RangeError,
    },
  );
});
