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

const started = (env: Record<string, string>) =>
  spawnSync(
    process.execPath,
    [
      "--import=tsx/esm",
      "--input-type=module",
      "-e",
      `import { createLogger } from "./src/logger.ts"; createLogger("odds").warn("started");`,
    ],
    { encoding: "utf8", cwd: new URL("..", import.meta.url).pathname, env: { ...process.env, ...env } },
  );

test("an empty LOG_LEVEL is unset (info), as every other variable's empty value is; a level in any case is pino's", (t) => {
  for (const level of ["", "WARN", "Info"]) {
    const run = started({ LOG_LEVEL: level });
    t.is(run.status, 0, run.stderr);
    t.like(JSON.parse(run.stdout.trim()), { service: "odds", msg: "started", level: 40 }, level);
  }
  t.is(started({ LOG_LEVEL: "error" }).stdout, "");
});

test("a LOG_LEVEL pino has not stops the process with exit 1 and one fatal line naming the variable", (t) => {
  for (const level of ["warning", " info", "10", "none"]) {
    const run = started({ LOG_LEVEL: level });
    t.is(run.status, 1, level);
    t.is(run.stderr, "", level);
    const line = JSON.parse(run.stdout.trim()) as Record<string, unknown>;
    t.like(line, { service: "odds", level: 60 }, level);
    t.regex(String(line.msg), /^LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got /, level);
  }
});

test("an error's line keeps what it is but never the documents the database driver carries in it", (t) => {
  // A refused insert as mongodb 7 reports it: its documents (a table version: the game's deck and
  // seed) in writeErrors[].op.
  const line = logged(`
    import { MongoBulkWriteError } from "mongodb";
    import { WriteError } from "mongodb/lib/bulk/common.js";
    import { createLogger } from "./src/logger.ts";
    const doc = { _id: "3:17", snapshot: { deck: ["Ah", "Kd"], fairness: { serverSeed: "ab".repeat(32) } } };
    const refused = new MongoBulkWriteError(
      { message: "some refusal", code: 1, writeErrors: [new WriteError({ code: 1, index: 0, errmsg: "some refusal", op: doc })] },
      { insertedCount: 0, getWriteConcernError: () => undefined, hasWriteErrors: () => true },
    );
    createLogger("table").error({ err: refused }, "rpc failed");
  `);
  const text = JSON.stringify(line);
  t.false(text.includes("abab"), text);
  t.false(text.includes('"Kd"'), text);
  t.like(line.err, { type: "MongoBulkWriteError", message: "some refusal", code: 1 });
});
