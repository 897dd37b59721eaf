import { ROLES } from "@pokerodds/common/roles";
import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import { Type, type Static } from "@sinclair/typebox";
import { amount, playerId } from "./fields.js";
import { apiPart } from "./operation.js";

/** The roles a token may claim (common/roles.ts); any other counts as BASIC_USER. */
export { isRole, ROLES, type Role } from "@pokerodds/common/roles";

export const PlayerIdParam = playerId("The token's subject, unless the caller is an ADMIN (else 403)");

export const PlayerProfile = Type.Object(
  {
    playerId: Type.String({ description: "The identity provider's subject (sub)" }),
    username: Type.String({ description: "E-mail-style login name (email claim)" }),
    displayName: Type.String({ description: "The name claim" }),
    accountBalance: amount("Lobby wallet; a new player starts with 1,000"),
    avatarImageUrl: Type.String(),
    role: Type.Union([Type.Literal("UNSPECIFIED_DUE_TO_ERROR"), ...ROLES.map((role) => Type.Literal(role))]),
    isActive: Type.Boolean(),
    personalTableId: Type.Optional(
      Type.Integer({ minimum: FIRST_PERSONAL_TABLE_ID, description: "PAYING_USER and ADMIN only" }),
    ),
  },
  { additionalProperties: false },
);

export type PlayerProfileBody = Static<typeof PlayerProfile>;

export const PlayerSeats = Type.Object(
  {
    seats: Type.Array(
      Type.Object(
        {
          tableId: Type.Integer({ minimum: 1 }),
          seatId: Type.Integer({ description: "What a bet's seatIndex names" }),
          seatBalance: amount("Chips at this seat"),
        },
        { additionalProperties: false },
      ),
      { description: "In table id order; empty when the player sits nowhere" },
    ),
  },
  {
    additionalProperties: false,
    description: "The player's chips at seats: every seat, however long ago the table was played",
  },
);

export type PlayerSeatsBody = Static<typeof PlayerSeats>;

const PLAYER_ID = { name: "playerId", in: "path", required: true, schema: PlayerIdParam };

export const playersApi = apiPart(
  "players",
  { PlayerProfile, PlayerSeats },
  {
    getPlayer: {
      method: "get",
      path: "/api/players/{playerId}",
      summary: "Profile; the first read creates the player and a 1,000 welcome balance",
      parameters: [PLAYER_ID],
      ok: "PlayerProfile",
      errors: [400, 403, 404, 503],
      example: {
        ok: {
          playerId: "alice",
          username: "alice@example.com",
          displayName: "Alice",
          accountBalance: 1000,
          avatarImageUrl: "/avatars/default.png",
          role: "BASIC_USER",
          isActive: true,
        },
      },
      links: {
        sit: {
          operationId: "sit",
          description: "Buy in at public table 1",
          parameters: { tableId: 1 },
          requestBody: { buyInAmount: 100 },
        },
      },
    },
    getPlayerSeats: {
      method: "get",
      path: "/api/players/{playerId}/seats",
      summary: "The player's seats at every table, with their chips (an extension of the spec)",
      parameters: [PLAYER_ID],
      ok: "PlayerSeats",
      errors: [400, 403, 503],
      example: { ok: { seats: [{ tableId: 3, seatId: 1, seatBalance: 150 }] } },
    },
  },
);
