import test from "ava";
import { BusyError } from "../src/errors.js";
import { OneAtATime } from "../src/one-at-a-time.js";

test("a second task while one runs is refused as busy; after it ends, or fails, the next runs", async (t) => {
  const audits = new OneAtATime("an audit is running");
  let finish!: () => void;
  const first = audits.run(() => new Promise<string>((resolve) => (finish = () => resolve("first"))));
  await t.throwsAsync(
    audits.run(async () => "second"),
    { instanceOf: BusyError, message: "an audit is running" },
  );
  finish();
  t.is(await first, "first");
  await t.throwsAsync(
    audits.run(() => Promise.reject(new Error("failed"))),
    { message: "failed" },
  );
  t.is(await audits.run(async () => "third"), "third");
});
