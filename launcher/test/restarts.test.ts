// The launcher's restart policy (launcher/src/restarts.ts) with a fake clock and fake children: the
// backoff sequence, the limit per sliding window, and that a stop cancels whatever is pending.
import { ConfigError } from "@pokerodds/common/config";
import test from "ava";
import type { Exit } from "../src/child.js";
import {
  backoffDelay,
  decide,
  readRestartPolicy,
  restartDelaysMs,
  Restarter,
  type Clock,
  type RestarterOptions,
  type RestartPolicy,
} from "../src/restarts.js";

const policy: RestartPolicy = { maxRestarts: 5, windowMs: 60_000, initialDelayMs: 500, maxDelayMs: 10_000 };
const KILLED: Exit = { code: null, signal: "SIGKILL" };

/** Timers that fire only when the test advances time; each fired callback's promises settle first. */
class FakeClock implements Clock {
  time = 1_000_000;
  private readonly timers = new Map<number, { at: number; run: () => void }>();
  private nextId = 1;

  now(): number {
    return this.time;
  }
  setTimeout(run: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  get pendingTimers(): number {
    return this.timers.size;
  }
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter(([, timer]) => timer.at <= end).sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
      await settle();
    }
    this.time = end;
    await settle();
  }
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A fake stack: each start waits until the test ends it; a failed one leaves nothing running. */
function harness(overrides: Partial<RestarterOptions> = {}) {
  const clock = new FakeClock();
  const starts: { name: string; at: number; succeed(pid: number): void; fail(error: Error): void }[] = [];
  const logs: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const gaveUp: string[] = [];
  const restarted: [string, number][] = [];
  const log = (level: string) => (fields: Record<string, unknown>, message: string) =>
    logs.push({ level, message, fields });
  const restarter = new Restarter({
    policy,
    clock,
    start: (name) =>
      new Promise<number>((resolve, reject) =>
        starts.push({
          name,
          at: clock.time,
          succeed: resolve,
          fail: reject,
        }),
      ),
    giveUp: (name) => gaveUp.push(name),
    restarted: (name, pid) => void restarted.push([name, pid]),
    log: { info: log("info"), warn: log("warn"), error: log("error") } as unknown as RestarterOptions["log"],
    ...overrides,
  });
  /** The child crashes: the restarter hears of it. */
  const crash = (name: string, exit: Exit = KILLED) => restarter.exited(name, exit);
  return { clock, restarter, starts, logs, gaveUp, restarted, crash };
}

test("the delay doubles from the initial one up to the maximum", (t) => {
  t.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 50].map((attempt) => backoffDelay(policy, attempt)),
    [500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000],
  );
  t.is(backoffDelay({ ...policy, initialDelayMs: 0 }, 3), 0);
  t.is(backoffDelay({ ...policy, maxDelayMs: 300 }, 1), 300, "the maximum wins over the initial delay");
});

test("decide: at most maxRestarts restarts within a sliding window", (t) => {
  const now = 100_000;
  t.deepEqual(decide(policy, [], now), { restart: true, attempt: 1, delayMs: 500, byFailures: false });
  t.deepEqual(decide(policy, [now - 1000, now - 500], now), {
    restart: true,
    attempt: 3,
    delayMs: 2000,
    byFailures: false,
  });
  const five = [now - 59_000, now - 40_000, now - 30_000, now - 20_000, now - 1];
  t.deepEqual(decide(policy, five, now), { restart: false, restarts: 5 });
  // The oldest leaves the window: one restart is allowed again, as the 5th within it.
  t.deepEqual(decide(policy, five, now + 1000), { restart: true, attempt: 5, delayMs: 8000, byFailures: false });
  t.deepEqual(decide(policy, five, now + 60_000), { restart: true, attempt: 1, delayMs: 500, byFailures: false });
  t.deepEqual(decide({ ...policy, maxRestarts: 0 }, [], now), { restart: false, restarts: 0 });
  // Restarts that did not come up count past the window, and say so.
  t.deepEqual(decide(policy, [now - 61_000], now, 2), { restart: true, attempt: 3, delayMs: 2000, byFailures: true });
  t.deepEqual(decide(policy, [now - 1000], now, 1), { restart: true, attempt: 2, delayMs: 1000, byFailures: false });
});

test("the policy comes from RESTART_* with documented defaults, and refuses nonsense", (t) => {
  t.deepEqual(readRestartPolicy({}), policy);
  t.deepEqual(
    readRestartPolicy({
      RESTART_MAX_PER_WINDOW: "2",
      RESTART_WINDOW_SECONDS: "600",
      RESTART_DELAY_MS: "100",
      RESTART_DELAY_MAX_MS: "400",
    }),
    { maxRestarts: 2, windowMs: 600_000, initialDelayMs: 100, maxDelayMs: 400 },
  );
  t.is(readRestartPolicy({ RESTART_MAX_PER_WINDOW: "0" }).maxRestarts, 0);
  t.throws(() => readRestartPolicy({ RESTART_MAX_PER_WINDOW: "-1" }), { instanceOf: ConfigError });
  t.throws(() => readRestartPolicy({ RESTART_WINDOW_SECONDS: "0" }), { instanceOf: ConfigError });
  t.throws(() => readRestartPolicy({ RESTART_DELAY_MS: "1.5" }), { instanceOf: ConfigError });
});

test("a policy whose limit a crashing child could never reach stops the launcher at start", (t) => {
  // 0.5 + 1 + 2 + 4 + 8 s of delays: the window must be longer, or the first restart has left it
  // before the fifth is made.
  t.is(restartDelaysMs(policy), 15_500);
  t.is(readRestartPolicy({ RESTART_WINDOW_SECONDS: "16" }).windowMs, 16_000);
  for (const env of [
    { RESTART_WINDOW_SECONDS: "10" },
    { RESTART_WINDOW_SECONDS: "15" },
    { RESTART_MAX_PER_WINDOW: "10" },
    { RESTART_DELAY_MS: "20000", RESTART_DELAY_MAX_MS: "20000" },
  ]) {
    t.throws(() => readRestartPolicy(env), { instanceOf: ConfigError, message: /RESTART_WINDOW_SECONDS .* for ever/ });
  }
  // What the check guards against: such a policy restarts a child that crashes at once without end.
  const short = { ...policy, windowMs: 10_000 };
  const decided: number[] = [];
  let now = 0;
  for (let exits = 0; exits < 100; exits++) {
    const decision = decide(short, decided, now);
    t.true(decision.restart);
    decided.push(now);
    if (decision.restart) now += decision.delayMs;
  }
});

test("a longest restart delay below the first one is refused", (t) => {
  t.throws(() => readRestartPolicy({ RESTART_DELAY_MS: "2000", RESTART_DELAY_MAX_MS: "1000" }), {
    instanceOf: ConfigError,
    message: "RESTART_DELAY_MAX_MS (1000) must be at least RESTART_DELAY_MS (2000)",
  });
  t.is(readRestartPolicy({ RESTART_DELAY_MS: "1000", RESTART_DELAY_MAX_MS: "1000" }).maxDelayMs, 1000);
});

test("a crash-looping child is restarted after 0.5, 1, 2, 4 and 8 s, then everything stops", async (t) => {
  const { clock, starts, logs, gaveUp, restarted, crash } = harness();
  const delays: number[] = [];
  for (let n = 1; n <= 5; n++) {
    const crashedAt = clock.time;
    crash("table");
    await clock.advance(10_000);
    const start = starts.at(-1)!;
    t.is(starts.length, n);
    delays.push(start.at - crashedAt);
    start.succeed(1000 + n);
    await settle();
  }
  t.deepEqual(delays, [500, 1000, 2000, 4000, 8000]);
  t.deepEqual(
    restarted.map(([, pid]) => pid),
    [1001, 1002, 1003, 1004, 1005],
  );
  const scheduled = logs.filter((l) => l.level === "warn").map((l) => l.message);
  t.is(scheduled[0], "table was killed by SIGKILL; restarting it in 500 ms (restart 1 of 5 within 60 s)");
  t.is(scheduled[4], "table was killed by SIGKILL; restarting it in 8000 ms (restart 5 of 5 within 60 s)");
  t.is(logs.filter((l) => l.level === "info")[0]?.message, "table restarted, pid 1001 (restart 1 of 5 within 60 s)");

  // Five restarts decided 10 s apart, all within the last 60 s: the sixth exit is one too many.
  crash("table", { code: 1, signal: null });
  t.deepEqual(gaveUp, ["table"]);
  t.is(
    logs.at(-1)?.message,
    "table exited with code 1; it was restarted 5 times already, the limit " +
      "(RESTART_MAX_PER_WINDOW=5, RESTART_WINDOW_SECONDS=60): stopping everything",
  );
  t.is(logs.at(-1)?.level, "error");
  await clock.advance(120_000);
  t.is(starts.length, 5, "nothing is started after giving up");
  crash("wallet");
  t.deepEqual(gaveUp, ["table"], "giveUp is called once");
});

test("each child has its own count; a quiet window brings the delay back to the first", async (t) => {
  const { clock, starts, crash } = harness();
  crash("table");
  crash("wallet");
  await clock.advance(500);
  t.deepEqual(
    starts.map((s) => s.name),
    ["table", "wallet"],
  );
  for (const start of starts) start.succeed(1);
  await settle();
  crash("table");
  await clock.advance(999);
  t.is(starts.length, 2, "the table's second restart waits 1 s");
  await clock.advance(1);
  t.is(starts.length, 3);
  starts[2]!.succeed(2);
  await settle();

  await clock.advance(60_000);
  const crashedAt = clock.time;
  crash("table");
  await clock.advance(10_000);
  t.is(starts[3]!.at - crashedAt, 500, "the earlier restarts left the window");
});

test("a stop during the delay cancels the restart; later exits are ignored", async (t) => {
  const { clock, restarter, starts, gaveUp, crash } = harness();
  crash("odds");
  crash("db");
  t.deepEqual(restarter.pending(), ["odds", "db"]);
  await clock.advance(100);
  restarter.stop();
  t.deepEqual(restarter.pending(), []);
  t.is(clock.pendingTimers, 0, "the timers are cleared, not left to fire");
  await clock.advance(120_000);
  crash("table");
  await clock.advance(120_000);
  t.deepEqual(starts, [], "nothing started after the stop");
  t.deepEqual(gaveUp, []);
});

test("a stop while a start is in flight: its outcome is ignored, nothing more is started", async (t) => {
  const { clock, restarter, starts, logs, restarted, crash } = harness();
  crash("gateway");
  await clock.advance(500);
  t.is(starts.length, 1);
  restarter.stop();
  // The stack's stop ends the wait for the process it is stopping.
  starts[0]!.fail(new Error("the stack is stopping"));
  await settle();
  restarter.exited("gateway", { code: null, signal: "SIGTERM" });
  await clock.advance(120_000);
  t.is(starts.length, 1);
  t.deepEqual(restarted, []);
  t.false(
    logs.some((l) => /restarted|did not start/.test(l.message)),
    logs.map((l) => l.message).join("\n"),
  );
});

test("a process that dies while starting again counts as another restart", async (t) => {
  const { clock, restarter, starts, logs } = harness();
  restarter.exited("wallet", KILLED);
  await clock.advance(500);
  // The new process ends before it listens: the stack reports the exit, then the start rejects.
  restarter.exited("wallet", { code: 1, signal: null });
  starts[0]!.fail(new Error("wallet exited with code 1"));
  await settle();
  t.is(
    logs.at(-1)?.message,
    "wallet exited with code 1 while starting again; restarting it in 1000 ms (restart 2 of 5 within 60 s)",
  );
  await clock.advance(1000);
  t.is(starts.length, 2);
});

test("a start that fails (the database not ready) is retried like an exit", async (t) => {
  const { clock, starts, logs, crash } = harness();
  crash("db");
  await clock.advance(500);
  starts[0]!.fail(new Error("the embedded database did not get ready within 10000 ms, so it was killed"));
  await settle();
  t.is(
    logs.at(-1)?.message,
    "db did not start again (the embedded database did not get ready within 10000 ms, so it was killed); " +
      "restarting it in 1000 ms (restart 2 of 5 within 60 s)",
  );
  await clock.advance(1000);
  t.is(starts.length, 2);
});

test("a child that never comes up again is retried with backoff until the limit stops everything, however long its starts take", async (t) => {
  const { clock, starts, logs, gaveUp, crash } = harness();
  const hung = "table did not listen on port 1234 within 60000 ms, so it was killed (SIGKILL)";
  // A failed start followed by one that comes up: forgotten with the window, like any restart.
  crash("table");
  await clock.advance(500);
  starts[0]!.fail(new Error(hung));
  await settle();
  await clock.advance(1000);
  t.is(starts.length, 2, "a start that did not come up is retried");
  starts[1]!.succeed(1002);
  await settle();
  await clock.advance(120_000);

  crash("table");
  const delays: number[] = [];
  let failedAt = clock.time;
  for (let n = 1; n <= 5; n++) {
    await clock.advance(10_000);
    const start = starts.at(-1)!;
    t.is(starts.length, 2 + n, `restart ${n} is made`);
    delays.push(start.at - failedAt);
    // The stack waits out the start timeout, then kills the process and rejects: each restart is
    // decided more than a window after the one before, so the window alone never reaches the limit.
    await clock.advance(60_000);
    failedAt = clock.time;
    start.fail(new Error(hung));
    await settle();
  }
  t.deepEqual(delays, [500, 1000, 2000, 4000, 8000]);
  t.is(
    logs.filter((l) => l.level === "warn").at(-1)?.message,
    `table did not start again (${hung}); restarting it in 8000 ms (restart 5 of 5: the 4 before it did not come up)`,
  );
  t.deepEqual(gaveUp, ["table"]);
  t.is(logs.at(-1)?.level, "error");
  t.is(
    logs.at(-1)?.message,
    `table did not start again (${hung}); its last 5 restarts did not come up, ` +
      "the limit (RESTART_MAX_PER_WINDOW=5): stopping everything",
  );
  await clock.advance(120_000);
  t.is(starts.length, 7, "nothing is started after giving up");
});

test("RESTART_MAX_PER_WINDOW=0: the first exit stops everything, as before restarts existed", (t) => {
  const { restarter, starts, logs, gaveUp } = harness({ policy: { ...policy, maxRestarts: 0 } });
  restarter.exited("table", KILLED);
  t.deepEqual(gaveUp, ["table"]);
  t.deepEqual(starts, []);
  t.is(
    logs.at(-1)?.message,
    "table was killed by SIGKILL; restarts are off (RESTART_MAX_PER_WINDOW=0): stopping everything",
  );
});

test("a restart is logged only once what `restarted` records (the pid file) is written", async (t) => {
  let written: () => void = () => {};
  const { clock, starts, logs, crash } = harness({
    restarted: () => new Promise<void>((resolve) => (written = resolve)),
  });
  crash("table");
  await clock.advance(500);
  starts[0]!.succeed(1001);
  await settle();
  t.false(
    logs.some((l) => /restarted/.test(l.message)),
    "not logged while the pid file is being written",
  );
  written();
  await settle();
  t.is(logs.filter((l) => l.level === "info")[0]?.message, "table restarted, pid 1001 (restart 1 of 5 within 60 s)");
});
