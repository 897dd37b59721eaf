// The worker pool serves a player's deal before queued bulk chunks (two lanes with threads of their
// own, the batch lane's niced), and refuses by lane. It runs the built pool (dist), whose worker file
// is compiled JavaScript.
import test from "ava";
import { readdirSync, readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { BATCH_THREAD_NICE, OddsPool } from "@pokerodds/odds/pool";

/** The nice value of every thread of this process, from /proc (field 19 of each task's stat). */
function threadNiceValues(): number[] {
  return readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

// Serial, so no other test's pool has threads in this process meanwhile. Linux only, as CI is.
test.serial("the batch lane's threads run niced; the service's own thread and the urgent lane's do not", async (t) => {
  const before = threadNiceValues().filter((nice) => nice === BATCH_THREAD_NICE).length;
  const pool = new OddsPool({ urgent: 2, batch: 3 }, 1_000);
  t.teardown(() => pool.close());
  await Promise.all([
    pool.run("dealTask", { numberOfHands: 3, targetRtp: 0.97, gameId: "T1-1" }),
    pool.run("bulkTask", { firstIndex: 1, count: 1, numberOfHands: 3, targetRtp: 0.97 }),
  ]);
  let niced = 0;
  for (let tries = 0; tries < 100 && niced < 3; tries++, await sleep(50)) {
    niced = threadNiceValues().filter((nice) => nice === BATCH_THREAD_NICE).length - before;
  }
  t.is(niced, 3, "exactly the three batch threads are niced; the two urgent threads are not");
  t.is(getPriority(), 0, "the event loop's thread keeps its priority");
});

test("with the batch thread busy on a backlog of bulk chunks, a deal runs at once on its own thread", async (t) => {
  const pool = new OddsPool({ urgent: 1, batch: 1 }, 1_000);
  t.teardown(() => pool.close());
  // Both lanes' threads started and warm, so the comparison is of queues, not of start-up.
  await Promise.all([
    pool.run("dealTask", { numberOfHands: 4, targetRtp: 0.97, gameId: "T1-0" }),
    pool.run("bulkTask", { firstIndex: 1, count: 1, numberOfHands: 4, targetRtp: 0.97 }),
  ]);
  // With the cancellation signal the service passes: such tasks must still wait in their lane.
  const signal = new AbortController().signal;
  const bulk = Array.from({ length: 12 }, (_, i) =>
    pool.run("bulkTask", { firstIndex: i + 1, count: 1, numberOfHands: 4, targetRtp: 0.97 }, signal),
  );
  t.true(pool.queued("batch") > 0, "bulk chunks are queued");
  await pool.run("dealTask", { numberOfHands: 4, targetRtp: 0.97, gameId: "T1-1" });
  t.true(pool.queued("batch") > 0, "the deal was answered while bulk chunks still waited");
  await Promise.all(bulk);
});

test("each lane is full on its own: a bulk backlog does not refuse deals", async (t) => {
  const pool = new OddsPool({ urgent: 1, batch: 1 }, 3);
  t.teardown(() => pool.close());
  const bulk = Array.from({ length: 8 }, (_, i) =>
    pool.run("bulkTask", { firstIndex: i + 1, count: 1, numberOfHands: 4, targetRtp: 0.97 }),
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.true(pool.isFull("batch"));
  t.false(pool.isFull("urgent"));
  await Promise.all(bulk);
  t.false(pool.isFull("batch"));
});

test("a cancelled call's waiting tasks leave their lane and fail; the others still run", async (t) => {
  const pool = new OddsPool({ urgent: 1, batch: 1 }, 1_000);
  t.teardown(() => pool.close());
  const cancelled = new AbortController();
  const chunk = (i: number, signal?: AbortSignal) =>
    pool.run("bulkTask", { firstIndex: i, count: 1, numberOfHands: 4, targetRtp: 0.97 }, signal);
  const doomed = Array.from({ length: 6 }, (_, i) => chunk(i + 1, cancelled.signal));
  const kept = chunk(7);
  cancelled.abort(new Error("the caller went away"));
  t.is(pool.queued("batch"), 1, "only the uncancelled chunk still waits");
  const outcomes = await Promise.allSettled(doomed);
  t.true(outcomes.filter((o) => o.status === "rejected").length >= 5, "the waiting ones were dropped");
  t.is((await kept).length, 1);
});
