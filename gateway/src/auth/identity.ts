import { DISPLAY_NAME_MAX_LENGTH, fitText, USERNAME_MAX_LENGTH } from "@pokerodds/common/limits";
import type { JWTPayload } from "jose";

/** The roles a token may claim; any other counts as BASIC_USER. */
export const ROLES = ["BASIC_USER", "PAYING_USER", "ANON_USER", "ADMIN"] as const;

export type Role = (typeof ROLES)[number];

/** The verified caller, as decisions.md maps the token's claims. */
export interface Identity {
  playerId: string;
  username: string;
  displayName: string;
  role: Role;
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Claims of a verified token; sub has been checked to be a non-empty string. */
export function identityFromClaims(claims: JWTPayload & { sub: string }): Identity {
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  const username = text(claims.email) ?? text(claims.preferred_username) ?? claims.sub;
  // Names are shown, not identifiers: shortened to what the wallet stores rather than refused.
  return {
    playerId: claims.sub,
    username: fitText(username, USERNAME_MAX_LENGTH),
    displayName: fitText(text(claims.name) ?? username, DISPLAY_NAME_MAX_LENGTH),
    role: isRole(claims.role) ? claims.role : "BASIC_USER",
  };
}
