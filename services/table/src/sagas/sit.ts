// SIT: the buy-in moves from the account to a new seat.
//   precheck: the table exists and is the player's (a personal table), there is a seat for the
//             player (else NACK before any money moves), the seat name from the wallet, and an
//             opened account (else NACK insufficient balance: see the precheck);
//   1. debit the account (key <transferId>:debit); refused -> NACK, nothing moved (the statement
//      lists the refused debit);
//   2. seat the player (operation key transfer:<transferId>:credit): `sitAfterDebit`, whose NACK
//      (the table filled up meanwhile) is stored too, so that it is the one decision every driver
//      sees: no later driver can seat the player instead (the rule is the domain's, after-debit.ts);
//   3. after such a NACK, refund the account (key <transferId>:refund).
import { TableDirectory } from "../table-directory.js";
import { LEDGER_REASON } from "@pokerodds/common/ledger-reasons";
import { crashPoint } from "../crash-point.js";
import type { CallScope } from "../dependencies.js";
import { sitAfterDebit, sitPreconditions, type Caller, type SitRefusal, type SitResult } from "../domain/index.js";
import { requireAmountCents, requireIdempotencyKey } from "@pokerodds/common/limits";
import { TABLE_REFUSALS } from "@pokerodds/common/table-refusals";
import type { TableParts } from "../parts.js";
import { ok, runTransfer, sagaStep, transferKeys, type Driver } from "./transfer.js";

interface SitAnswer {
  acknowledged: boolean;
  message: string;
  seatId: number;
  seatBalanceCents: number;
}

/** A refusal: no seat, or (already seated) the seat the player holds. */
const nack = ({ message, seatId, seatBalanceCents }: SitRefusal): SitAnswer => ({
  acknowledged: false,
  message,
  seatId,
  seatBalanceCents,
});
const NO_MONEY: SitRefusal = { message: TABLE_REFUSALS.insufficientAccountBalance, seatId: 0, seatBalanceCents: 0 };

// Request and terms shaped like the top-up's (sagas/topup.ts) on purpose: each saga states its own terms.
interface SitRequest {
  caller: Caller;
  tableId: number;
  buyInCents: number;
  idempotencyKey: string;
}

export async function sit(parts: TableParts, request: SitRequest, scope: CallScope): Promise<SitAnswer> {
  const { caller, tableId } = request;
  const terms = {
    kind: "sit" as const,
    playerId: caller.playerId,
    tableId,
    amountCents: requireAmountCents("buy_in_cents", request.buyInCents),
  };
  const precheck = async () => {
    TableDirectory.requireSeatable(await parts.directory.require(tableId, scope), caller.playerId);
    const { snapshot } = await parts.store.latest(tableId);
    const check = sitPreconditions(snapshot, caller.playerId, terms.amountCents);
    if (!check.ok) return { final: ok(nack(check)) };
    // Refused here, before the transfer is pending, for an account not opened yet (no player, or a
    // first profile read cut short before its welcome credit): its debit would be refused NOT_FOUND
    // and retried by recovery until the next profile read opened the account, seating the player
    // long after a 404. An account once opened stays, so the debit below never meets that refusal;
    // one that cannot cover the buy-in is refused by that debit, which the statement lists.
    const player = await parts.wallet.player(caller.playerId, scope);
    if (!player || player.accountNotOpened) return { final: ok(nack(NO_MONEY)) };
    return { proceed: { playerName: player.displayName, avatarImageUrl: player.avatarImageUrl, sessionId: "" } };
  };
  return runTransfer(parts, terms, requireIdempotencyKey(request.idempotencyKey), precheck, driveSit, scope);
}

export const driveSit: Driver<SitAnswer> = async (parts, claim, _options, scope) => {
  const { _id: transferId, playerId, tableId, amountCents } = claim;
  const movement = { playerId, amountCents, reference: transferId, tableId };
  const debit = await sagaStep(claim, "debit", () =>
    parts.wallet.debit({ ...movement, key: transferKeys(transferId).debit, reason: LEDGER_REASON.SIT }, scope),
  );
  if (!debit.applied) return ok(nack(NO_MONEY));
  crashPoint("sit:after-debit");

  const seated = await sagaStep(claim, "store", () =>
    parts.store.apply<SitResult>(
      tableId,
      { key: transferKeys(transferId).seatCredit, fingerprint: transferId },
      (latest, now) =>
        sitAfterDebit(
          latest,
          { playerId, playerName: claim.playerName, avatarImageUrl: claim.avatarImageUrl, amountCents, transferId },
          now,
        ),
    ),
  );
  crashPoint("sit:after-credit");
  const result = seated.result;
  if (result.acknowledged) {
    return ok({ acknowledged: true, message: "", seatId: result.seatId, seatBalanceCents: result.seatBalanceCents });
  }
  const refund = await sagaStep(claim, "refund", () =>
    parts.wallet.credit({ ...movement, key: transferKeys(transferId).refund, reason: LEDGER_REASON.SIT_REFUND }, scope),
  );
  // Refused only past the wallet's balance limit, which the wallet does not record: the transfer
  // stays open (audited), and recovery sends the refund again until the account has room.
  if (!refund.applied) throw new Error(`the wallet refused the refund of transfer ${transferId}`);
  return ok(nack(result));
};
