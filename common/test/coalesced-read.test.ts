import test from "ava";
import { CoalescedRead } from "../src/coalesced-read.js";

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
  const reads = new CoalescedRead(read);
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
});

test("with a maximum age, a call joins the running read if it began within that age, else waits for the next", async (t) => {
  const { read, endNext, started } = manualReads();
  const reads = new CoalescedRead(read);
  const first = reads.get(60_000);
  const joined = reads.get(60_000);
  t.is(started(), 1, "a read begun within the age serves the call");
  endNext();
  t.is(await first, 1);
  t.is(await joined, 1);
  const running = reads.get();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const tooOld = reads.get(5);
  t.is(started(), 2, "a read begun longer ago than the age does not serve the call");
  endNext();
  await t.throwsAsync(running, { message: "read 2 failed" });
  await new Promise((resolve) => setImmediate(resolve));
  t.is(started(), 3, "it gets the next read");
  endNext();
  t.is(await tooOld, 3);
});
