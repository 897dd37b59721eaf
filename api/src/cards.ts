// What the odds and the tables features share: cards, betting stages and a hand's odds.
import { HAND_STATUSES } from "@pokerodds/common/hand-odds";
import { CARD_CODE_PATTERN } from "@pokerodds/common/card-codes";
import { Type, type Static } from "@sinclair/typebox";
import { CLIENT_SEED_MAX_LENGTH, CLIENT_SEED_PATTERN, CLIENT_SEED_RULE, SEED_HEX } from "@pokerodds/common/limits";
import { MUST_BE } from "./fields.js";

export const Card = Type.String({
  pattern: `^${CARD_CODE_PATTERN}$`,
  description: "Rank (2-9, T, J, Q, K, A) then suit (c, d, h, s), e.g. Ah",
});

export const Hand = Type.String({ pattern: `^(${CARD_CODE_PATTERN}){2}$`, description: "Two hole cards, e.g. AhKd" });

export const BettingStage = Type.Union([Type.Literal(-1), Type.Literal(0), Type.Literal(1), Type.Literal(2)], {
  description: "-1 NON_BETTING (river, setup), 0 HOLE, 1 FLOP, 2 TURN",
});

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
        "Displayed decimal odds: nearest 0.1 of (1 / win probability) x target RTP, where the win probability is the hand's dead-heat share (P(wins alone) + the sum over ties of P(tie with k - 1 other hands) / k, as a k-way tie pays odds / k); 0 when the hand cannot win alone",
    }),
  },
  { additionalProperties: false },
);

export type HandOddsBody = Static<typeof HandOdds>;

/** A server seed or its SHA-256 commitment (docs/provably-fair.md): 64 lowercase hexadecimal digits. */
export const seedHex = (description?: string) =>
  Type.String({ pattern: SEED_HEX.source, ...(description ? { description } : {}) });

/** A player's client seed, mixed into a table game's deck (docs/provably-fair.md). */
export const clientSeed = (description: string) =>
  Type.String({
    pattern: CLIENT_SEED_PATTERN.source,
    maxLength: CLIENT_SEED_MAX_LENGTH,
    description,
    [MUST_BE]: CLIENT_SEED_RULE,
  });

/** For the document's examples: a seed and its true commitment (the examples' cards are not dealt from it). */
export const EXAMPLE_SEED = "5eed".repeat(16);
export const EXAMPLE_COMMITMENT = "f9fa5c699354e46a448f75765ae99bf06741d541ab6c337c0f3722850adbb136";
