// A database that reads but cannot write shows in GET /api/health. Another process (Python's sqlite3)
// holds SQLite's write lock on the wallet's file of the embedded database: FerretDB's writes then wait
// for it (its busy timeout, 10 s) and fail, while its reads and pings go on (WAL). Health turns to
// 503 "database read only" within the wallet's write probe (every 10 s, 5 s deadline), the wallet still
// serving; once the lock is let go, 200 again. It needs the tests' Python (helpers/python.ts): without
// it the test fails.
import test from "ava";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { eventually } from "../helpers/poll.js";
import { findPython } from "../helpers/python.js";
import { useTestStack } from "../helpers/stack.js";

/** Holds SQLite's write lock (BEGIN IMMEDIATE) on the file until its stdin closes. */
const HOLD_WRITE_LOCK = `
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
`;

/**
 * A probe every 10 s, each given 5 s, and the gateway's one round a second: about 16 s at most. Twice
 * that, on a busy machine; the old code never turns (it failed here at this deadline).
 */
const TURN_WITHIN_MS = 35_000;

async function holdWriteLock(file: string): Promise<{ release(): Promise<void> }> {
  const python = findPython("holding SQLite's lock");
  const holder = spawn(python, ["-c", HOLD_WRITE_LOCK, file], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<string>((resolve) => {
    holder.once("error", (error) => resolve(`${python} could not run: ${error.message}`));
    holder.once("exit", (code, signal) => resolve(`${python} exited (${code ?? signal}) without taking the lock`));
  });
  const locked = new Promise<void>((resolve) =>
    createInterface({ input: holder.stdout! }).once("line", () => resolve()),
  );
  const failure = await Promise.race([locked.then(() => undefined), exited]);
  if (failure !== undefined) throw new Error(failure);
  return {
    release: async () => {
      holder.stdin!.end();
      await exited;
    },
  };
}

async function health(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/api/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test("a database that reads but cannot write: health 503 'database read only', the wallet still serving; 200 once writes work", async (t) => {
  const stack = await useTestStack(t);
  await eventually("health 200 at start", async () => ((await health(stack.url)).status === 200 ? true : undefined));

  const lock = await holdWriteLock(join(stack.dataDir, "db", "wallet.sqlite"));
  t.teardown(() => lock.release());
  const lockedAt = Date.now();
  const readOnly = await eventually(
    "health says the database is read only",
    async () => {
      const answer = await health(stack.url);
      return answer.status === 503 ? answer : undefined;
    },
    { timeoutMs: TURN_WITHIN_MS },
  );
  t.log(`503 ${Date.now() - lockedAt} ms after the lock was taken`);
  t.deepEqual(readOnly.body, {
    status: "unavailable",
    checks: { odds: "ok", wallet: "ok", table: "ok", database: "read_only" },
    error: "database read only",
  });

  await lock.release();
  const releasedAt = Date.now();
  const healthy = await eventually(
    "health 200 once the lock is let go",
    async () => {
      const answer = await health(stack.url);
      return answer.status === 200 ? answer : undefined;
    },
    { timeoutMs: TURN_WITHIN_MS },
  );
  t.log(`200 ${Date.now() - releasedAt} ms after the lock was let go`);
  t.deepEqual(healthy.body, { status: "ok", checks: { odds: "ok", wallet: "ok", table: "ok", database: "ok" } });
});
