import {
  MovementKind,
  RefusalReason,
  type LedgerEntry,
  type ListLedgerResponse,
  type Profile,
} from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import type { PlayerSeat } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { roleName } from "../auth/caller.js";
import type { AccountStatementBody, PlayerProfileBody, PlayerSeatsBody } from "@pokerodds/api/players";
import { ContractViolation } from "@pokerodds/api/violation";
import { toSignedUnits, toUnits } from "@pokerodds/api/money";

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

type StatementEntry = AccountStatementBody["entries"][number];

const KINDS = new Map<MovementKind, StatementEntry["kind"]>([
  [MovementKind.MOVEMENT_KIND_WELCOME, "WELCOME"],
  [MovementKind.MOVEMENT_KIND_DEBIT, "DEBIT"],
  [MovementKind.MOVEMENT_KIND_CREDIT, "CREDIT"],
  [MovementKind.MOVEMENT_KIND_DEPOSIT, "DEPOSIT"],
  [MovementKind.MOVEMENT_KIND_WITHDRAW, "WITHDRAW"],
]);

const REFUSALS = new Map<RefusalReason, StatementEntry["refusal"]>([
  [RefusalReason.REFUSAL_REASON_UNSPECIFIED, null],
  [RefusalReason.REFUSAL_REASON_INSUFFICIENT_FUNDS, "INSUFFICIENT_FUNDS"],
  [RefusalReason.REFUSAL_REASON_BALANCE_LIMIT, "BALANCE_LIMIT"],
]);

function toStatementEntry(entry: LedgerEntry): StatementEntry {
  const kind = KINDS.get(entry.kind);
  const refusal = REFUSALS.get(entry.refusalReason);
  const at = Date.parse(entry.createdAt);
  if (kind === undefined || refusal === undefined || Number.isNaN(at)) {
    throw new ContractViolation(`ledger entry ${entry.sequence} of kind ${entry.kind} at ${entry.createdAt}`);
  }
  return {
    sequence: entry.sequence,
    at: new Date(at).toISOString(),
    kind,
    reason: entry.reason,
    amount: toSignedUnits(entry.amountCents),
    balanceAfter: toUnits(entry.balanceAfterCents),
    applied: entry.applied,
    requested: toUnits(entry.requestedCents),
    refusal,
    reference: entry.reference,
    tableId: entry.tableId ?? null,
  };
}

/** A page of the wallet's ledger, newest first, as the account statement. */
export function toAccountStatement(page: ListLedgerResponse): AccountStatementBody {
  return {
    entries: page.entries.map(toStatementEntry),
    nextBefore: page.nextBeforeSequence === 0 ? null : page.nextBeforeSequence,
  };
}
