import { status } from "@grpc/grpc-js";
import test from "ava";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { get, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { gunzipSync } from "node:zlib";
import type { ListTablesRequest, ListTablesResponse } from "@pokerodds/common/generated/pokerodds/table/v1/table";
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
  t.deepEqual(calls, [
    { method: "listTables", request: { cachedEtag: "" }, options: { deadlineMs: 3_000, requestId: "lobby-1" } },
  ]);
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
    etag: "broken",
    unchanged: false,
  }));
  t.deepEqual([broken.status, broken.body], [500, { error: "internal error" }]);
  t.deepEqual([...internal.warnings, ...broken.warnings], []);
});

/** GET /api/tables `answers.length` times in a row, the table service answering each call with the next. */
async function lobbiesWith(answers: ((request: ListTablesRequest) => ListTablesResponse)[]) {
  let call = 0;
  const app = await startApp({
    logger: silentLogger(),
    table: { listTables: async (request) => answers[call++]!(request) },
  });
  try {
    const replies = [];
    for (let i = 0; i < answers.length; i++) {
      const response = await fetch(`${app.url}/api/tables`);
      replies.push({
        status: response.status,
        type: response.headers.get("content-type"),
        text: await response.text(),
      });
    }
    return { replies, asked: app.table.calls.map((c) => (c.request as ListTablesRequest).cachedEtag) };
  } finally {
    await app.close();
  }
}

const unchanged = (etag: string): ListTablesResponse => ({ tables: [], totalActivePlayers: 0, etag, unchanged: true });
const another = (): ListTablesResponse => ({
  tables: [{ tableId: 2, playerCount: 1, gameState: "WAITING" }],
  totalActivePlayers: 1,
  etag: "lobby-2",
  unchanged: false,
});

test("the lobby answered last is named to the table service, and sent again while it is unchanged", async (t) => {
  const { replies, asked } = await lobbiesWith([
    lobby,
    () => unchanged("lobby-1"),
    another,
    () => unchanged("lobby-2"),
  ]);
  t.deepEqual(asked, ["", "lobby-1", "lobby-1", "lobby-2"]);
  const first = JSON.stringify({
    tables: [
      { tableId: 1, playerCount: 2, gameState: "BETTING" },
      { tableId: 3, playerCount: 1, gameState: "WAITING" },
    ],
    totalActivePlayers: 3,
  });
  const second = JSON.stringify({
    tables: [{ tableId: 2, playerCount: 1, gameState: "WAITING" }],
    totalActivePlayers: 1,
  });
  t.deepEqual(
    replies.map((r) => r.text),
    [first, first, second, second],
  );
  for (const reply of replies) t.deepEqual([reply.status, reply.type], [200, "application/json; charset=utf-8"]);
});

test("a client that holds the lobby is answered 304 without it; a changed lobby is sent whole", async (t) => {
  const answers = [lobby, () => unchanged("lobby-1"), another];
  let call = 0;
  const app = await startApp({ logger: silentLogger(), table: { listTables: async () => answers[call++]!() } });
  try {
    const ask = async (ifNoneMatch?: string) => {
      const others: Record<string, string> = ifNoneMatch === undefined ? {} : { "if-none-match": ifNoneMatch };
      const { status: code, headers, body } = await rawGet(`${app.url}/api/tables`, "gzip", others);
      const text = body.length === 0 ? "" : gunzipSync(body).toString();
      return { code, etag: headers.etag, cache: headers["cache-control"], text };
    };
    const first = await ask();
    t.like(first, { code: 200, etag: 'W/"lobby-1"', cache: "no-cache" });
    t.deepEqual(JSON.parse(first.text).totalActivePlayers, 3);
    t.deepEqual(await ask('W/"lobby-1"'), { code: 304, etag: 'W/"lobby-1"', cache: "no-cache", text: "" });
    const changed = await ask('W/"lobby-1"');
    t.like(changed, { code: 200, etag: 'W/"lobby-2"' });
    t.deepEqual(JSON.parse(changed.text).tables, [{ tableId: 2, playerCount: 1, gameState: "WAITING" }]);
  } finally {
    await app.close();
  }
});

test("a degraded lobby carries no ETag, so no client keeps it, and the document's Cache-Control", async (t) => {
  const app = await startApp({
    logger: silentLogger(),
    table: { listTables: () => Promise.reject(grpcError(status.UNAVAILABLE, "connect ECONNREFUSED")) },
  });
  try {
    const {
      status: code,
      headers,
      body,
    } = await rawGet(`${app.url}/api/tables`, undefined, { "if-none-match": 'W/"lobby-1"' });
    t.is(code, 200);
    t.is(headers.etag, undefined);
    t.is(headers["cache-control"], "no-cache");
    t.deepEqual(JSON.parse(body.toString()), { tables: [], totalActivePlayers: 0 });
  } finally {
    await app.close();
  }
});

test("the table service calling unchanged a lobby that was not asked for is an error", async (t) => {
  const { replies, asked } = await lobbiesWith([lobby, () => unchanged("lobby-9")]);
  t.deepEqual(asked, ["", "lobby-1"]);
  t.deepEqual(
    replies.map((r) => r.status),
    [200, 500],
  );
  t.deepEqual(JSON.parse(replies[1]!.text), { error: "internal error" });
});

/**
 * GET `url` with this Accept-Encoding (none when undefined) and any other headers, its body as sent:
 * not decompressed. (Not fetch, which adds Cache-Control: no-cache to a request with If-None-Match.)
 */
function rawGet(url: string, acceptEncoding?: string, others: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const headers = { ...others, ...(acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding }) };
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    }).on("error", reject);
  });
}

test("the lobby is sent gzipped to a client that takes gzip, and as it is to one that does not", async (t) => {
  const app = await startApp({ logger: silentLogger(), table: { listTables: async () => lobby() } });
  try {
    const url = `${app.url}/api/tables`;
    const json = JSON.stringify({
      tables: [
        { tableId: 1, playerCount: 2, gameState: "BETTING" },
        { tableId: 3, playerCount: 1, gameState: "WAITING" },
      ],
      totalActivePlayers: 3,
    });
    for (const accepted of ["gzip", "br;q=1, gzip;q=0.5", "deflate, gzip"]) {
      const { headers, body } = await rawGet(url, accepted);
      t.deepEqual([headers["content-encoding"], headers.vary], ["gzip", "Accept-Encoding"], accepted);
      t.is(gunzipSync(body).toString(), json, accepted);
    }
    for (const accepted of [undefined, "identity", "gzip;q=0", "br"]) {
      const { headers, body } = await rawGet(url, accepted);
      t.deepEqual([headers["content-encoding"], headers.vary], [undefined, "Accept-Encoding"], accepted);
      t.is(body.toString(), json, accepted);
    }
  } finally {
    await app.close();
  }
});

test("requests that come while a call is out share one next call, made after they came", async (t) => {
  // The table service answers each call when the test lets it: the lobby as of that call's start.
  const pending: (() => void)[] = [];
  let started = 0;
  let out = 0;
  let mostOut = 0;
  const app = await startApp({
    logger: silentLogger(),
    table: {
      listTables: () => {
        const asOf = ++started;
        mostOut = Math.max(mostOut, ++out);
        return new Promise<ListTablesResponse>((resolve) =>
          pending.push(() => {
            out--;
            resolve({
              tables: [{ tableId: asOf, playerCount: 1, gameState: "WAITING" }],
              totalActivePlayers: 1,
              etag: `lobby-${asOf}`,
              unchanged: false,
            });
          }),
        );
      },
    },
  });
  const listed = async (reply: Promise<Response>) =>
    ((await (await reply).json()) as { tables: { tableId: number }[] }).tables[0]!.tableId;
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  // Requests as Node's HTTP server takes them in (this process's): a fixed wait for them was too short
  // on a loaded machine, where they came in over several calls.
  let arrived = 0;
  const onRequest = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    if (`http://127.0.0.1:${request.socket.localPort}` === app.url) arrived++;
  };
  subscribe("http.server.request.start", onRequest);
  try {
    const url = `${app.url}/api/tables`;
    const first = fetch(url);
    await until(() => started === 1);
    const during = Array.from({ length: 10 }, () => fetch(url));
    await until(() => arrived >= 11);
    // Time for them to pass the middleware to the route while the first call is out; none makes a call of its own.
    await new Promise((resolve) => setTimeout(resolve, 100));
    t.is(started, 1);
    pending.shift()!();
    t.is(await listed(first), 1);
    // Each later call is answered as it comes (one more, should a slow machine deliver a request late).
    const answering = setInterval(() => pending.shift()?.(), 20);
    const answers = await Promise.all(during.map(listed)).finally(() => clearInterval(answering));
    t.true(
      answers.every((asOf) => asOf >= 2),
      `each from a call made after it came: ${answers}`,
    );
    t.true(started <= 3, `${started} calls for 11 requests`);
    t.is(mostOut, 1, "never two calls at once");
  } finally {
    unsubscribe("http.server.request.start", onRequest);
    pending.forEach((answer) => answer());
    await app.close();
  }
});
