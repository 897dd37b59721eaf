// Finishing what a crash, a timeout or an outage interrupted. Runs at start-up and then every
// interval, on every replica: each step is idempotent, so two replicas doing it at once is harmless.
// - transfers still pending after the grace period: driven to their end;
// - outbox credits older than the grace period: delivered. Every pass looks at the tables noted
//   active lately (a credit is owed by a player's operation, which notes its table); a sweep, at
//   start-up and then every sweep interval in a loop of its own, looks at every table ever written,
//   whose number grows with the players, and notes the active ones the index lacks (tables written
//   before it existed).
import type { Logger } from "@pokerodds/common";
import pMap from "p-map";
import { HEADS_AT_ONCE } from "./snapshot-store.js";
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
  const { intervalMs, graceMs, sweepIntervalMs } = options;
  // Two loops: a sweep of many tables never holds up the passes (pending transfers, fresh credits).
  const passes = repeat(() => recoverOnce(parts, graceMs), intervalMs, intervalMs);
  const sweeps = repeat(() => sweepOutboxes(parts, graceMs), sweepIntervalMs, intervalMs);
  return {
    stop: async () => {
      await Promise.all([passes.stop(), sweeps.stop()]);
    },
  };
}

/** Runs `run` now and again `intervalMs` after each run ends (`retryMs` after one that failed). */
function repeat(run: () => Promise<boolean>, intervalMs: number, retryMs: number): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let round: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    round = run().then((ok) => {
      if (!stopped) timer = setTimeout(schedule, ok ? intervalMs : retryMs);
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

/** One pass: pending transfers, and what the tables active lately owe. A failing step is logged and retried. */
export async function recoverOnce(parts: TableParts, graceMs: number): Promise<boolean> {
  const log = parts.logger.child({ task: "recovery" });
  const now = Date.now();
  const cutoff = now - graceMs;
  const transfers = await step(log, "pending transfers", async () => {
    const pending = await parts.transfers.listPending();
    transfersPending.set(pending.length);
    for (const claim of pending) {
      if (claim.createdAt.getTime() > cutoff) continue;
      log.warn({ transferId: claim._id, kind: claim.kind, tableId: claim.tableId }, "resuming a transfer");
      await step(log, `transfer ${claim._id}`, () => resumeTransfer(parts, claim));
    }
  });
  const outbox = await step(log, "outbox", async () =>
    deliverOwed(parts, log, await parts.store.activity.activeAt(now), cutoff),
  );
  return transfers && outbox;
}

/**
 * A sweep: what every table ever written owes, and the active ones noted in the activity index
 * (those written before it existed). False when the tables could not be listed.
 */
export async function sweepOutboxes(parts: TableParts, graceMs: number): Promise<boolean> {
  const log = parts.logger.child({ task: "recovery-sweep" });
  const cutoff = Date.now() - graceMs;
  return step(log, "sweep", async () => deliverOwed(parts, log, await parts.store.tableIds(), cutoff, true));
}

/** Delivers what each table owes since before `cutoff`, a few tables at a time; a table that fails holds up no other. */
async function deliverOwed(parts: TableParts, log: Logger, tableIds: readonly number[], cutoff: number, note = false) {
  await pMap(
    tableIds,
    (tableId) =>
      step(log, `outbox of table ${tableId}`, async () => {
        const { snapshot, stored } = await parts.store.latest(tableId);
        if (note && stored) await parts.store.activity.note(tableId, snapshot.lastActivityAt);
        if (!snapshot.outbox.some((credit) => credit.createdAt <= cutoff)) return;
        log.warn({ tableId, credits: snapshot.outbox.length }, "delivering owed credits");
        await deliverOutbox(parts, tableId, {});
      }),
    { concurrency: HEADS_AT_ONCE },
  );
}

/** Runs one step; false (and a warning) when it failed, to be retried later. */
async function step(log: Logger, what: string, run: () => Promise<void>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    log.warn({ err: error, step: what }, "recovery step failed; retrying on the next pass");
    return false;
  }
}
