// Finishing what a crash, a timeout or an outage interrupted. Runs at start-up and then every
// interval, on every replica: each step is idempotent, so two replicas doing it at once is harmless.
// - transfers still pending after the grace period: driven to their end;
// - outbox credits older than the grace period: delivered. A table owing a credit is noted in the
//   owing index when the credit is stored, and each pass notes it again until the credit is
//   delivered, so a pass reads only the tables noted owing since its checkpoint (the previous
//   pass's time, less a bucket for clocks apart), however long ago the table was played, and no
//   table that owes nothing. A store without a checkpoint (no pass has ended on it yet) is read
//   whole once: every table ever written; so is one whose checkpoint a clock ahead of this one set.
// Two loops, so that a long first pass over every table holds up no pending transfer; a third
// deletes both activity indexes' old buckets every bucket.
import type { Logger } from "@pokerodds/common";
import pMap from "p-map";
import { BUCKET_MS } from "./activity-index.js";
import { HEADS_AT_ONCE, MAX_CLOCK_LEAD_MS } from "./snapshot-store.js";
import type { TableParts } from "./parts.js";
import { transfersPending } from "./metrics.js";
import { deliverOutbox } from "./outbox.js";
import { resumeTransfer } from "./sagas/index.js";

interface RecoveryOptions {
  intervalMs: number;
  /** Work younger than this belongs to a request still in progress. */
  graceMs: number;
}

export function startRecovery(parts: TableParts, options: RecoveryOptions): { stop(): Promise<void> } {
  const { intervalMs, graceMs } = options;
  const transfers = repeat(() => resumeTransfers(parts, graceMs), intervalMs);
  const credits = repeat(() => deliverCredits(parts, graceMs), intervalMs);
  const pruning = repeat(() => pruneActivity(parts), BUCKET_MS);
  return {
    stop: async () => {
      await Promise.all([transfers.stop(), credits.stop(), pruning.stop()]);
    },
  };
}

/** Runs `run` now and again `intervalMs` after each run ends. */
function repeat(run: () => Promise<unknown>, intervalMs: number): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let round: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    round = run().then(() => {
      if (!stopped) timer = setTimeout(schedule, intervalMs);
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

/**
 * Whether work stamped `at` (by the clock of the process that did it) is due to recovery at `now`:
 * older than the grace period, or stamped further in this clock's future than replicas' clocks may
 * lead, by a clock that has since stepped back (NTP), so that its age is unknown. Driving work that
 * a request still drives is harmless (every step is idempotent); leaving it until this clock reached
 * the stamp held a player's money for as long as the clock had led.
 */
function dueAt(at: number, now: number, graceMs: number): boolean {
  return at <= now - graceMs || at > now + MAX_CLOCK_LEAD_MS;
}

/** Drives the transfers pending since before the grace period. False when a step failed (and is retried). */
async function resumeTransfers(parts: TableParts, graceMs: number): Promise<boolean> {
  const log = parts.logger.child({ task: "recovery" });
  return step(log, "pending transfers", async () => {
    const pending = await parts.transfers.listPending();
    transfersPending.set(pending.length);
    for (const claim of pending) {
      if (!dueAt(claim.createdAt.getTime(), Date.now(), graceMs)) continue;
      log.warn({ transferId: claim._id, kind: claim.kind, tableId: claim.tableId }, "resuming a transfer");
      await step(log, `transfer ${claim._id}`, () => resumeTransfer(parts, claim));
    }
  });
}

/**
 * One pass over the credits owed: the tables noted owing since the checkpoint (every table ever written
 * when there is none) are read; each one owing is noted again now and, for credits owed since before
 * the grace period, delivered. Once every owing table is noted, the checkpoint moves to this pass.
 * False when a step failed (and is retried).
 */
export async function deliverCredits(parts: TableParts, graceMs: number): Promise<boolean> {
  const log = parts.logger.child({ task: "recovery" });
  const now = Date.now();
  let read: { tableIds: number[]; whole: boolean } = { tableIds: [], whole: false };
  const listed = await step(log, "tables owing", async () => {
    read = await tablesSinceCheckpoint(parts, log, now);
  });
  if (!listed) return false;
  const { tableIds, whole } = read;
  // A whole pass reads every table ever written, once: no cache is sized for that.
  if (!whole) parts.store.cacheActive("recovery", tableIds.length);
  // Judged when each table is read: a long pass would otherwise take work begun since as stamped ahead.
  const due = (at: number) => dueAt(at, Date.now(), graceMs);
  const carried = await pMap(tableIds, (tableId) => carryTable(parts, log, tableId, due), {
    concurrency: HEADS_AT_ONCE,
  });
  if (!carried.every(Boolean)) return false;
  // A writer's clock may run a bucket behind this one's: it notes a new credit up to a bucket earlier.
  return step(log, "checkpoint", () => parts.store.owing.markRecoveredFrom(now - BUCKET_MS));
}

/** The tables noted owing since the checkpoint; every table ever written (`whole`) when there is none. */
async function tablesSinceCheckpoint(
  parts: TableParts,
  log: Logger,
  now: number,
): Promise<{ tableIds: number[]; whole: boolean }> {
  const { owing } = parts.store;
  const from = await owing.recoveredFrom();
  if (from !== null && from > now) {
    // Set by a clock ahead of this one (this process's own before an NTP step back, or another
    // replica's): the tables this clock notes owing fall before it, where no pass would read them.
    // So this pass reads every table, as the first one does, and the checkpoint starts again from it.
    log.warn(
      { checkpoint: new Date(from).toISOString() },
      "recovery's checkpoint is ahead of this clock; reading every table",
    );
    await owing.forgetRecovered();
  }
  if (from === null || from > now) return { tableIds: await parts.store.tableIds(), whole: true };
  return { tableIds: await owing.notedBetween(from, now + BUCKET_MS), whole: false };
}

/**
 * Notes the table again if it owes (it stays findable until delivered), then delivers what it owes
 * if any of it is `due`. False when the table could not be noted; a failed delivery is retried at
 * the next pass, and holds up no other table.
 */
async function carryTable(parts: TableParts, log: Logger, tableId: number, due: (at: number) => boolean) {
  return step(log, `table ${tableId}`, async () => {
    const { snapshot } = await parts.store.latest(tableId);
    // The time of the note, not of the pass's start: a whole pass may take longer than the window.
    if (snapshot.outbox.length > 0) await parts.store.owing.note(tableId, Date.now());
    if (!snapshot.outbox.some((credit) => due(credit.createdAt))) return;
    log.warn({ tableId, credits: snapshot.outbox.length }, "delivering owed credits");
    await step(log, `outbox of table ${tableId}`, () => deliverOutbox(parts, tableId, { logger: log }));
  });
}

/** Deletes the activity indexes' buckets that no reader reads again (activity-index.ts). */
async function pruneActivity(parts: TableParts): Promise<boolean> {
  const log = parts.logger.child({ task: "recovery" });
  return step(log, "activity pruning", async () => {
    const now = Date.now();
    const deleted = (await parts.store.activity.prune(now)) + (await parts.store.owing.prune(now));
    if (deleted > 0) log.info({ deleted }, "old activity buckets deleted");
  });
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
