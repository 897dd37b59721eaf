// Running a transfer (sit, top-up, leave) exactly once per (player, idempotency key), whoever
// drives it: the first request, a retry while it runs, a retry after a crash, or recovery.
//
// 1. precheck: refusals that involve no money (errors: nothing is recorded) or a final answer given
//    before any money moves (a NACK, a leave with no seat: recorded as a FINAL claim);
// 2. the claim insert decides, once, between that final answer and money in play (PENDING);
// 3. a PENDING transfer is driven through its idempotent steps; its outcome is recorded and it
//    leaves the pending list. Any number of drivers yield the same steps and so the same outcome.
import { ConflictError, IdempotencyMismatchError, domainErrorOf } from "@pokerodds/common";
import { withSpan } from "@pokerodds/common/tracing/span";
import type { CallScope } from "../dependencies.js";
import type { TableParts } from "../parts.js";
import { transferIdOf } from "../request-ids.js";
import { sameTerms, type TransferClaim, type TransferOutcome, type TransferTerms } from "../transfer-store.js";

type Precheck<R> =
  /** Answered now, before any money moves; recorded so that a replay answers the same. */
  | { final: TransferOutcome<R> }
  /** Money will move; the seat name and avatar a sit will use, the seat session a leave ends. */
  | { proceed: { playerName: string; avatarImageUrl: string; sessionId: string } };

/** Drives a PENDING transfer to its outcome; throws (leaving it pending) when a step cannot be made now. */
export type Driver<R> = (
  parts: TableParts,
  claim: TransferClaim,
  options: { redrive: boolean },
  scope: CallScope,
) => Promise<TransferOutcome<R>>;

export const ok = <R>(value: R): TransferOutcome<R> => ({ ok: true, value });

/**
 * The keys of a transfer's steps, each made once whoever drives it: the wallet's debit and refund of
 * the account, and the table's operation that seats, credits or frees the seat.
 */
export const transferKeys = (transferId: string) => ({
  debit: `${transferId}:debit`,
  refund: `${transferId}:refund`,
  seatCredit: `transfer:${transferId}:credit`,
  seatLeave: `transfer:${transferId}:leave`,
});

function answer<R>(outcome: TransferOutcome): R {
  if (outcome.ok) return outcome.value as R;
  throw domainErrorOf(outcome.error.kind, outcome.error.message);
}

export async function runTransfer<R>(
  parts: TableParts,
  terms: TransferTerms,
  idempotencyKey: string,
  precheck: () => Promise<Precheck<R>>,
  drive: Driver<R>,
  scope: CallScope,
): Promise<R> {
  const transferId = transferIdOf(terms.playerId, idempotencyKey);
  let checked: Precheck<R>;
  try {
    checked = await precheck();
  } catch (error) {
    // A state conflict (not seated any more) may be what this very request left behind: a replay
    // answers the first outcome. Only this refusal looks (it reads the claims, a scan).
    const existing = error instanceof ConflictError ? await parts.transfers.find(transferId) : null;
    if (existing) return follow(parts, existing, terms, drive, scope);
    throw error;
  }
  const claim: TransferClaim = {
    _id: transferId,
    ...terms,
    idempotencyKey,
    state: "final" in checked ? "FINAL" : "PENDING",
    outcome: "final" in checked ? checked.final : null,
    playerName: "proceed" in checked ? checked.proceed.playerName : "",
    avatarImageUrl: "proceed" in checked ? checked.proceed.avatarImageUrl : "",
    sessionId: "proceed" in checked ? checked.proceed.sessionId : "",
    createdAt: new Date(),
  };
  if (claim.state === "PENDING") await parts.transfers.markPending(claim);
  const claimed = await parts.transfers.claim(claim);
  if (!claimed.claimed) return follow(parts, claimed.existing, terms, drive, scope);
  if (claim.outcome) return answer(claim.outcome);
  return answer(await complete(parts, claim, drive, { redrive: false }, scope));
}

/** A transfer claimed before (this same request again, or a concurrent copy of it). */
async function follow<R>(
  parts: TableParts,
  existing: TransferClaim,
  terms: TransferTerms,
  drive: Driver<R>,
  scope: CallScope,
): Promise<R> {
  // FINAL, or PENDING and finished.
  const outcome = existing.outcome ?? (await parts.transfers.outcome(existing._id));
  // Then a pending entry this request added before it lost the claim, under its own terms whether
  // they match or not, would only send recovery to drive the transfer once more, and show in the
  // audit as an open transfer of whatever amount the request named. An unfinished transfer's own
  // entry was there first (written before its claim), so this request added none.
  if (outcome) await parts.transfers.clearPending(existing._id);
  if (!sameTerms(existing, terms)) throw new IdempotencyMismatchError();
  if (outcome) return answer(outcome);
  return answer(await complete(parts, existing, drive, { redrive: true }, scope));
}

/**
 * One step of a saga (the debit, the store, the credit...) in a span of its own: the database and
 * wallet spans under it then say which step they were, also when recovery drives the saga.
 */
export function sagaStep<T>(claim: TransferClaim, step: string, work: () => Promise<T>): Promise<T> {
  const attributes = { "saga.kind": claim.kind, "saga.step": step, "table.id": claim.tableId };
  return withSpan(`saga.${claim.kind}.${step}`, attributes, () => work());
}

export async function complete<R>(
  parts: TableParts,
  claim: TransferClaim,
  drive: Driver<R>,
  options: { redrive: boolean },
  scope: CallScope,
): Promise<TransferOutcome<R>> {
  // Driven by the request, a retry or recovery (`redrive`): the span says which.
  const attributes = { "saga.kind": claim.kind, "saga.redrive": options.redrive, "table.id": claim.tableId };
  return withSpan(`saga.${claim.kind}`, attributes, async () => {
    const outcome = await parts.transfers.recordOutcome(claim._id, await drive(parts, claim, options, scope));
    await parts.transfers.clearPending(claim._id);
    return outcome;
  });
}
