// The gateway's line for a request names it with the same field as every service's call lines
// (REQUEST_ID_FIELD), so one request's lines join across processes; the id is the one echoed.
import { REQUEST_ID_FIELD } from "@pokerodds/common";
import test from "ava";
import express from "express";
import { pino } from "pino";
import { Writable } from "node:stream";
import { until } from "../../test/helpers/poll.js";
import { startHttpServer } from "../src/http-server.js";
import { loggedUrl, requestLog, requestLogging } from "../src/http/request.js";

/** A log destination that keeps each line, parsed. */
function collectedLines() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, sink };
}

test("a request's log line carries its id as requestId, the id the answer echoes", async (t) => {
  const { lines, sink } = collectedLines();
  const app = express();
  app.use(requestLogging(pino(sink)));
  app.get("/ping", (_req, res) => void res.json({ ok: true }));
  const server = await startHttpServer(app, { port: 0, host: "127.0.0.1" });
  t.teardown(() => server.close(100));
  const response = await fetch(`http://127.0.0.1:${server.port}/ping`, { headers: { "x-request-id": "req-42" } });
  t.is(response.headers.get("x-request-id"), "req-42");
  // A line is written once its response has finished.
  await until("the request's line", () => lines.some((line) => line.msg === "request completed"));
  const line = lines.find((l) => l.msg === "request completed");
  t.truthy(line);
  t.is(line?.[REQUEST_ID_FIELD], "req-42");
  t.false("reqId" in (line ?? {}));
});

test("a health check is logged at debug only, passing or failing (the health route logs its changes); any other request at info or above", async (t) => {
  const { lines, sink } = collectedLines();
  let healthy = true;
  const app = express();
  app.use(requestLogging(pino(sink)));
  app.get("/api/health", (_req, res) => void res.status(healthy ? 200 : 503).json({}));
  app.get("/ping", (_req, res) => void res.json({ ok: true }));
  app.get("/down", (_req, res) => void res.status(503).json({}));
  const server = await startHttpServer(app, { port: 0, host: "127.0.0.1" });
  t.teardown(() => server.close(100));
  const base = `http://127.0.0.1:${server.port}`;
  for (let i = 0; i < 5; i++) await fetch(`${base}/api/health`);
  healthy = false;
  for (let i = 0; i < 5; i++) await fetch(`${base}/api/health?q=${"x".repeat(1000)}`);
  await fetch(`${base}/ping`);
  await fetch(`${base}/down`);
  await until("the /down line", () =>
    lines.some((line) => (line.req as { url?: string } | undefined)?.url === "/down"),
  );
  const urls = lines.map((line) => (line.req as { url: string }).url);
  t.deepEqual(urls, ["/ping", "/down"], "the ten health checks wrote nothing at info or warn");
  t.is(lines[1]?.level, 40, "any other 503 is a warning");
});

test("a credential in the query is not logged: the OIDC sign-in's code and state are replaced", (t) => {
  t.is(loggedUrl("/?code=abc123&state=xyz"), "/?code=%5Bredacted%5D&state=%5Bredacted%5D");
  t.is(loggedUrl("/api/admin/games?tableId=7&after=7:120"), "/api/admin/games?tableId=7&after=7:120");
  t.is(loggedUrl("/api/tables"), "/api/tables");
  t.is(loggedUrl(undefined), undefined);
});

test("a long URL is logged cut to its first 1,024 characters, saying how long it was; a credential in it still replaced", (t) => {
  const path = `/${'"'.repeat(16_000)}`;
  t.is(loggedUrl(path), `${path.slice(0, 1024)}… (16001 characters)`);
  t.is(loggedUrl(`/?code=${"x".repeat(5000)}`), "/?code=%5Bredacted%5D");
  const exact = `/${"a".repeat(1023)}`;
  t.is(loggedUrl(exact), exact, "1,024 characters are kept whole");
});

test("a 5xx with a cause is logged at error with it; a handler's own line carries the request's id", async (t) => {
  const { lines, sink } = collectedLines();
  const app = express();
  app.use(requestLogging(pino(sink)));
  app.get("/broken", (_req, res) => {
    requestLog(res).info("about to fail");
    res.err = new Error("the table service's answer broke the contract");
    res.status(500).json({ error: "internal error" });
  });
  app.get("/starting", (_req, res) => void res.status(503).json({ error: "starting" }));
  const server = await startHttpServer(app, { port: 0, host: "127.0.0.1" });
  t.teardown(() => server.close(100));
  await fetch(`http://127.0.0.1:${server.port}/broken`, { headers: { "x-request-id": "req-500" } });
  await fetch(`http://127.0.0.1:${server.port}/starting`, { headers: { "x-request-id": "req-503" } });
  await until("the 503's line", () => lines.some((line) => line[REQUEST_ID_FIELD] === "req-503"));
  const own = lines.find((line) => line.msg === "about to fail");
  t.is(own?.[REQUEST_ID_FIELD], "req-500");
  const broken = lines.find((line) => line[REQUEST_ID_FIELD] === "req-500" && line.msg !== "about to fail");
  t.is(broken?.level, 50);
  t.is(broken?.msg, "request failed with 500");
  t.is((broken?.err as { message?: string } | undefined)?.message, "the table service's answer broke the contract");
  const starting = lines.find((line) => line[REQUEST_ID_FIELD] === "req-503");
  t.is(starting?.level, 40, "a 5xx without a cause is a warning");
  t.is(starting?.msg, "request failed with 503");
  t.false("err" in (starting ?? {}));
});
