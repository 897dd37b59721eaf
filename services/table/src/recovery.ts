// Finishing what a crash, a timeout or an outage interrupted. Runs at start-up and then every
// interval, on every replica: each step is idempotent, so two replicas doing it at once is harmless.
// - transfers still pending after the grace period: driven to their end;
// - outbox credits older than the grace period: delivered.
import type { Logger } from "@pokerodds/common";
import type { TableParts } from "./parts.js";
import { transfersPending } from "./metrics.js";
import { deliverOutbox } from "./outbox.js";
import { resumeTransfer } from "./sagas/index.js";

export interface RecoveryOptions {
  intervalMs: number;
  /** Work younger than this belongs to a request still in progress. */
  graceMs: number;
}

export function startRecovery(parts: TableParts, options: RecoveryOptions): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let round: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    round = recoverOnce(parts, options.graceMs).finally(() => {
      timer = setTimeout(schedule, options.intervalMs);
    });
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}

/** One pass; a failing step is logged and retried on the next pass, the others still run. */
export async function recoverOnce(parts: TableParts, graceMs: number): Promise<void> {
  const log = parts.logger.child({ task: "recovery" });
  const cutoff = Date.now() - graceMs;
  await step(log, "pending transfers", async () => {
    const pending = await parts.transfers.listPending();
    transfersPending.set(pending.length);
    for (const claim of pending) {
      if (claim.createdAt.getTime() > cutoff) continue;
      log.warn({ transferId: claim._id, kind: claim.kind, tableId: claim.tableId }, "resuming a transfer");
      await step(log, `transfer ${claim._id}`, () => resumeTransfer(parts, claim));
    }
  });
  await step(log, "outbox", async () => {
    for (const tableId of await parts.store.tableIds()) {
      const { snapshot } = await parts.store.latest(tableId);
      if (!snapshot.outbox.some((credit) => credit.createdAt <= cutoff)) continue;
      log.warn({ tableId, credits: snapshot.outbox.length }, "delivering owed credits");
      await step(log, `outbox of table ${tableId}`, () => deliverOutbox(parts, tableId, {}));
    }
  });
}

async function step(log: Logger, what: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    log.warn({ err: error, step: what }, "recovery step failed; retrying on the next pass");
  }
}
