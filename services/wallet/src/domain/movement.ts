// The money rules of one movement, without I/O: what a request is, whether it applies to a balance,
// the ledger entry it becomes, and whether a reused idempotency key carries the same request.
import { IdempotencyMismatchError, InvalidArgumentError } from "@pokerodds/common";
import {
  LEDGER_REASON,
  TABLE_CREDIT_REASONS,
  TRANSFER_DEBIT_REASONS,
  TRANSFER_REFUND_REASONS,
} from "@pokerodds/common/ledger-reasons";
import { entryIdOf } from "@pokerodds/common/sequenced-log";
import {
  MAX_AMOUNT_CENTS,
  MAX_BALANCE_CENTS,
  MOVEMENT_KEY_MAX_LENGTH,
  OPERATOR_NOTE_MAX_LENGTH,
  requireAmountCents,
  requirePlayerId,
} from "@pokerodds/common/limits";
import { WELCOME_CREDIT_CENTS } from "./money.js";
import { requireText } from "./text.js";
import { isTableMovementKey, TABLE_MOVEMENT_KEY_PREFIXES } from "@pokerodds/common/movement-keys";

export type MovementKind = "welcome" | "debit" | "credit" | "deposit" | "withdraw";
/** What callers may ask for; the welcome credit is the wallet's own. */
export type RequestableKind = Exclude<MovementKind, "welcome">;
export type Refusal = "insufficient_funds" | "balance_limit";

const DIRECTION: Record<MovementKind, 1 | -1> = { welcome: 1, credit: 1, deposit: 1, debit: -1, withdraw: -1 };
/**
 * Table-side movements say why with one of the ledger's reasons, so the audit can total and match
 * every one: a caller cannot write entries the audit has no rule for. Deposits and withdrawals carry
 * an operator's free text, or none.
 */
const TABLE_REASONS: Partial<Record<RequestableKind, readonly string[]>> = {
  debit: TRANSFER_DEBIT_REASONS,
  credit: [...TRANSFER_REFUND_REASONS, ...TABLE_CREDIT_REASONS],
};
/**
 * The largest amount of one movement. A credit is what a table owes a player (a whole seat on leave,
 * a game's payouts past the seat's limit), which may exceed one request's limit; none larger than the
 * largest balance could ever apply. Debits, deposits and withdrawals are what a player asks for.
 */
const MAX_MOVEMENT_CENTS: Record<RequestableKind, number> = {
  debit: MAX_AMOUNT_CENTS,
  credit: MAX_BALANCE_CENTS,
  deposit: MAX_AMOUNT_CENTS,
  withdraw: MAX_AMOUNT_CENTS,
};
/** Keys the wallet makes itself (the welcome credit) cannot be taken by a caller first. */
const RESERVED_KEY_PREFIX = "wallet:";

export interface MovementRequest {
  kind: MovementKind;
  playerId: string;
  /** The positive amount asked for (the ledger entry's requestedCents). */
  requestedCents: number;
  idempotencyKey: string;
  reason: string;
  reference: string;
  /** The table the movement is for, when a table asks (a label for the account statement). */
  tableId?: number;
}

/** One insert-only ledger document: a movement's outcome, applied or refused, and the balance after it. */
export interface LedgerEntry {
  /** entryIdOf(playerId, sequence): the document's _id. */
  entryId: string;
  playerId: string;
  /** 1, 2, 3... per account; unique with playerId, which is what serialises writers. */
  sequence: number;
  kind: MovementKind;
  /** The positive amount asked for. */
  requestedCents: number;
  applied: boolean;
  refusal: Refusal | null;
  /** Signed: positive into the account, negative out of it, 0 when refused. */
  amountCents: number;
  balanceAfterCents: number;
  reason: string;
  reference: string;
  /** The table the movement was for; absent for the welcome credit, deposits and withdrawals. */
  tableId?: number;
  idempotencyKey: string;
  createdAt: Date;
}

/** The end of an account's ledger; absent before the welcome credit. */
type Head = Pick<LedgerEntry, "sequence" | "balanceAfterCents">;

/** What the rules make of a movement at a balance: applied (with its signed amount) or refused, and the balance after. */
type MovementDecision =
  | { applied: true; refusal: null; amountCents: number; balanceAfterCents: number }
  | { applied: false; refusal: Refusal; amountCents: 0; balanceAfterCents: number };

/** A movement as a caller sends it: its amount is the wire's `amount_cents`, positive. */
type MovementFields = Omit<MovementRequest, "kind" | "requestedCents"> & { amountCents: number };

export function validateMovementRequest(kind: RequestableKind, fields: MovementFields): MovementRequest {
  const idempotencyKey = requireText("idempotency key", fields.idempotencyKey, {
    required: true,
    maxLength: MOVEMENT_KEY_MAX_LENGTH,
  });
  if (idempotencyKey.startsWith(RESERVED_KEY_PREFIX)) {
    throw new InvalidArgumentError(`idempotency keys starting with "${RESERVED_KEY_PREFIX}" are reserved`);
  }
  if ((kind === "deposit" || kind === "withdraw") && isTableMovementKey(idempotencyKey)) {
    throw new InvalidArgumentError(
      `idempotency keys starting with ${TABLE_MOVEMENT_KEY_PREFIXES.map((p) => `"${p}"`).join(" or ")} are the tables'`,
    );
  }
  return {
    kind,
    playerId: requirePlayerId("player id", fields.playerId),
    requestedCents: requireAmountCents("amount", fields.amountCents, MAX_MOVEMENT_CENTS[kind]),
    idempotencyKey,
    reason: requireReason(kind, fields.reason),
    reference: requireText("reference", fields.reference, { required: false, maxLength: 200 }),
    ...(fields.tableId === undefined ? {} : { tableId: requireTableId(fields.tableId) }),
  };
}

function requireReason(kind: RequestableKind, reason: string): string {
  const listed = TABLE_REASONS[kind];
  if (!listed) return requireText("reason", reason, { required: false, maxLength: OPERATOR_NOTE_MAX_LENGTH });
  if (!listed.includes(reason)) {
    throw new InvalidArgumentError(
      `a ${kind}'s reason must be one of ${listed.join(", ")}, got ${JSON.stringify(reason)}`,
    );
  }
  return reason;
}

function requireTableId(tableId: number): number {
  if (!Number.isSafeInteger(tableId) || tableId < 1) {
    throw new InvalidArgumentError(`table id must be a positive integer, got ${tableId}`);
  }
  return tableId;
}

/** The welcome credit; its fixed key makes concurrent first reads credit it exactly once. */
export function welcomeRequest(playerId: string): MovementRequest {
  return {
    kind: "welcome",
    playerId,
    requestedCents: WELCOME_CREDIT_CENTS,
    idempotencyKey: `${RESERVED_KEY_PREFIX}welcome:${playerId}`,
    reason: LEDGER_REASON.WELCOME,
    reference: "",
  };
}

/** What a movement does to a balance: money out only if the balance covers it, in only up to the limit. */
export function decide(balanceCents: number, kind: MovementKind, requestedCents: number): MovementDecision {
  const amountCents = DIRECTION[kind] * requestedCents;
  const balanceAfterCents = balanceCents + amountCents;
  if (balanceAfterCents < 0)
    return { applied: false, refusal: "insufficient_funds", amountCents: 0, balanceAfterCents: balanceCents };
  if (balanceAfterCents > MAX_BALANCE_CENTS)
    return { applied: false, refusal: "balance_limit", amountCents: 0, balanceAfterCents: balanceCents };
  return { applied: true, refusal: null, amountCents, balanceAfterCents };
}

/**
 * Whether an outcome is recorded, its key's answer for good, or only answered. A credit a table owes
 * (a seat's balance on leave, a payout, a refund) refused at the balance limit is only answered: the
 * table keeps it owed and sends it again under its key, and it is applied once the account has room.
 * Recorded, it answered every later attempt with itself, and the money stayed at the table for ever.
 * Contradicting this NACK later is safe, unlike a player's: the table acts on it only by trying again.
 */
export const isRecorded = (entry: Pick<LedgerEntry, "applied" | "kind" | "refusal">): boolean =>
  entry.applied || entry.kind !== "credit" || entry.refusal !== "balance_limit";

/**
 * An entry's id is its account and sequence, "<playerId>:<sequence>" (the sequenced log's entry id):
 * the sequence is all digits, so an id splits back at its last colon whatever the player id holds.
 */
export { entryIdOf };

/** The entry that follows `head` for this request, to be inserted at exactly that sequence. */
export function nextEntry(head: Head | null, request: MovementRequest, createdAt: Date): LedgerEntry {
  const decision = decide(head?.balanceAfterCents ?? 0, request.kind, request.requestedCents);
  const sequence = (head?.sequence ?? 0) + 1;
  return {
    entryId: entryIdOf(request.playerId, sequence),
    playerId: request.playerId,
    sequence,
    kind: request.kind,
    requestedCents: request.requestedCents,
    ...decision,
    reason: request.reason,
    reference: request.reference,
    ...(request.tableId === undefined ? {} : { tableId: request.tableId }),
    idempotencyKey: request.idempotencyKey,
    createdAt,
  };
}

/**
 * The request's fingerprint is everything it asks for; the key alone says nothing. The table is a
 * label of the reference (a transfer or game belongs to one table), so it is not compared.
 */
export function isSameRequest(entry: LedgerEntry, request: MovementRequest): boolean {
  return (
    entry.kind === request.kind &&
    entry.playerId === request.playerId &&
    entry.requestedCents === request.requestedCents &&
    entry.reason === request.reason &&
    entry.reference === request.reference
  );
}

/** The first outcome for a reused key, provided the request is the same one. */
export function replay(first: LedgerEntry, request: MovementRequest): LedgerEntry {
  if (!isSameRequest(first, request)) {
    throw new IdempotencyMismatchError(
      `idempotency key ${JSON.stringify(request.idempotencyKey)} was used for a different request`,
    );
  }
  return first;
}
