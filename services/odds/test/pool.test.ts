// The worker pool serves a player's deal before queued bulk chunks (two lanes), and refuses by lane.
// It runs the built pool (dist), whose worker file is compiled JavaScript.
import test from "ava";
import { OddsPool } from "@pokerodds/odds/pool";

test("with one thread busy on a backlog of bulk chunks, a deal is served next, not last", async (t) => {
  const pool = new OddsPool(1, 1_000);
  t.teardown(() => pool.close());
  const finished: string[] = [];
  // With the cancellation signal the service passes: such tasks must still wait in their lane.
  const signal = new AbortController().signal;
  const bulk = Array.from({ length: 12 }, (_, i) =>
    pool
      .run("bulkTask", { firstIndex: i + 1, count: 1, numberOfHands: 4, targetRtp: 0.97 }, signal)
      .then(() => finished.push(`bulk ${i}`)),
  );
  // Let the thread take the first chunk; the rest wait in the batch lane.
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.true(pool.queued("batch") > 0, "bulk chunks are queued");
  const deal = pool
    .run("dealTask", { numberOfHands: 4, targetRtp: 0.97, gameId: "T1-1" })
    .then(() => finished.push("deal"));
  await Promise.all([...bulk, deal]);
  t.true(finished.indexOf("deal") <= 2, `the deal finished ${finished.indexOf("deal") + 1}th of ${finished.length}`);
});

test("each lane is full on its own: a bulk backlog does not refuse deals", async (t) => {
  const pool = new OddsPool(1, 3);
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
  const pool = new OddsPool(1, 1_000);
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
