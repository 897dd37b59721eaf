// Every process logs one shape: pino's standard fields (time in epoch ms, pid, hostname) and the
// service (the request's field name is checked where requests are logged: gateway/test/request-log).
import test from "ava";
import { execFileSync, spawnSync } from "node:child_process";
import { hostname } from "node:os";

const logged = (script: string) =>
  JSON.parse(
    execFileSync(process.execPath, ["--import=tsx/esm", "--input-type=module", "-e", script], {
      encoding: "utf8",
      cwd: new URL("..", import.meta.url).pathname,
    }).trim(),
  ) as Record<string, unknown>;

test("a line has pino's standard time, pid and hostname, and the service", (t) => {
  const line = logged(`import { createLogger } from "./src/logger.ts"; createLogger("odds").info("ready");`);
  t.is(typeof line.time, "number");
  t.true(Math.abs((line.time as number) - Date.now()) < 60_000);
  t.is(typeof line.pid, "number");
  t.is(line.hostname, hostname());
  t.like(line, { service: "odds", msg: "ready", level: 30 });
});

test("an error nothing caught ends the process with exit 1 and one fatal JSON line, not bare text", (t) => {
  const run = spawnSync(
    process.execPath,
    [
      "--import=tsx/esm",
      "--input-type=module",
      "-e",
      `import { createLogger, logUncaughtErrors } from "./src/logger.ts";
       logUncaughtErrors(createLogger("table"));
       await Promise.reject(new Error("listen EADDRINUSE: address already in use"));`,
    ],
    { encoding: "utf8", cwd: new URL("..", import.meta.url).pathname },
  );
  t.is(run.status, 1);
  t.is(run.stderr, "");
  const line = JSON.parse(run.stdout.trim()) as Record<string, unknown>;
  t.like(line, { service: "table", level: 60, msg: "uncaught error: exiting", origin: "unhandledRejection" });
  t.like(line.err, { message: "listen EADDRINUSE: address already in use" });
});
