import { RANK_CHARS, SUIT_CHARS } from "@pokerodds/common/card-codes";
import { Type, type Static } from "@sinclair/typebox";
import { BettingStage, Card, EXAMPLE_COMMITMENT, EXAMPLE_SEED, Hand, HandOdds, seedHex } from "./cards.js";
import { apiPart } from "./operation.js";
import { integerFrom, nullable, oneOfIntegers, targetRtp } from "./fields.js";
import {
  BULK_HAND_COUNTS,
  BULK_MAX_GAMES,
  BULK_MIN_GAMES,
  DEFAULT_TARGET_RTP,
  MAX_HANDS_PER_GAME,
  MIN_HANDS_PER_GAME,
} from "@pokerodds/common/limits";

export const DealRequest = Type.Object(
  {
    numberOfHands: Type.Optional(
      integerFrom(MIN_HANDS_PER_GAME, MAX_HANDS_PER_GAME, { default: 4, description: "Hands to deal" }),
    ),
  },
  { additionalProperties: false, description: "The body is optional; absent fields take their defaults" },
);

export const DealResult = Type.Object(
  {
    hands: Type.Array(Hand),
    handOdds: Type.Array(HandOdds, { description: "Pre-flop odds (bettingStage 0), one per hand" }),
    remainingDeck: Type.Array(Card, { description: "The 52 - 2 x numberOfHands undealt cards" }),
    gameId: Type.String({ description: "DEAL-<uuid>: with the seed, what the deck is derived from" }),
    serverSeed: seedHex("The deck is derived from it and gameId (docs/provably-fair.md)"),
    seedCommitment: seedHex("SHA-256 of serverSeed's bytes"),
  },
  { additionalProperties: false },
);

export const BulkRequest = Type.Object(
  {
    numberOfGames: Type.Optional(integerFrom(BULK_MIN_GAMES, BULK_MAX_GAMES, { default: 50 })),
    numberOfHands: Type.Optional(oneOfIntegers(BULK_HAND_COUNTS, { default: 3 })),
    targetRtp: Type.Optional(targetRtp({ default: DEFAULT_TARGET_RTP, description: "Target return to player" })),
  },
  { additionalProperties: false, description: "The body is optional; absent fields take their defaults" },
);

const BulkHandStageInfo = Type.Object(
  {
    handIndex: Type.Integer({ minimum: 0 }),
    bettingStage: BettingStage,
    percentWin: Type.Number({ minimum: 0, maximum: 100, description: "Outright win" }),
    percentDraw: Type.Number({ minimum: 0, maximum: 100 }),
    percentWinOrDraw: Type.Number({ description: "percentWin + percentDraw, rounded to 1 decimal place" }),
    oddsActual: Type.Number({
      description:
        "1 / win probability, where the win probability is the hand's dead-heat share: P(wins alone) + the sum over ties of P(tie with k - 1 other hands) / k, since a k-way tie pays odds / k; 0 when percentWin is 0",
    }),
    oddsMargin: Type.Number({ description: "oddsActual x targetRtp" }),
    oddsRounded: Type.Number({ description: "Displayed odds: oddsMargin rounded to the nearest 0.1" }),
    actualRtp: Type.Number({
      description: "oddsRounded / oddsActual: the expected return of a unit bet at the displayed odds, ties included",
    }),
    roundingRake: Type.Number({
      description:
        "(oddsMargin - oddsRounded) / oddsActual: what rounding the odds takes from the return (negative: gives)",
    }),
    statusIsWinner: Type.Boolean({ description: "True only at the river, for a winning or tied hand" }),
    statusCantLose: Type.Boolean({ description: "percentWin + percentDraw >= 99.9" }),
    statusIsFavourite: Type.Boolean({ description: "Highest win percentage at that stage" }),
    statusBestRtp: Type.Boolean({ description: "Among hands with percentWin > 0, the highest oddsRounded" }),
    bestFiveCards: nullable(Type.String(), "Five card codes, most significant first; null at HOLE"),
    handDescShort: nullable(Type.String(), "Null at HOLE"),
    handDescLong: nullable(Type.String(), "Null at HOLE"),
  },
  { additionalProperties: false },
);

export const BulkGameState = Type.Object(
  {
    gameId: Type.String({ pattern: "^BULK-\\d{4,}$", description: "BULK-0001, BULK-0002, ... within a batch" }),
    numberOfHands: Type.Integer(),
    numberOfBettingStages: Type.Literal(3, { description: "HOLE, FLOP, TURN; the river is reveal-only" }),
    hands: Type.Array(Hand),
    bc1: Card,
    bc2: Card,
    bc3: Card,
    bc4: Card,
    bc5: Card,
    handStageInfoList: Type.Array(BulkHandStageInfo, {
      description:
        "numberOfHands x 4 entries: by stage (HOLE, FLOP, TURN, RIVER with bettingStage -1), then hand index",
    }),
    serverSeed: seedHex("The deck is derived from it and gameId (docs/provably-fair.md)"),
    seedCommitment: seedHex("SHA-256 of serverSeed's bytes"),
  },
  { additionalProperties: false },
);

export const BulkResponse = Type.Object(
  {
    games: Type.Array(BulkGameState),
    numberOfGames: Type.Integer({ description: "Games actually returned" }),
    numberOfHands: Type.Integer(),
    targetRtp: Type.Number(),
    generatedAt: Type.String({ format: "date-time" }),
  },
  { additionalProperties: false },
);

export type DealResultBody = Static<typeof DealResult>;
export type BulkResponseBody = Static<typeof BulkResponse>;

const EXAMPLE_HANDS = ["AhAd", "KsKc"];
/** The 48 cards the example hands leave, in a fixed order (a real deal's order is shuffled). */
const EXAMPLE_DECK = [...RANK_CHARS]
  .flatMap((rank) => [...SUIT_CHARS].map((suit) => rank + suit))
  .filter((card) => !EXAMPLE_HANDS.join("").includes(card));

const EXAMPLE_BULK_HANDS = [...EXAMPLE_HANDS, "QhJh"];
/** Each hand's best five cards and their descriptions, as the odds service gives them: at the flop, and from the turn on. */
const EXAMPLE_BEST = [
  { flop: "Ah Ad Kh 7d 2c", later: "Ah Ad Kh 9s 7d", short: "Pair", long: "Pair of Aces" },
  { flop: "Ks Kh Kc 7d 2c", later: "Ks Kh Kc 9s 7d", short: "Three of a Kind", long: "Three of a Kind, Kings" },
  { flop: "Kh Qh Jh 7d 2c", later: "Kh Qh Jh 9s 7d", short: "High Card", long: "High Card, King" },
];

/**
 * Each hand's [percentWin, percentDraw, oddsActual] by stage (HOLE, FLOP, TURN, RIVER) in the example
 * bulk game, AhAd, KsKc and QhJh on Kh 7d 2c 9s 3h, as the odds service prices it (exact; the hole's
 * draws are three-way ties, so oddsActual is 1 / (win + draw / 3)).
 */
const EXAMPLE_EQUITIES: readonly (readonly [number, number, number])[][] = [
  [
    [66.5761, 0.3003, 1.4997844561913591],
    [17.2939, 0.3003, 5.749099663352384],
    [15.8296, 0.3003, 6.277572541644277],
  ],
  [
    [8.0842, 0, 12.36986301369863],
    [87.0432, 0, 1.1488549618320612],
    [4.8726, 0, 20.522727272727273],
  ],
  [
    [4.7619, 0, 21],
    [85.7143, 0, 1.1666666666666667],
    [9.5238, 0, 10.5],
  ],
  [
    [0, 0, 0],
    [100, 0, 1],
    [0, 0, 0],
  ],
];

/** The example game's hands at one stage, each field worked out as the field's description says. */
function exampleStage(stage: number) {
  const river = stage === 3;
  const rows = EXAMPLE_EQUITIES[stage]!.map(([percentWin, percentDraw, oddsActual]) => ({
    percentWin,
    percentDraw,
    oddsActual,
    oddsRounded: Math.round(oddsActual * 0.97 * 10) / 10,
  }));
  const favourite = Math.max(...rows.map((row) => row.percentWin));
  const bestRtp = Math.max(...rows.filter((row) => row.percentWin > 0).map((row) => row.oddsRounded));
  return rows.map(({ percentWin, percentDraw, oddsActual, oddsRounded }, handIndex) => {
    const best = EXAMPLE_BEST[handIndex]!;
    return {
      handIndex,
      bettingStage: river ? -1 : stage,
      percentWin,
      percentDraw,
      percentWinOrDraw: Math.round((percentWin + percentDraw) * 10) / 10,
      oddsActual,
      oddsMargin: oddsActual * 0.97,
      oddsRounded,
      actualRtp: oddsActual > 0 ? oddsRounded / oddsActual : 0,
      roundingRake: oddsActual > 0 ? (oddsActual * 0.97 - oddsRounded) / oddsActual : 0,
      statusIsWinner: river && percentWin + percentDraw > 0,
      statusCantLose: percentWin + percentDraw >= 99.9,
      statusIsFavourite: percentWin === favourite,
      statusBestRtp: percentWin > 0 && oddsRounded === bestRtp,
      bestFiveCards: stage === 0 ? null : stage === 1 ? best.flop : best.later,
      handDescShort: stage === 0 ? null : best.short,
      handDescLong: stage === 0 ? null : best.long,
    };
  });
}

export const oddsApi = apiPart(
  "dealing",
  { DealRequest, DealResult, BulkRequest, BulkResponse },
  {
    deal: {
      method: "post",
      path: "/api/deal",
      summary: "A stand-alone deal with pre-flop odds",
      body: { schema: "DealRequest", required: false },
      ok: "DealResult",
      errors: [503],
      example: {
        body: { numberOfHands: 2 },
        ok: {
          hands: EXAMPLE_HANDS,
          handOdds: [
            {
              handIndex: 0,
              bettingStage: 0,
              handStatus: "IN_PLAY_FAVOURITE",
              winPercentage: 81.0646,
              drawPercentage: 0.3818,
              odds: 1.2,
            },
            {
              // Priced from the share 18.5536 + 0.3818 / 2 % (a tie pays half): 0.97 / 0.187445 = 5.17.
              handIndex: 1,
              bettingStage: 0,
              handStatus: "IN_PLAY_BETTING_STAGE_ACTIVE",
              winPercentage: 18.5536,
              drawPercentage: 0.3818,
              odds: 5.2,
            },
          ],
          remainingDeck: EXAMPLE_DECK,
          gameId: "DEAL-6f1c2a0e-8a54-4d7e-9a3b-2f7c1d9e0b11",
          serverSeed: EXAMPLE_SEED,
          seedCommitment: EXAMPLE_COMMITMENT,
        },
      },
    },
    generateBulk: {
      method: "post",
      path: "/api/games/bulk",
      heavy: true,
      summary: "Pre-computed full games",
      body: { schema: "BulkRequest", required: false },
      ok: "BulkResponse",
      errors: [503],
      example: {
        body: { numberOfGames: 1, numberOfHands: 3, targetRtp: 0.97 },
        ok: {
          games: [
            {
              gameId: "BULK-0001",
              numberOfHands: 3,
              numberOfBettingStages: 3,
              hands: EXAMPLE_BULK_HANDS,
              bc1: "Kh",
              bc2: "7d",
              bc3: "2c",
              bc4: "9s",
              bc5: "3h",
              handStageInfoList: EXAMPLE_EQUITIES.flatMap((_, stage) => exampleStage(stage)),
              serverSeed: EXAMPLE_SEED,
              seedCommitment: EXAMPLE_COMMITMENT,
            },
          ],
          numberOfGames: 1,
          numberOfHands: 3,
          targetRtp: 0.97,
          generatedAt: "2026-11-23T12:00:00.000Z",
        },
      },
    },
  },
);
