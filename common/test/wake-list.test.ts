import test from "ava";
import { WakeList } from "../src/wake-list.js";

test("every waiter wakes at the next wake(), not at a later one; an aborted one rejects and is let go", async (t) => {
  const list = new WakeList();
  const woken: string[] = [];
  const first = list.wait(new AbortController().signal).then(() => woken.push("first"));
  const second = list.wait(new AbortController().signal).then(() => woken.push("second"));
  const abort = new AbortController();
  const aborted = list.wait(abort.signal);
  abort.abort(new Error("gone"));
  await t.throwsAsync(aborted, { message: "gone" });
  await Promise.resolve();
  t.deepEqual(woken, [], "nothing before wake()");
  list.wake();
  await Promise.all([first, second]);
  t.deepEqual(woken.sort(), ["first", "second"]);
  let late = false;
  void list.wait(new AbortController().signal).then(() => (late = true));
  await new Promise((resolve) => setTimeout(resolve, 10));
  t.false(late, "a wait begun after wake() waits for the next one");
  await t.throwsAsync(list.wait(AbortSignal.abort(new Error("already"))), { message: "already" });
});
