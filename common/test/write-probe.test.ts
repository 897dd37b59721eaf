// The write probe (common/src/mongo.ts, probeWrites) on a stub collection whose every upsert answers
// as the test says: what it reports and when, on short timings. The whole path on the embedded
// database (a lock held by another process) is test/integration/database-writes-health.test.ts.
import test from "ava";
import { MongoServerError, type Db } from "mongodb";
import { pino } from "pino";
import { probeWrites } from "../src/mongo.js";

const TIMING = { intervalMs: 20, timeoutMs: 60 };
const logger = pino({ level: "silent" });

/** Resolves once `ready` is true, or fails the test after `ms`. */
async function until(ready: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A database whose `write_probe` upserts answer with `answer(n)` (n from 0), each counted. */
function stubDatabase(answer: (n: number) => Promise<unknown>) {
  const writes: { filter: unknown; update: unknown; options: unknown }[] = [];
  const db = {
    collection: (name: string) => {
      if (name !== "write_probe") throw new Error(`unexpected collection ${name}`);
      return {
        updateOne: (filter: unknown, update: unknown, options: unknown) => {
          writes.push({ filter, update, options });
          return answer(writes.length - 1);
        },
      };
    },
  } as unknown as Db;
  return { db, writes };
}

function startProbe(answer: (n: number) => Promise<unknown>) {
  const { db, writes } = stubDatabase(answer);
  const verdicts: boolean[] = [];
  const probe = probeWrites(db, "wallet-1", logger, (writable) => verdicts.push(writable), TIMING);
  return { probe, writes, verdicts };
}

const never = () => new Promise<never>(() => {});
const duplicateKey = () => new MongoServerError({ message: "E11000 duplicate key error", code: 11000 });

test("unknown until the first probe, whose verdict is told even when writable; then only changes", async (t) => {
  const { probe, writes, verdicts } = startProbe(async () => ({ acknowledged: true }));
  t.teardown(() => probe.stop());
  t.deepEqual(verdicts, [], "nothing before the first probe is started");
  probe.start();
  await until(() => writes.length >= 4, "four probes");
  t.deepEqual(verdicts, [true]);
  // Each probe upserts this process's one document.
  t.deepEqual(writes[0], {
    filter: { _id: "wallet-1" },
    update: { $set: { at: (writes[0]!.update as { $set: { at: Date } }).$set.at } },
    options: { upsert: true },
  });
  t.true((writes[0]!.update as { $set: { at: unknown } }).$set.at instanceof Date);
});

test("a write that does not answer in time is a failure, and the next probe does not wait for it", async (t) => {
  // The first two writes hang for good, the third and later answer.
  const { probe, writes, verdicts } = startProbe((n) => (n < 2 ? never() : Promise.resolve({})));
  t.teardown(() => probe.stop());
  probe.start();
  await until(() => verdicts.length >= 2, "not writable, then writable");
  t.deepEqual(verdicts, [false, true]);
  t.true(writes.length >= 3, "probes went on past the writes still hanging");
});

test("a duplicate key (replicas upserting the one document at once) is a write the database took", async (t) => {
  const { probe, writes, verdicts } = startProbe(() => Promise.reject(duplicateKey()));
  t.teardown(() => probe.stop());
  probe.start();
  await until(() => writes.length >= 3, "three probes");
  t.deepEqual(verdicts, [true]);
});

test("a refused write is a failure; writable again once a write is taken", async (t) => {
  const { probe, verdicts } = startProbe((n) =>
    n === 1 || n === 2 ? Promise.reject(new Error("database or disk is full")) : Promise.resolve({}),
  );
  t.teardown(() => probe.stop());
  probe.start();
  await until(() => verdicts.length >= 3, "writable, not writable, writable");
  t.deepEqual(verdicts, [true, false, true]);
});

test("after stop, no more probes and no more verdicts", async (t) => {
  let release!: () => void;
  const held = new Promise((resolve) => (release = () => resolve({})));
  const { probe, writes, verdicts } = startProbe((n) => (n === 0 ? held : Promise.resolve({})));
  probe.start();
  await until(() => writes.length === 1, "the first probe");
  probe.stop();
  // The write pending at the stop answers: its verdict is not told, and no probe follows.
  release();
  await new Promise((resolve) => setTimeout(resolve, 5 * TIMING.intervalMs));
  t.is(writes.length, 1);
  t.deepEqual(verdicts, []);
});
