import { status } from "@grpc/grpc-js";
import test from "ava";
import type { TableApi } from "../src/services.js";
import { silentLogger, startApp } from "./helpers/app.js";
import { grpcError, lobby } from "./helpers/fixtures.js";
import { assertMatchesSchema } from "./helpers/schemas.js";

/** GET /api/tables without a token, against a table service that answers `listTables`. */
async function lobbyWith(listTables: TableApi["listTables"]) {
  const logger = silentLogger();
  const warnings: unknown[][] = [];
  // Request loggers are pino children, which inherit the root's methods.
  logger.warn = ((...args: unknown[]) => void warnings.push(args)) as typeof logger.warn;
  const app = await startApp({ logger, table: { listTables } });
  try {
    const response = await fetch(`${app.url}/api/tables`, { headers: { "x-request-id": "lobby-1" } });
    return { status: response.status, body: await response.json(), warnings, calls: app.table.calls };
  } finally {
    await app.close();
  }
}

test("the active tables, publicly, valid against the document", async (t) => {
  const { status: code, body, warnings, calls } = await lobbyWith(async () => lobby());
  t.is(code, 200);
  t.deepEqual(body, {
    tables: [
      { tableId: 1, playerCount: 2, gameState: "BETTING" },
      { tableId: 3, playerCount: 1, gameState: "WAITING" },
    ],
    totalActivePlayers: 3,
  });
  assertMatchesSchema(t, "TablesList", body);
  t.deepEqual(warnings, []);
  t.deepEqual(calls, [{ method: "listTables", request: {}, options: { deadlineMs: 3_000, requestId: "lobby-1" } }]);
});

test("table service or database unavailable: 200 with no tables, and a warning", async (t) => {
  for (const code of [status.UNAVAILABLE, status.DEADLINE_EXCEEDED]) {
    const answer = await lobbyWith(() => Promise.reject(grpcError(code, "connect ECONNREFUSED")));
    t.is(answer.status, 200, status[code]);
    t.deepEqual(answer.body, { tables: [], totalActivePlayers: 0 });
    assertMatchesSchema(t, "TablesList", answer.body);
    t.is(answer.warnings.length, 1);
    t.is(answer.warnings[0]![1], "table service unavailable: the lobby lists no tables");
  }
});

test("other failures are not hidden as an empty lobby", async (t) => {
  const internal = await lobbyWith(() => Promise.reject(grpcError(status.INTERNAL, "boom")));
  t.deepEqual([internal.status, internal.body], [500, { error: "internal error" }]);
  const broken = await lobbyWith(async () => ({
    tables: [{ tableId: 1, playerCount: 1, gameState: "PLAYING" }],
    totalActivePlayers: 1,
  }));
  t.deepEqual([broken.status, broken.body], [500, { error: "internal error" }]);
  t.deepEqual([...internal.warnings, ...broken.warnings], []);
});
