import test from "ava";
import { CoalescedReads } from "../src/coalesced-read.js";

/** A read the test ends by hand; each resolves to its own number. */
function manualReads() {
  const pending: (() => void)[] = [];
  let started = 0;
  const read = () =>
    new Promise<number>((resolve, reject) => {
      const n = ++started;
      pending.push(() => (n === 2 ? reject(new Error("read 2 failed")) : resolve(n)));
    });
  return { read, endNext: () => pending.shift()!(), started: () => started };
}

test("calls during a read wait for one next read, started after it; never more than one at a time", async (t) => {
  const { read, endNext, started } = manualReads();
  const keyed = new CoalescedReads(read);
  const reads = { get: () => keyed.get("table 1") };
  const first = reads.get();
  const during = [reads.get(), reads.get(), reads.get()];
  t.is(started(), 1, "the next read waits for the running one");
  endNext();
  t.is(await first, 1);
  await new Promise((resolve) => setImmediate(resolve));
  t.is(started(), 2, "one read for every call that came during the first");
  const late = reads.get();
  endNext();
  for (const call of during) await t.throwsAsync(call, { message: "read 2 failed" });
  await new Promise((resolve) => setImmediate(resolve));
  t.is(started(), 3, "a failed read is not reused: the call after it gets a read of its own");
  endNext();
  t.is(await late, 3);
  const idle = reads.get();
  t.is(started(), 4, "with no read running, a call starts one at once");
  endNext();
  t.is(await idle, 4);
  await new Promise((resolve) => setImmediate(resolve));
  t.is(keyed.size, 0, "nothing kept once the key's reads are done");
});

test("keys are read apart: one key's read never waits for, or answers, another's", async (t) => {
  const started: string[] = [];
  const ends = new Map<string, () => void>();
  const reads = new CoalescedReads(
    (key: string) =>
      new Promise<string>((resolve) => {
        started.push(key);
        ends.set(key, () => resolve(`read of ${key}`));
      }),
  );
  const a = reads.get("a");
  const b = reads.get("b");
  t.deepEqual(started, ["a", "b"], "both at once");
  ends.get("b")!();
  t.is(await b, "read of b");
  ends.get("a")!();
  t.is(await a, "read of a");
});
