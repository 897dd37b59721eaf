import type { Profile } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { roleName } from "../auth/roles.js";
import type { PlayerProfileBody } from "./schemas.js";
import { ContractViolation } from "../contract/violation.js";
import { toUnits } from "../contract/money.js";

/** A wallet profile as the spec's player profile; personalTableId only when the player has one. */
export function toPlayerProfile(profile: Profile | undefined): PlayerProfileBody {
  if (!profile) throw new ContractViolation("no profile");
  return {
    playerId: profile.playerId,
    username: profile.username,
    displayName: profile.displayName,
    accountBalance: toUnits(profile.accountBalanceCents),
    avatarImageUrl: profile.avatarImageUrl,
    role: roleName(profile.role),
    isActive: profile.isActive,
    ...(profile.personalTableId === undefined ? {} : { personalTableId: profile.personalTableId }),
  };
}
