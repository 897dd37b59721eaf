import { Role as WalletRole } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import type { Role } from "./identity.js";

const TO_WALLET: Record<Role, WalletRole> = {
  BASIC_USER: WalletRole.ROLE_BASIC_USER,
  PAYING_USER: WalletRole.ROLE_PAYING_USER,
  ANON_USER: WalletRole.ROLE_ANON_USER,
  ADMIN: WalletRole.ROLE_ADMIN,
};

export function toWalletRole(role: Role): WalletRole {
  return TO_WALLET[role];
}

/** The public name of a stored role; one the wallet did not set (or this gateway does not know) is the spec's error value. */
export function roleName(role: WalletRole): Role | "UNSPECIFIED_DUE_TO_ERROR" {
  const found = Object.entries(TO_WALLET).find(([, value]) => value === role);
  return found ? (found[0] as Role) : "UNSPECIFIED_DUE_TO_ERROR";
}
