// Every process logs one shape: pino's standard fields (time in epoch ms, pid, hostname) and the
// service (the request's field name is checked where requests are logged: gateway/test/request-log).
import test from "ava";
import { execFileSync } from "node:child_process";
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
