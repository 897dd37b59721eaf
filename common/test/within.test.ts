import test from "ava";
import { setTimeout as sleep } from "node:timers/promises";
import { TIMED_OUT, within } from "../src/within.js";

test("within gives the work's value when it settles in time, TIMED_OUT when not, and its rejection", async (t) => {
  t.is(await within(Promise.resolve(7), 1_000), 7);
  t.is(
    await within(
      sleep(5_000).then(() => 7),
      50,
    ),
    TIMED_OUT,
  );
  await t.throwsAsync(within(Promise.reject(new Error("failed")), 1_000), { message: "failed" });
});
