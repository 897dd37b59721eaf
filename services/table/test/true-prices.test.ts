// The table prices every stage itself and refuses odds service panels that differ in any field: a
// price above the cards' chances, or a river winner the cards do not make, would pay from the house.
import { derivedDeal } from "@pokerodds/common/deck-derivation";
import { parseCard, parseHand } from "@pokerodds/common/poker/cards";
import { priceHands } from "@pokerodds/common/poker/stage-odds";
import { DEFAULT_TARGET_RTP } from "@pokerodds/common/limits";
import test from "ava";
import fc from "fast-check";
import { assertTruePrices } from "../src/domain/true-prices.js";
import { UntrueOddsAnswerError } from "../src/domain/untrue-odds-answer.js";
import type { HandOdds, HandStatus } from "../src/domain/types.js";

const RTP = DEFAULT_TARGET_RTP;

/** A game's hands and its board at one stage (0, 3, 4 or 5 cards), from a random seed. */
const spot = fc
  .record({
    seed: fc.uint8Array({ minLength: 32, maxLength: 32 }),
    hands: fc.integer({ min: 2, max: 6 }),
    boardSize: fc.constantFrom(0, 3, 4, 5),
  })
  .map(({ seed, hands, boardSize }) => {
    const deal = derivedDeal({ serverSeed: Buffer.from(seed).toString("hex"), clientSeed: null }, "T1-1", hands);
    return { hands: deal.hands, board: deal.remainingDeck.slice(0, boardSize) };
  });

const truePanels = (hands: readonly string[], board: readonly string[]): HandOdds[] =>
  priceHands(hands.map(parseHand), board.map(parseCard), RTP);

const refused = { instanceOf: UntrueOddsAnswerError };

/** A status of the same stage that is not this one. */
const OTHER_STATUS: Record<HandStatus, HandStatus> = {
  WINNER: "LOSER",
  LOSER: "WINNER",
  IN_PLAY_FAVOURITE: "IN_PLAY_BETTING_STAGE_ACTIVE",
  IN_PLAY_BETTING_STAGE_ACTIVE: "IN_PLAY_FAVOURITE",
  DEAD_CANNOT_WIN: "IN_PLAY_BETTING_STAGE_ACTIVE",
};

test("the true prices of every stage pass, and any one field changed in any panel is refused", (t) => {
  fc.assert(
    fc.property(
      spot,
      fc.nat(),
      fc.constantFrom("winPercentage", "drawPercentage", "oddsTenths", "handStatus"),
      (s, at, field) => {
        const panels = truePanels(s.hands, s.board);
        t.notThrows(() => assertTruePrices(panels, s.hands, s.board, RTP));
        const i = at % panels.length;
        const changed = panels.map((panel, j) => {
          if (j !== i) return panel;
          if (field === "handStatus") return { ...panel, handStatus: OTHER_STATUS[panel.handStatus] };
          return { ...panel, [field]: panel[field] + 1 };
        }) as HandOdds[];
        t.throws(() => assertTruePrices(changed, s.hands, s.board, RTP), refused);
      },
    ),
    { numRuns: 60 },
  );
});

test("a river winner the cards do not make is refused: a losing hand is never paid", (t) => {
  const { hands, board } = { hands: ["AhAd", "KsKc", "7c2d", "QhJh"], board: ["2s", "3s", "9d", "Tc", "4h"] };
  const truth = truePanels(hands, board);
  t.deepEqual(
    truth.map((panel) => panel.handStatus),
    ["WINNER", "LOSER", "LOSER", "LOSER"],
  );
  // The helper's forgery: the losing hand 1 named the sole winner, the true winner a loser.
  const forged = truth.map((panel) => ({
    ...panel,
    handStatus: panel.handIndex === 1 ? ("WINNER" as const) : ("LOSER" as const),
    winPercentage: panel.handIndex === 1 ? 100 : 0,
    oddsTenths: panel.handIndex === 1 ? 10 : 0,
  }));
  // It is logged while the cards are hidden from the players: it names no card and no price.
  t.throws(() => assertTruePrices(forged, hands, board, RTP), {
    ...refused,
    message: "the odds service's handStatus for hand 0, with 5 board cards, is not the table's own",
  });
});

test("panels out of order, missing or extra, at another target RTP, or for cards no deck holds are refused", (t) => {
  const hands = ["AhAd", "KsKc", "QhJh", "7c2d"];
  const board = ["2s", "3s", "9d"];
  const panels = truePanels(hands, board);
  t.throws(() => assertTruePrices([panels[1]!, panels[0]!, ...panels.slice(2)], hands, board, RTP), refused);
  t.throws(() => assertTruePrices(panels.slice(1), hands, board, RTP), refused);
  t.throws(() => assertTruePrices([...panels, panels[0]!], hands, board, RTP), refused);
  t.throws(() => assertTruePrices(panels, hands, board, 0.99), refused);
  // The odds service sent cards twice: an internal fault, never the caller's 400.
  t.throws(() => assertTruePrices(panels, ["AhAd", "AhKs", "QhJh", "7c2d"], board, RTP), {
    ...refused,
    message: "the odds service priced cards the table cannot, with 3 board cards: InvalidOddsRequestError",
  });
});
