// Translation between the wire (ts-proto messages and enums) and the domain, in both directions.
import { InvalidArgumentError } from "@pokerodds/common";
import {
  MovementKind as ProtoKind,
  RefusalReason as ProtoRefusal,
  Role as ProtoRole,
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

const ROLE_TO_PROTO: Record<Role, ProtoRole> = {
  BASIC_USER: ProtoRole.ROLE_BASIC_USER,
  PAYING_USER: ProtoRole.ROLE_PAYING_USER,
  ANON_USER: ProtoRole.ROLE_ANON_USER,
  ADMIN: ProtoRole.ROLE_ADMIN,
};

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
function roleFromProto(role: ProtoRole): Role {
  const known = (Object.keys(ROLE_TO_PROTO) as Role[]).find((name) => ROLE_TO_PROTO[name] === role);
  return known ?? "BASIC_USER";
}

export function claimsFromProto(claims: ProtoClaims | undefined): Claims {
  if (!claims) throw new InvalidArgumentError("claims are required");
  return validateClaims({ ...claims, role: roleFromProto(claims.role) });
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
    role: ROLE_TO_PROTO[profile.role],
    isActive: profile.isActive,
    personalTableId: profile.personalTableId ?? undefined,
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
  };
}

export function auditToProto(report: AuditReport): AuditResponse {
  return {
    ...report,
    reasonTotals: report.reasonTotals.map((total) => ({ ...total, kind: KIND_TO_PROTO[total.kind] })),
  };
}
