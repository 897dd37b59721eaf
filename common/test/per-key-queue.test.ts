import test from "ava";
import { setTimeout as sleep } from "node:timers/promises";
import { PerKeyQueue } from "../src/per-key-queue.js";

test("tasks of one key run one at a time in order, other keys alongside, failures do not block the queue", async (t) => {
  const queue = new PerKeyQueue();
  const running = new Map<string, number>();
  const order: string[] = [];
  const task = (key: string, name: string, fail = false) =>
    queue.run(key, async () => {
      running.set(key, (running.get(key) ?? 0) + 1);
      t.is(running.get(key), 1, `${name} overlaps another task of ${key}`);
      await sleep(5);
      order.push(name);
      running.set(key, running.get(key)! - 1);
      if (fail) throw new Error(name);
      return name;
    });
  const results = await Promise.allSettled([task("a", "a1"), task("a", "a2", true), task("b", "b1"), task("a", "a3")]);
  t.deepEqual(
    results.map((r) => r.status),
    ["fulfilled", "rejected", "fulfilled", "fulfilled"],
  );
  t.deepEqual(
    order.filter((name) => name.startsWith("a")),
    ["a1", "a2", "a3"],
  );
  t.true(order.indexOf("b1") < order.indexOf("a2"), "b does not wait for a");
});

test("a task whose signal aborted while it waited its turn does not run; the queue goes on", async (t) => {
  const queue = new PerKeyQueue();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const first = queue.run("a", () => gate);
  const gaveUp = new AbortController();
  let ran = false;
  const second = queue.run(
    "a",
    async () => {
      ran = true;
    },
    gaveUp.signal,
  );
  const third = queue.run("a", async () => "third", new AbortController().signal);
  gaveUp.abort(new Error("the call ended"));
  release();
  await first;
  await t.throwsAsync(second, { message: "the call ended" });
  t.false(ran, "not run");
  t.is(await third, "third");
});
