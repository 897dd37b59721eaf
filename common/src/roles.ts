// A player's role, as a token claims it, the wallet stores it and the public profile shows it: one
// list, and its one mapping to the wire (wallet.proto's Role).
import { Role as ProtoRole } from "./generated/pokerodds/wallet/v1/wallet.js";

export const ROLES = ["BASIC_USER", "PAYING_USER", "ANON_USER", "ADMIN"] as const;

export type Role = (typeof ROLES)[number];

const TO_PROTO: Record<Role, ProtoRole> = {
  BASIC_USER: ProtoRole.ROLE_BASIC_USER,
  PAYING_USER: ProtoRole.ROLE_PAYING_USER,
  ANON_USER: ProtoRole.ROLE_ANON_USER,
  ADMIN: ProtoRole.ROLE_ADMIN,
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export const roleToProto = (role: Role): ProtoRole => TO_PROTO[role];

/** The role a wire value names; undefined for UNSPECIFIED or one this build does not know (each reader decides). */
export const roleFromProto = (role: ProtoRole): Role | undefined => ROLES.find((name) => TO_PROTO[name] === role);
