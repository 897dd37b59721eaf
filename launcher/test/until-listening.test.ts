// A child started by the stack that does not listen by its deadline is hung, not slow: the stack
// SIGKILLs it (launcher/src/stack.ts, untilListening) before the start fails, so a failed start never
// leaves a process that does not serve, and the restart policy can count it like a crash at start.
import test from "ava";
import { spawnChild } from "../src/child.js";
import { freePorts } from "../src/ports.js";
import { tripwire, untilListening } from "../src/stack.js";

test("a child that never listens is SIGKILLed at its deadline; the start fails naming its port and timeout", async (t) => {
  const port = (await freePorts(1))[0]!;
  // A real process that runs but never listens; without tsx, which the test runner's NODE_OPTIONS load.
  const child = spawnChild("odds", process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
    env: { ...process.env, NODE_OPTIONS: "" },
    output: "ignore",
  });
  t.teardown(() => child.kill("SIGKILL"));
  // What the stack passes: SIGKILL, then wait until it is gone.
  const kill = async () => {
    child.kill("SIGKILL");
    await child.exited;
  };
  const error = await t.throwsAsync(untilListening("odds", port, Date.now() + 500, tripwire(), kill));
  const match = /^odds did not listen on port (\d+) within (\d+) ms, so it was killed \(SIGKILL\)$/.exec(error.message);
  t.truthy(match, error.message);
  t.is(Number(match?.[1]), port);
  t.is(Number(match?.[2]), 500);
  t.false(child.alive(), "gone by the time the start fails");
  t.deepEqual(await child.exited, { code: null, signal: "SIGKILL" });
});
