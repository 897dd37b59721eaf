import type { TableParts } from "../parts.js";
import type { TransferClaim, TransferKind } from "../transfer-store.js";
import { driveLeave } from "./leave.js";
import { driveSit } from "./sit.js";
import { driveTopUp } from "./topup.js";
import { complete, type Driver } from "./transfer.js";

export { leave } from "./leave.js";
export { sit } from "./sit.js";
export { topUp } from "./topup.js";

const DRIVERS: Record<TransferKind, Driver<unknown>> = { sit: driveSit, topup: driveTopUp, leave: driveLeave };

/**
 * Recovery: finishes a transfer found in the pending list. Claims it first (its first driver may
 * have died between listing it and claiming it), then drives it like any retry would.
 */
export async function resumeTransfer(parts: TableParts, pending: TransferClaim): Promise<void> {
  const claimed = await parts.transfers.claim(pending);
  const claim = claimed.claimed ? pending : claimed.existing;
  if (claim.state === "PENDING" && !(await parts.transfers.outcome(claim._id))) {
    await complete(parts, claim, DRIVERS[claim.kind], { redrive: true }, {});
  } else {
    await parts.transfers.clearPending(claim._id);
  }
}
