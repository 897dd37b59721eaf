// Translation between the wire (ts-proto messages and enums) and the domain, in both directions.
import { InvalidArgumentError } from "@pokerodds/common";
import { roleFromProto, roleToProto } from "@pokerodds/common/roles";
import {
  MovementKind as ProtoKind,
  RefusalReason as ProtoRefusal,
  type Role as ProtoRole,
  type AuditResponse,
  type Claims as ProtoClaims,
  type LedgerEntry as ProtoLedgerEntry,
  type Movement,
  type MovementResult,
  type Profile as ProtoProfile,
} from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import type { AuditReport } from "./domain/audit.js";
import {
  validateMovementRequest,
  type LedgerEntry,
  type MovementKind,
  type MovementRequest,
  type Refusal,
  type RequestableKind,
} from "./domain/movement.js";
import { validateClaims, type Claims, type Role } from "./domain/player.js";
import type { MovementOutcome } from "./movements.js";
import type { Profile } from "./profiles.js";

const KIND_TO_PROTO: Record<MovementKind, ProtoKind> = {
  welcome: ProtoKind.MOVEMENT_KIND_WELCOME,
  debit: ProtoKind.MOVEMENT_KIND_DEBIT,
  credit: ProtoKind.MOVEMENT_KIND_CREDIT,
  deposit: ProtoKind.MOVEMENT_KIND_DEPOSIT,
  withdraw: ProtoKind.MOVEMENT_KIND_WITHDRAW,
};

const REFUSAL_TO_PROTO: Record<Refusal, ProtoRefusal> = {
  insufficient_funds: ProtoRefusal.REFUSAL_REASON_INSUFFICIENT_FUNDS,
  balance_limit: ProtoRefusal.REFUSAL_REASON_BALANCE_LIMIT,
};

/** UNSPECIFIED means "not refused". */
const refusalToProto = (refusal: Refusal | null): ProtoRefusal =>
  refusal === null ? ProtoRefusal.REFUSAL_REASON_UNSPECIFIED : REFUSAL_TO_PROTO[refusal];

/** decisions.md: an absent or unknown role claim reads as BASIC_USER. */
function roleOfClaims(role: ProtoRole): Role {
  return roleFromProto(role) ?? "BASIC_USER";
}

export function claimsFromProto(claims: ProtoClaims | undefined): Claims {
  if (!claims) throw new InvalidArgumentError("claims are required");
  return validateClaims({ ...claims, role: roleOfClaims(claims.role) });
}

export function movementFromProto(kind: RequestableKind, movement: Movement | undefined): MovementRequest {
  if (!movement) throw new InvalidArgumentError("movement is required");
  return validateMovementRequest(kind, movement);
}

export function profileToProto(profile: Profile): ProtoProfile {
  return {
    playerId: profile.playerId,
    username: profile.username,
    displayName: profile.displayName,
    accountBalanceCents: profile.accountBalanceCents,
    avatarImageUrl: profile.avatarImageUrl,
    role: roleToProto(profile.role),
    isActive: profile.isActive,
    personalTableId: profile.personalTableId ?? undefined,
    accountNotOpened: profile.accountNotOpened,
  };
}

export function outcomeToProto({ entry, replayed }: MovementOutcome): MovementResult {
  return {
    applied: entry.applied,
    accountBalanceCents: entry.balanceAfterCents,
    entryId: entry.entryId,
    sequence: entry.sequence,
    replayed,
    refusalReason: refusalToProto(entry.refusal),
  };
}

export function ledgerEntryToProto(entry: LedgerEntry): ProtoLedgerEntry {
  return {
    entryId: entry.entryId,
    playerId: entry.playerId,
    sequence: entry.sequence,
    amountCents: entry.amountCents,
    balanceAfterCents: entry.balanceAfterCents,
    reason: entry.reason,
    reference: entry.reference,
    idempotencyKey: entry.idempotencyKey,
    createdAt: entry.createdAt.toISOString(),
    kind: KIND_TO_PROTO[entry.kind],
    applied: entry.applied,
    requestedCents: entry.requestedCents,
    refusalReason: refusalToProto(entry.refusal),
    tableId: entry.tableId,
  };
}

export function auditToProto(report: AuditReport): AuditResponse {
  return {
    ...report,
    reasonTotals: report.reasonTotals.map((total) => ({ ...total, kind: KIND_TO_PROTO[total.kind] })),
  };
}
