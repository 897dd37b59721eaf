// Finishing what a crash, a timeout or an outage interrupted. Runs at start-up and then every
// interval, on every replica: each step is idempotent, so two replicas doing it at once is harmless.
// - transfers still pending after the grace period: driven to their end;
// - outbox credits older than the grace period: delivered. Every pass looks at the tables noted
//   active lately (a credit is owed by a player's operation, which notes its table); a sweep, at
//   start-up and then every sweep interval, looks at every table ever written, whose number grows
//   with the players, and notes the active ones the index missed (tables written before it existed).
import type { Logger } from "@pokerodds/common";
import { BUCKET_MS } from "./activity-index.js";
import { ACTIVE_WINDOW_MS } from "./domain/index.js";
import type { TableParts } from "./parts.js";
import { transfersPending } from "./metrics.js";
import { deliverOutbox } from "./outbox.js";
import { resumeTransfer } from "./sagas/index.js";

export interface RecoveryOptions {
  intervalMs: number;
  /** Work younger than this belongs to a request still in progress. */
  graceMs: number;
  /** How often a pass looks at every table ever written rather than the active ones. */
  sweepIntervalMs: number;
}

export function startRecovery(parts: TableParts, options: RecoveryOptions): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let round: Promise<void> = Promise.resolve();
  let lastSweep = -Infinity;
  const schedule = () => {
    if (stopped) return;
    const sweep = Date.now() - lastSweep >= options.sweepIntervalMs;
    if (sweep) lastSweep = Date.now();
    round = recoverOnce(parts, options.graceMs, { sweep }).finally(() => {
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
export async function recoverOnce(parts: TableParts, graceMs: number, { sweep }: { sweep: boolean }): Promise<void> {
  const log = parts.logger.child({ task: "recovery" });
  const now = Date.now();
  const cutoff = now - graceMs;
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
    const tableIds = sweep
      ? await parts.store.tableIds()
      : await parts.store.activity.activeBetween(now - ACTIVE_WINDOW_MS, now + BUCKET_MS);
    for (const tableId of tableIds) {
      const { snapshot, stored } = await parts.store.latest(tableId);
      if (sweep && stored) await parts.store.activity.note(tableId, snapshot.lastActivityAt);
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
