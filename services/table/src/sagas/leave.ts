// LEAVE: the whole seat balance goes back to the account.
//   precheck: not seated -> answered at once (credits 0, the current balance: 0 for a player with no
//             account yet, before the first profile read), recorded as FINAL so
//             that a late replay of this key can never leave a later seat session;
//   1. free the seat the precheck found (operation key transfer:<transferId>:leave; a later seat
//      session is left alone, so a leave recovery finishes late never ends a new sit): the balance becomes an outbox
//      credit (with the void refunds when the last player leaves mid-game);
//   2. credit the account under the outbox entry's key (and the leaver's own void refund under its
//      key), then deliver (and mark) the table's outbox.
import { TableDirectory } from "../table-directory.js";
import { crashPoint } from "../crash-point.js";
import type { CallScope, MovementOutcome } from "../dependencies.js";
import { applyLeave, type Caller, type OutboxCredit } from "../domain/index.js";
import { findSeat } from "../domain/snapshot.js";
import { requireIdempotencyKey } from "@pokerodds/common/limits";
import { deliverOutboxOrLeaveToRecovery, movementOf } from "../outbox.js";
import type { TableParts } from "../parts.js";
import { ok, runTransfer, sagaStep, transferKeys, type Driver } from "./transfer.js";

/** How far apart two replicas' clocks may be when one looks for what the other stored. */
const CLOCKS_APART_MS = 10_000;
/**
 * Versions a leave that finds no seat looks back through for its own change (MongoDB only needs it:
 * see below). Past them it answers as a leave that found no seat; its credit is still delivered.
 */
const LOOK_BACK_VERSIONS = 64;

interface LeaveAnswer {
  creditsReturnedCents: number;
  newAccountBalanceCents: number;
}

interface LeaveRequest {
  caller: Caller;
  tableId: number;
  idempotencyKey: string;
}

/**
 * What step 1 stored: the seat balance returned and the outbox credit carrying it, and the leaver's
 * own refund when this leave voided the game (the last player leaving mid-game).
 */
interface Left {
  creditsReturnedCents: number;
  credit: OutboxCredit | null;
  refund: OutboxCredit | null;
}

export async function leave(parts: TableParts, request: LeaveRequest, scope: CallScope): Promise<LeaveAnswer> {
  const { caller, tableId } = request;
  const terms = { kind: "leave" as const, playerId: caller.playerId, tableId, amountCents: 0 };
  const precheck = async () => {
    TableDirectory.requireSeatable(await parts.directory.require(tableId, scope), caller.playerId);
    const { snapshot } = await parts.store.latest(tableId);
    const seat = findSeat(snapshot, caller.playerId);
    if (seat) return { proceed: { playerName: "", avatarImageUrl: "", sessionId: seat.sessionId } };
    const newAccountBalanceCents = await parts.wallet.balance(caller.playerId, scope);
    return { final: ok({ creditsReturnedCents: 0, newAccountBalanceCents }) };
  };
  return runTransfer(parts, terms, requireIdempotencyKey(request.idempotencyKey), precheck, driveLeave, scope);
}

export const driveLeave: Driver<LeaveAnswer> = async (parts, claim, { redrive }, scope) => {
  const { _id: transferId, playerId, tableId, sessionId } = claim;
  const opKey = transferKeys(transferId).seatLeave;
  const left = await sagaStep(claim, "store", async () => {
    // Driven again, the seat may be gone because this very transfer freed it: look for its change first.
    const found = redrive ? ((await parts.store.findOp(opKey))?.result as Left | undefined) : undefined;
    if (found) return found;
    const applied = await parts.store.apply<Left>(tableId, { key: opKey, fingerprint: transferId }, (latest, now) => {
      const { next, result } = applyLeave(latest, { playerId, transferId, sessionId }, now);
      const credit = next?.outbox.find((c) => c.reason === "LEAVE" && c.reference === transferId) ?? null;
      const refund =
        next?.outbox.find(
          (c) => c.reason === "VOID_REFUND" && c.playerId === playerId && c.reference === latest.gameId,
        ) ?? null;
      return { next, result: { creditsReturnedCents: result.creditsReturnedCents, credit, refund } };
    });
    // No seat to leave: a concurrent copy of this request may have freed it a moment ago (its change
    // is then stored under the key), or this transfer did before a crash. Either may have died
    // between its entry and its key document (MongoDB): look past a missing key document among the
    // versions stored since the transfer was claimed (replicas' clocks a little apart).
    if (applied.kind !== "unchanged") return applied.result;
    const since = new Date(claim.createdAt.getTime() - CLOCKS_APART_MS);
    const stored = await parts.store.findOpSince(tableId, opKey, since, LOOK_BACK_VERSIONS);
    return (stored?.result as Left | undefined) ?? applied.result;
  });
  crashPoint("leave:after-apply");

  // The seat balance, then the leaver's refund: the answer's balance is the account after both. With
  // a refund it is read after both (either credit may be a replay answering an older balance).
  const credited = new Map<string, MovementOutcome>();
  for (const owed of [left.credit, left.refund]) {
    if (!owed) continue;
    credited.set(
      owed.key,
      await sagaStep(claim, "credit", () => parts.wallet.credit(movementOf(tableId, owed), scope)),
    );
  }
  const newAccountBalanceCents =
    left.credit && !left.refund
      ? credited.get(left.credit.key)!.balanceCents
      : await parts.wallet.balance(playerId, scope);
  // The rest of the outbox (other players' refunds and payouts) is not this leave's to answer for:
  // recovery retries it.
  await deliverOutboxOrLeaveToRecovery(parts, tableId, scope, "a leave", credited);
  return ok({ creditsReturnedCents: left.creditsReturnedCents, newAccountBalanceCents });
};
