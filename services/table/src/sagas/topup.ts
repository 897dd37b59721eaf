// TOPUP: money moves from the account to the player's seat.
//   precheck: seated at that table (else 409 before any money moves), in the seat session recorded
//   in the claim: recovery never credits a top-up to a seat the player took after asking for it;
//   1. debit the account (key <transferId>:debit); refused -> NACK, nothing moved;
//   2. credit the seat (operation key transfer:<transferId>:credit): `topUpAfterDebit`, whose refusal
//      (the player left meanwhile) is stored under that key too, so it is the one decision (the
//      rule is the domain's, after-debit.ts);
//   3. after such a refusal, refund the account (key <transferId>:refund) and answer 409.
import { TableDirectory } from "../table-directory.js";
import { LEDGER_REASON } from "@pokerodds/common/ledger-reasons";
import { crashPoint } from "../crash-point.js";
import type { CallScope } from "../dependencies.js";
import { topUpAfterDebit, type Caller, type TopUpCredit } from "../domain/index.js";
import { findSeat, requireSeat } from "../domain/snapshot.js";
import { requireAmountCents, requireIdempotencyKey } from "@pokerodds/common/limits";
import type { TableParts } from "../parts.js";
import { TABLE_REFUSALS } from "@pokerodds/common/table-refusals";
import { ok, runTransfer, sagaStep, transferKeys, type Driver } from "./transfer.js";

interface TopUpAnswer {
  acknowledged: boolean;
  message: string;
  newSeatBalanceCents: number;
  newAccountBalanceCents: number;
}

// Request and terms shaped like the sit's (sagas/sit.ts) on purpose: each saga states its own terms.
interface TopUpRequest {
  caller: Caller;
  tableId: number;
  amountCents: number;
  idempotencyKey: string;
}

export async function topUp(parts: TableParts, request: TopUpRequest, scope: CallScope): Promise<TopUpAnswer> {
  const { caller, tableId } = request;
  const terms = {
    kind: "topup" as const,
    playerId: caller.playerId,
    tableId,
    amountCents: requireAmountCents("amount_cents", request.amountCents),
  };
  const precheck = async () => {
    TableDirectory.requireSeatable(await parts.directory.require(tableId, scope), caller.playerId);
    const { snapshot } = await parts.store.latest(tableId);
    const seat = requireSeat(snapshot, caller.playerId);
    return { proceed: { playerName: "", avatarImageUrl: "", sessionId: seat.sessionId } };
  };
  return runTransfer(parts, terms, requireIdempotencyKey(request.idempotencyKey), precheck, driveTopUp, scope);
}

export const driveTopUp: Driver<TopUpAnswer> = async (parts, claim, _options, scope) => {
  const { _id: transferId, playerId, tableId, amountCents, sessionId } = claim;
  const movement = { playerId, amountCents, reference: transferId, tableId };
  const debit = await sagaStep(claim, "debit", () =>
    parts.wallet.debit({ ...movement, key: transferKeys(transferId).debit, reason: LEDGER_REASON.TOPUP }, scope),
  );
  if (!debit.applied) {
    const { snapshot } = await parts.store.latest(tableId);
    return ok({
      acknowledged: false,
      message: TABLE_REFUSALS.insufficientAccountBalance,
      newSeatBalanceCents: findSeat(snapshot, playerId)?.balanceCents ?? 0,
      newAccountBalanceCents: debit.balanceCents,
    });
  }
  crashPoint("topup:after-debit");

  const credit = await sagaStep(claim, "store", () =>
    parts.store.apply<TopUpCredit>(
      tableId,
      { key: transferKeys(transferId).seatCredit, fingerprint: transferId },
      // Claims stored before top-ups recorded their session have none: any seat of the player then.
      (latest, now) => topUpAfterDebit(latest, { playerId, amountCents, sessionId: sessionId || undefined }, now),
    ),
  );
  crashPoint("topup:after-credit");
  const result = credit.result;
  if (result.credited) {
    return ok({
      acknowledged: true,
      message: "",
      newSeatBalanceCents: result.seatBalanceCents,
      newAccountBalanceCents: debit.balanceCents,
    });
  }
  const refund = await sagaStep(claim, "refund", () =>
    parts.wallet.credit(
      { ...movement, key: transferKeys(transferId).refund, reason: LEDGER_REASON.TOPUP_REFUND },
      scope,
    ),
  );
  // Refused only past the wallet's balance limit, which the wallet does not record: the transfer
  // stays open (audited), and recovery sends the refund again until the account has room.
  if (!refund.applied) throw new Error(`the wallet refused the refund of transfer ${transferId}`);
  return { ok: false, error: { kind: "conflict", message: result.message } };
};
