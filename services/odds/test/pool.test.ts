// The worker pool serves a player's deal before queued bulk chunks (two lanes with runners of their
// own: threads for deals, niced processes for bulk chunks), and refuses by lane. It runs the built
// pool (dist), whose runner files are compiled JavaScript.
import test from "ava";
import { setMaxListeners } from "node:events";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { UnavailableError } from "@pokerodds/common/errors";
import type { Logger } from "@pokerodds/common/logger";
import { BatchProcesses } from "@pokerodds/odds/batch-processes";
import { BATCH_NICE, OddsPool } from "@pokerodds/odds/pool";
import { until } from "../../../test/helpers/poll.js";

/** The nice value of every thread of a process, from /proc (field 19 of each task's stat). */
function threadNiceValues(pid: number | "self"): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

// Linux only, as CI is.
test("the batch lane's processes run niced, every thread of them, in a session of their own; the service's threads do not", async (t) => {
  const pool = new OddsPool({ urgent: 2, batch: 3 }, 1_000);
  t.teardown(() => pool.close());
  await Promise.all([
    pool.run("dealTask", { numberOfHands: 3, targetRtp: 0.97, gameId: "T1-1" }),
    ...[1, 2, 3].map((firstIndex) => pool.run("bulkTask", { firstIndex, count: 1, numberOfHands: 3, targetRtp: 0.97 })),
  ]);
  t.is(pool.batchPids.length, 3);
  for (const pid of pool.batchPids) {
    const values = threadNiceValues(pid);
    t.true(values.length > 1, "a process with V8's helper threads");
    t.deepEqual(new Set(values), new Set([BATCH_NICE]), `every thread of batch process ${pid} is niced`);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const session = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3]);
    t.is(session, pid, "it leads a session of its own");
  }
  t.deepEqual(
    new Set(threadNiceValues("self")),
    new Set([0]),
    "the service's threads, the urgent lane's included, are not",
  );
  t.is(getPriority(), 0);
});

test("a batch process that dies fails its task and is replaced; the lane goes on", async (t) => {
  const pool = new OddsPool({ urgent: 1, batch: 1 }, 1_000);
  t.teardown(() => pool.close());
  const [first] = pool.batchPids;
  const chunk = pool.run("bulkTask", { firstIndex: 1, count: 50, numberOfHands: 4, targetRtp: 0.97 });
  process.kill(first!, "SIGKILL");
  // The client's message says the work was not done, not how the process ended (the log does).
  await t.throwsAsync(chunk, {
    instanceOf: UnavailableError,
    message: "the odds service could not finish this request; try again",
  });
  const [games] = await Promise.all([
    pool.run("bulkTask", { firstIndex: 2, count: 1, numberOfHands: 3, targetRtp: 0.97 }),
  ]);
  t.is(games.length, 1);
  t.not(pool.batchPids[0], first, "a new process took its place");
});

test("a service started at a nice value above the batch lane's keeps it: the batch process never raises its priority", (t) => {
  // Without CAP_SYS_NICE, raising a thread's priority back is refused, and the refusal ended every
  // batch process at its start. (As root it is allowed, so the old code shows here as threads at
  // BATCH_NICE rather than 15.)
  const script = join(mkdtempSync(join(tmpdir(), "odds-nice-")), "pool.mjs");
  writeFileSync(
    script,
    `import { readdirSync, readFileSync } from "node:fs";
    import { OddsPool } from ${JSON.stringify(import.meta.resolve("@pokerodds/odds/pool"))};
    const pool = new OddsPool({ urgent: 1, batch: 1 }, 10);
    const games = await pool.run("bulkTask", { firstIndex: 1, count: 1, numberOfHands: 3, targetRtp: 0.97 });
    const [pid] = pool.batchPids;
    const nice = readdirSync("/proc/" + pid + "/task").map((tid) => {
      const stat = readFileSync("/proc/" + pid + "/task/" + tid + "/stat", "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    });
    await pool.close();
    console.log(JSON.stringify({ games: games.length, nice: [...new Set(nice)] }));`,
  );
  const out = execFileSync("nice", ["-n", "15", process.execPath, script], { encoding: "utf8" });
  t.deepEqual(JSON.parse(out) as unknown, { games: 1, nice: [15] });
});

test("a batch process that dies at its start is started again after a growing delay, not at once without end", async (t) => {
  // Each process's end, and each start of a replacement, timed: the restart delays are measured
  // from the end they follow, so how long a process takes to start and die (1-2 s on a loaded
  // machine) does not count.
  const ends: number[] = [];
  const starts: { at: number; sameTurn: boolean }[] = [];
  let endTurn = false;
  const logger = {
    warn: () => {
      ends.push(performance.now());
      endTurn = true;
      queueMicrotask(() => (endTurn = false));
    },
  } as unknown as Logger;
  // A nice value the process cannot set: it exits with code 1 at its start, each time.
  const processes = new BatchProcesses(1, Number.NaN, logger);
  t.teardown(() => processes.close());
  // Every replacement, at once or after its delay, is forked by the private start().
  const start = processes["start"].bind(processes);
  processes["start"] = () => {
    starts.push({ at: performance.now(), sameTurn: endTurn });
    start();
  };
  await until("the third end", () => ends.length >= 3, 60_000);
  // A task meanwhile fails as unavailable: no process while a restart waits, or one that dies.
  await t.throwsAsync(processes.run("bulkTask", { firstIndex: 1, count: 1, numberOfHands: 3, targetRtp: 0.97 }), {
    instanceOf: UnavailableError,
  });
  await until("the third restart", () => starts.length >= 3, 60_000);
  t.true(starts[0]!.sameTurn, "the first is replaced at once");
  const delays = starts.map((s, i) => s.at - ends[i]!);
  // Then 1 s after the second end, 2 s after the third (a timer may fire a millisecond early).
  t.true(delays[1]! >= 990, `restarted ${Math.round(delays[1]!)} ms after the second end`);
  t.true(delays[2]! >= 1_990, `restarted ${Math.round(delays[2]!)} ms after the third end`);
});

test("with the batch process busy on a backlog of bulk chunks, a deal runs at once on its own thread", async (t) => {
  const pool = new OddsPool({ urgent: 1, batch: 1 }, 1_000);
  t.teardown(() => pool.close());
  // Both lanes' runners started and warm, so the comparison is of queues, not of start-up.
  await Promise.all([
    pool.run("dealTask", { numberOfHands: 4, targetRtp: 0.97, gameId: "T1-0" }),
    pool.run("bulkTask", { firstIndex: 1, count: 1, numberOfHands: 4, targetRtp: 0.97 }),
  ]);
  // With the cancellation signal the service passes (one for all chunks, so it takes any number of
  // listeners, as there): such tasks must still wait in their lane.
  const signal = new AbortController().signal;
  setMaxListeners(0, signal);
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
