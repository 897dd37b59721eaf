// The verified caller as the backends' contracts carry it.
import type { Caller } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import type { Claims } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import type { Identity } from "./identity.js";
import { toWalletRole } from "./roles.js";

/** For the wallet's GetProfile, which creates the player on first read and keeps names and role current. */
export function claimsOf(identity: Identity): Claims {
  return {
    playerId: identity.playerId,
    username: identity.username,
    displayName: identity.displayName,
    role: toWalletRole(identity.role),
  };
}

/** For the table service: the player the request acts for (actingPlayerId's), with the caller's role. */
export function callerFor(identity: Identity, playerId: string = identity.playerId): Caller {
  return { playerId, role: toWalletRole(identity.role) };
}
