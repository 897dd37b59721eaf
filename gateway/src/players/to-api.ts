import type { Profile } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import type { PlayerSeat } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { roleName } from "../auth/caller.js";
import type { PlayerProfileBody, PlayerSeatsBody } from "@pokerodds/api/players";
import { ContractViolation } from "@pokerodds/api/violation";
import { toUnits } from "@pokerodds/api/money";

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

/** The player's seats, amounts in units. */
export function toPlayerSeats(seats: readonly PlayerSeat[]): PlayerSeatsBody {
  return {
    seats: seats.map((seat) => ({
      tableId: seat.tableId,
      seatId: seat.seatId,
      seatBalance: toUnits(seat.seatBalanceCents),
    })),
  };
}
