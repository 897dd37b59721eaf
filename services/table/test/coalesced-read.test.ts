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
