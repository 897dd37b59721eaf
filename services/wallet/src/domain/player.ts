// Who a player is, from the identity provider's claims, and what their role entitles them to.
import { DISPLAY_NAME_MAX_LENGTH, requirePlayerId, USERNAME_MAX_LENGTH } from "@pokerodds/common/limits";
import type { Role } from "@pokerodds/common/roles";
import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import { requireText } from "./text.js";

export type { Role };

export interface Claims {
  playerId: string;
  username: string;
  displayName: string;
  role: Role;
}

/** A player as stored: the claims last seen, plus what the wallet adds. */
export interface Player extends Claims {
  avatarImageUrl: string;
  isActive: boolean;
  createdAt: Date;
}

/** web/public/avatars/default.png, which the gateway serves with the web client. */
const DEFAULT_AVATAR_URL = "/avatars/default.png";

export function validateClaims(claims: Claims): Claims {
  return {
    playerId: requirePlayerId("player id", claims.playerId),
    username: requireText("username", claims.username, { required: false, maxLength: USERNAME_MAX_LENGTH }),
    displayName: requireText("display name", claims.displayName, {
      required: false,
      maxLength: DISPLAY_NAME_MAX_LENGTH,
    }),
    role: claims.role,
  };
}

/** decisions.md: PAYING_USER and ADMIN players get a personal table on their profile read. */
export function isEntitledToPersonalTable(role: Role): boolean {
  return role === "PAYING_USER" || role === "ADMIN";
}

export function newPlayer(claims: Claims, createdAt: Date): Player {
  return { ...claims, avatarImageUrl: DEFAULT_AVATAR_URL, isActive: true, createdAt };
}

/** The table after the highest one allocated so far. */
export function nextPersonalTableId(highest: number | null): number {
  return highest === null ? FIRST_PERSONAL_TABLE_ID : highest + 1;
}
