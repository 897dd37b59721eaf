import { freePort } from "@pokerodds/launcher/ports";
import test, { type ExecutionContext } from "ava";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { SeenProcesses } from "./helpers/processes.js";
import { useTestStack } from "./helpers/stack.js";

const launcher = fileURLToPath(new URL("../launcher/dist/main.js", import.meta.url));

/** The promise's value, or undefined once `ms` have passed; clears its timer so nothing lingers. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function healthStatus(url: string): Promise<number> {
  const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5000) });
  await response.body?.cancel();
  return response.status;
}

/** Polls until health answers `status`; the gateway may learn of a change only at its next check. */
async function untilHealth(url: string, status: number, timeoutMs = 20_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = await healthStatus(url).catch(() => 0);
  while (last !== status && Date.now() < deadline) {
    await sleep(250);
    last = await healthStatus(url).catch(() => 0);
  }
  return last;
}

/**
 * The launcher as `npm start` runs it (no tsx loader, the embedded database, the development issuer),
 * on a fresh data directory and a free port, until its "API ready" line or its exit.
 */
async function startLauncher(t: ExecutionContext) {
  const dataDir = await mkdtemp(join(tmpdir(), "pokerodds-launcher-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir };
  for (const name of ["NODE_OPTIONS", "MONGODB_URI", "AUTH_JWKS_URL", "AUTH_ISSUER", "AUTH_AUDIENCE"]) delete env[name];

  const launched = spawn(process.execPath, [launcher], { env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    launched.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const output: string[] = [];
  const childPids: number[] = [];
  let metrics: Record<string, string> = {};
  const seen = new SeenProcesses();
  seen.add(launched.pid!);
  const ready = new Promise<void>((resolve) => {
    for (const stream of [launched.stdout, launched.stderr]) {
      createInterface({ input: stream }).on("line", (line) => {
        output.push(line);
        // The launcher's own "API ready" line lists its children: [{ name, pid }].
        const entry = parseJson(line);
        if (entry?.service === "launcher" && Array.isArray(entry.children)) {
          childPids.push(...(entry.children as { pid: number }[]).map((child) => child.pid));
          childPids.forEach((pid) => seen.add(pid));
          metrics = (entry.metrics ?? {}) as Record<string, string>;
          resolve();
        }
      });
    }
  });
  t.teardown(async () => {
    // Only finds something still running when the test failed: leave nothing behind.
    seen.killAll();
    await rm(dataDir, { recursive: true, force: true });
  });
  const started = await within(Promise.race([ready.then(() => true), exited.then(() => false)]), 90_000);
  return { launched, exited, output, childPids, seen, port, metrics: () => metrics, started: started === true };
}

test("npm start: SIGTERM stops the whole stack within 10 s and leaves no process behind", async (t) => {
  let run = await startLauncher(t);
  // A port the launcher picked free can be taken by a stack another test file starts meanwhile.
  if (!run.started && run.output.some((line) => line.includes("EADDRINUSE"))) run = await startLauncher(t);
  const { launched, exited, output, childPids, seen, port } = run;
  const tail = () => output.slice(-60).join("\n");
  if (!run.started) {
    t.fail(`the launcher did not get ready:\n${tail()}`);
    return;
  }
  t.is(childPids.length, 5, "database, odds, wallet, table, gateway");
  t.is(await healthStatus(`http://127.0.0.1:${port}`), 200);
  // Each service's metrics, at the URL the ready line names (free ports, picked at each start).
  const metrics = run.metrics();
  t.deepEqual(Object.keys(metrics).sort(), ["gateway", "odds", "table", "wallet"]);
  for (const url of Object.values(metrics)) t.regex(await (await fetch(url)).text(), /^process_cpu_seconds_total/m);

  const stoppingAt = Date.now();
  launched.kill("SIGTERM");
  const exit = await within(exited, 10_000);
  t.truthy(exit, `still running 10 s after SIGTERM:\n${tail()}`);
  t.deepEqual(exit, { code: 0, signal: null }, tail());
  t.log(`stopped in ${Date.now() - stoppingAt} ms`);
  t.deepEqual(seen.alive(childPids), [], "no child outlives the launcher");
});

test("stopping a service or the database turns health 503, starting it again 200", async (t) => {
  const stack = await useTestStack(t);
  t.is(await healthStatus(stack.url), 200);
  for (const name of ["wallet", "db"] as const) {
    await stack.stopService(name);
    t.is(await untilHealth(stack.url, 503), 503, `${name} stopped`);
    await stack.startService(name);
    t.is(await untilHealth(stack.url, 200), 200, `${name} started again`);
  }
});

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
