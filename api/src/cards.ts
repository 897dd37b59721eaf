// What the odds and the tables features share: cards, betting stages and a hand's odds.
import { Type, type Static } from "@sinclair/typebox";

export const Card = Type.String({
  pattern: "^[2-9TJQKA][cdhs]$",
  description: "Rank (2-9, T, J, Q, K, A) then suit (c, d, h, s), e.g. Ah",
});

export const Hand = Type.String({ pattern: "^([2-9TJQKA][cdhs]){2}$", description: "Two hole cards, e.g. AhKd" });

export const BettingStage = Type.Union([Type.Literal(-1), Type.Literal(0), Type.Literal(1), Type.Literal(2)], {
  description: "-1 NON_BETTING (river, setup), 0 HOLE, 1 FLOP, 2 TURN",
});

export const HAND_STATUSES = [
  "IN_PLAY_FAVOURITE",
  "IN_PLAY_BETTING_STAGE_ACTIVE",
  "DEAD_CANNOT_WIN",
  "WINNER",
  "LOSER",
] as const;

export const HandOdds = Type.Object(
  {
    handIndex: Type.Integer({ minimum: 0, description: "Zero-based" }),
    bettingStage: BettingStage,
    handStatus: Type.Union(
      HAND_STATUSES.map((name) => Type.Literal(name)),
      {
        description:
          "IN_PLAY_FAVOURITE: highest winPercentage (lowest handIndex on a tie); DEAD_CANNOT_WIN: cannot win or tie; WINNER and LOSER at the river",
      },
    ),
    winPercentage: Type.Number({ minimum: 0, maximum: 100 }),
    drawPercentage: Type.Number({ minimum: 0, maximum: 100 }),
    odds: Type.Number({
      minimum: 0,
      description:
        "Displayed decimal odds: nearest 0.1 of (1 / win probability) x target RTP; 0 when the hand cannot win",
    }),
  },
  { additionalProperties: false },
);

export type HandOddsBody = Static<typeof HandOdds>;
