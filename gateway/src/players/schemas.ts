import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import { Type, type Static } from "@sinclair/typebox";
import { ROLES } from "../auth/identity.js";
import { amount, playerId } from "../contract/fields.js";

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
