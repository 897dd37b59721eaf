import { Type, type Static } from "@sinclair/typebox";
import { BettingStage, Card, Hand, HandOdds } from "./cards.js";
import { apiPart } from "./operation.js";
import { integerFrom, nullable, oneOfIntegers, openInterval } from "./fields.js";

export const DealRequest = Type.Object(
  { numberOfHands: Type.Optional(integerFrom(2, 6, { default: 4, description: "Hands to deal" })) },
  { additionalProperties: false, description: "The body is optional; absent fields take their defaults" },
);

export const DealResult = Type.Object(
  {
    hands: Type.Array(Hand),
    handOdds: Type.Array(HandOdds, { description: "Pre-flop odds (bettingStage 0), one per hand" }),
    remainingDeck: Type.Array(Card, { description: "The 52 - 2 x numberOfHands undealt cards" }),
  },
  { additionalProperties: false },
);

export const BulkRequest = Type.Object(
  {
    numberOfGames: Type.Optional(integerFrom(1, 200, { default: 50 })),
    numberOfHands: Type.Optional(oneOfIntegers([3, 4], { default: 3 })),
    targetRtp: Type.Optional(openInterval(0, 1, { default: 0.97, description: "Target return to player" })),
  },
  { additionalProperties: false, description: "The body is optional; absent fields take their defaults" },
);

export const BulkHandStageInfo = Type.Object(
  {
    handIndex: Type.Integer({ minimum: 0 }),
    bettingStage: BettingStage,
    percentWin: Type.Number({ minimum: 0, maximum: 100, description: "Outright win" }),
    percentDraw: Type.Number({ minimum: 0, maximum: 100 }),
    percentWinOrDraw: Type.Number({ description: "percentWin + percentDraw, rounded to 1 decimal place" }),
    oddsActual: Type.Number({ description: "1 / win probability; 0 when percentWin is 0" }),
    oddsMargin: Type.Number({ description: "oddsActual x targetRtp" }),
    oddsRounded: Type.Number({ description: "Displayed odds: oddsMargin rounded to the nearest 0.1" }),
    actualRtp: Type.Number({ description: "oddsRounded / oddsActual" }),
    roundingRake: Type.Number({ description: "(oddsMargin - oddsRounded) / oddsActual" }),
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
    },
    generateBulk: {
      method: "post",
      path: "/api/games/bulk",
      heavy: true,
      summary: "Pre-computed full games",
      body: { schema: "BulkRequest", required: false },
      ok: "BulkResponse",
      errors: [503],
    },
  },
);
