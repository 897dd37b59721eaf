// The edge: security headers, CORS for the allow-listed origins, JSON answers for what Node refuses
// before Express (431), rate limits and the heavy-route cap (429 with Retry-After), and a token
// subject longer than a playerId may be (400 naming the public field).
import { ConfigError } from "@pokerodds/common";
import test from "ava";
import { connect } from "node:net";
import {
  clientAddressKey,
  HISTORY_READS_LIMITED,
  Line,
  readEdgeSettings,
  securityHeaderValues,
} from "../src/http/edge.js";
import type { OddsApi } from "../src/services.js";
import { until } from "../../test/helpers/poll.js";
import { edgeWithoutLimits, get, post, rawRequest, startApp, streamOf, type AppOverrides } from "./helpers/app.js";

const ORIGIN = "https://play.example.com";
const edge = edgeWithoutLimits;

async function withApp(overrides: AppOverrides, run: (app: Awaited<ReturnType<typeof startApp>>) => Promise<void>) {
  const app = await startApp(overrides);
  try {
    await run(app);
  } finally {
    await app.close();
  }
}

test("edge settings come from the environment: CORS_ORIGINS, rate limits, the bulk cap", (t) => {
  t.deepEqual(readEdgeSettings({}), {
    corsOrigins: [],
    rateLimitWindowSeconds: 60,
    rateLimitPerIp: 1200,
    rateLimitPerPlayer: 600,
    historyReadsPerPlayer: 6000,
    historyReadsPerAddress: 12_000,
    heavyConcurrency: 2,
    heavyConcurrencyPerPlayer: 1,
    heavyConcurrencyPerAddress: 4,
    refusalHoldMs: 25,
    trustProxyHops: 0,
    connections: 10_000,
    connectionsPerAddress: 256,
    eventStreams: 1000,
    eventStreamsPerPlayer: 4,
    eventStreamsPerAddress: 100,
    eventHeartbeatMs: 15_000,
    eventStreamMaxMs: 900_000,
  });
  const set = readEdgeSettings({
    CORS_ORIGINS: " https://a.example , http://localhost:3000,",
    RATE_LIMIT_WINDOW_SECONDS: "10",
    RATE_LIMIT_PER_IP: "0",
    RATE_LIMIT_PER_PLAYER: "5",
    BULK_MAX_CONCURRENT: "1",
    BULK_MAX_CONCURRENT_PER_PLAYER: "0",
    TRUST_PROXY_HOPS: "1",
    RATE_LIMIT_HOLD_MS: "0",
  });
  t.is(set.refusalHoldMs, 0);
  t.is(set.heavyConcurrencyPerPlayer, 0);
  t.deepEqual(set.corsOrigins, ["https://a.example", "http://localhost:3000"]);
  t.deepEqual(
    [set.rateLimitWindowSeconds, set.rateLimitPerIp, set.rateLimitPerPlayer, set.heavyConcurrency, set.trustProxyHops],
    [10, 0, 5, 1, 1],
  );
  t.is(set.connectionsPerAddress, 0, "behind a proxy every connection comes from it: the proxy caps each client");
  t.is(readEdgeSettings({ TRUST_PROXY_HOPS: "1", MAX_CONNECTIONS_PER_ADDRESS: "50" }).connectionsPerAddress, 50);
  t.throws(() => readEdgeSettings({ RATE_LIMIT_PER_IP: "many" }));
  // A history read budget below the largest read (a statement page of 100: 101 reads) would refuse it always.
  t.throws(() => readEdgeSettings({ HISTORY_READS_PER_PLAYER: "100" }), { message: /0 \(no limit\) or at least 101/ });
  t.is(readEdgeSettings({ HISTORY_READS_PER_ADDRESS: "101" }).historyReadsPerAddress, 101);
  t.is(readEdgeSettings({ HISTORY_READS_PER_PLAYER: "0" }).historyReadsPerPlayer, 0);
});

test("event streams may hold at most half of the connections, so that they never shut requests out", (t) => {
  t.is(readEdgeSettings({ MAX_CONNECTIONS: "2000", EVENTS_MAX_STREAMS: "1000" }).eventStreams, 1000);
  for (const [connections, streams] of [
    ["1999", "1000"],
    ["10000", "10000"],
    ["100", "99"],
  ] as const) {
    t.throws(() => readEdgeSettings({ MAX_CONNECTIONS: connections, EVENTS_MAX_STREAMS: streams }), {
      message: `EVENTS_MAX_STREAMS (${streams}) must be at most half of MAX_CONNECTIONS (${connections}): each stream holds a connection, and requests need the rest`,
    });
  }
  // The default connections (10,000) bound a raised stream count too.
  t.throws(() => readEdgeSettings({ EVENTS_MAX_STREAMS: "5001" }), {
    message: /at most half of MAX_CONNECTIONS \(10000\)/,
  });
});

test("CORS_ORIGINS takes origins exactly as browsers send them; any other entry, which no request would match, stops the gateway", (t) => {
  t.deepEqual(readEdgeSettings({ CORS_ORIGINS: "https://a.example:8443,http://[::1]:3000" }).corsOrigins, [
    "https://a.example:8443",
    "http://[::1]:3000",
  ]);
  const refused = {
    "https://play.example.com/": /did you mean https:\/\/play.example.com\?/,
    "https://Play.Example.com": /did you mean https:\/\/play.example.com\?/,
    "https://play.example.com:443": /did you mean https:\/\/play.example.com\?/,
    "https://play.example.com/app": /did you mean/,
    "*": /"\*": each must be an origin/,
    null: /"null": each must be an origin/,
    "play.example.com": /each must be an origin/,
    "file:///index.html": /each must be an origin/,
  };
  for (const [entry, message] of Object.entries(refused)) {
    t.throws(
      () => readEdgeSettings({ CORS_ORIGINS: `https://ok.example,${entry}` }),
      { instanceOf: ConfigError, message },
      entry,
    );
  }
});

test("history reads spend a budget of database reads, per player and per address: a page of 100 costs 101, a game record 40", async (t) => {
  await withApp({ edge: edge({ historyReadsPerPlayer: 250 }) }, async (app) => {
    const page = (limit: number, token = app.token) =>
      fetch(`${app.url}/api/players/player-1/ledger?limit=${limit}`, { headers: { authorization: `Bearer ${token}` } });
    t.is((await page(100)).status, 200);
    t.is((await page(100)).status, 200);
    // 202 spent of 250: a game record (40) still passes (the fake table has no game: 500), a page of 8 (9) not.
    t.is((await get(app, "/api/tables/1/games/T1-1")).status, 500);
    const refused = await page(8);
    t.is(refused.status, 429);
    t.true(Number(refused.headers.get("retry-after")) >= 1);
    t.deepEqual(await refused.json(), { error: HISTORY_READS_LIMITED });
    // A refused read counts too (as the request limits count refused requests): nothing more passes.
    t.is((await page(1)).status, 429);
    t.is((await get(app, "/api/tables/1/games/T1-1")).status, 429);
    // Other requests are not counted, nor other players' reads.
    t.is((await get(app, "/api/tables/1/state")).status, 200);
    const other = await app.tokenFor("player-2");
    const theirs = await fetch(`${app.url}/api/players/player-2/ledger?limit=100`, {
      headers: { authorization: `Bearer ${other}` },
    });
    t.is(theirs.status, 200);
  });
  await withApp({ edge: edge({ historyReadsPerAddress: 150 }) }, async (app) => {
    const other = await app.tokenFor("player-2");
    const page = (playerId: string, token: string, limit: number) =>
      fetch(`${app.url}/api/players/${playerId}/ledger?limit=${limit}`, {
        headers: { authorization: `Bearer ${token}` },
      });
    t.is((await page("player-1", app.token, 100)).status, 200);
    t.is((await page("player-2", other, 40)).status, 200, "142 of 150");
    t.is((await page("player-2", other, 8)).status, 429, "one address: its accounts share its budget");
  });
  await withApp({ edge: edge({ historyReadsPerPlayer: 150, historyReadsPerAddress: 310 }) }, async (app) => {
    const other = await app.tokenFor("player-2");
    const page = (playerId: string, token: string) =>
      fetch(`${app.url}/api/players/${playerId}/ledger?limit=100`, { headers: { authorization: `Bearer ${token}` } });
    // Another player's statement is refused (403) before anything is spent: twice 101 would pass 150.
    t.is((await page("player-2", app.token)).status, 403);
    t.is((await page("player-2", app.token)).status, 403);
    const mine = [
      await page("player-1", app.token),
      await page("player-1", app.token),
      await page("player-1", app.token),
    ];
    t.deepEqual(
      mine.map((answer) => answer.status),
      [200, 429, 429],
    );
    // A player refused by its own budget spent none of its address's (101 of 310 so far).
    t.is((await page("player-2", other)).status, 200);
    t.is((await page("player-2", other)).status, 429, "its own budget");
  });
});

test("security headers on every answer, errors included; a strict CSP", async (t) => {
  await withApp({}, async (app) => {
    for (const response of [await get(app, "/api/health"), await fetch(app.url + "/api/nope")]) {
      t.is(response.headers.get("content-security-policy"), "default-src 'none';frame-ancestors 'none'");
      t.is(response.headers.get("x-content-type-options"), "nosniff");
      t.is(response.headers.get("x-frame-options"), "SAMEORIGIN");
      t.truthy(response.headers.get("strict-transport-security"));
      t.is(response.headers.get("x-powered-by"), null);
    }
  });
});

test("CORS: none by default; an allow-listed origin gets its headers and a preflight answer", async (t) => {
  await withApp({}, async (app) => {
    const response = await get(app, "/api/tables", { origin: ORIGIN });
    t.is(response.headers.get("access-control-allow-origin"), null);
  });
  await withApp({ edge: edge({ corsOrigins: [ORIGIN] }) }, async (app) => {
    const preflight = await fetch(app.url + "/api/tables/1/sit", {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, idempotency-key",
      },
    });
    t.is(preflight.status, 204);
    t.is(preflight.headers.get("access-control-allow-origin"), ORIGIN);
    t.regex(preflight.headers.get("access-control-allow-methods") ?? "", /POST/);
    t.regex(preflight.headers.get("access-control-allow-headers") ?? "", /Idempotency-Key/);
    const sat = await post(app, "/api/tables/1/sit", { buyInAmount: 10 }, { origin: ORIGIN });
    t.is(sat.status, 200);
    t.is(sat.headers.get("access-control-allow-origin"), ORIGIN);
    t.regex(sat.headers.get("access-control-expose-headers") ?? "", /X-Request-Id/);
    t.regex(sat.headers.get("access-control-expose-headers") ?? "", /Idempotency-Key/, "a money move's key");
    t.regex(sat.headers.get("access-control-expose-headers") ?? "", /Table-Version/, "a state's version");
    const other = await get(app, "/api/tables", { origin: "https://evil.example" });
    t.is(other.headers.get("access-control-allow-origin"), null);
  });
});

/** The security headers of a raw answer (status line and headers, as text), lower-cased. */
function securityHeadersOf(answer: string): Record<string, string> {
  const lines = answer.slice(0, answer.indexOf("\r\n\r\n")).split("\r\n").slice(1);
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  const security = Object.keys(securityHeaderValues()).map((name) => name.toLowerCase());
  return Object.fromEntries(security.map((name) => [name, headers[name] ?? "(missing)"]));
}

test("headers over 16 KiB and a malformed request get a JSON { error } from the server itself, with the security headers", async (t) => {
  await withApp({}, async (app) => {
    const port = Number(new URL(app.url).port);
    const express = await rawRequest(port, "GET /api/nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const expected = securityHeadersOf(express);
    t.regex(expected["content-security-policy"] ?? "", /default-src 'none'/, "an answer from Express has them");
    const big = await rawRequest(port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    t.regex(big, /^HTTP\/1\.1 431 /);
    t.regex(big, /content-type: application\/json/i);
    t.deepEqual(JSON.parse(big.slice(big.indexOf("\r\n\r\n") + 4)), {
      error: "request headers are too large (at most 16 KiB)",
    });
    t.deepEqual(securityHeadersOf(big), expected);
    const bad = await rawRequest(port, "NOT A REQUEST\r\n\r\n");
    t.regex(bad, /^HTTP\/1\.1 400 /);
    t.deepEqual(securityHeadersOf(bad), expected);
    t.deepEqual(JSON.parse(bad.slice(bad.indexOf("\r\n\r\n") + 4)), { error: "malformed HTTP request" });
    // What Node itself would answer with an empty body, or not at all.
    for (const [request, status, error] of [
      ["GET /api/health HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n", 417, "only Expect: 100-continue is supported"],
      ["GET /api/health HTTP/1.1\r\n\r\n", 400, "an HTTP/1.1 request needs a Host header"],
      ["CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 405, "CONNECT is not supported"],
    ] as const) {
      const answer = await rawRequest(port, request);
      t.regex(answer, new RegExp(`^HTTP/1\\.1 ${status} `), request);
      t.deepEqual(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)), { error });
      t.deepEqual(securityHeadersOf(answer), expected, request);
    }
  });
});

test("a body declared over 64 KiB is a 413 at once, before any of it is read, and the connection closes", async (t) => {
  await withApp({}, async (app) => {
    const port = Number(new URL(app.url).port);
    // 1 GB declared, 2 bytes sent: the answer cannot wait for the rest (which never comes).
    const answer = await rawRequest(
      port,
      `POST /api/deal HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.token}\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{}`,
    );
    t.regex(answer, /^HTTP\/1\.1 413 /);
    t.regex(answer, /connection: close/i);
    t.deepEqual(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)), {
      error: "request body must be at most 64 KiB",
    });
  });
});

test("a limit counts an IPv6 client by its /56 (a client holds a /64 or more), an IPv4 client by its address", (t) => {
  t.is(clientAddressKey("2001:db8:1:ff00::1"), clientAddressKey("2001:db8:1:ffaa:1234::9"));
  t.not(clientAddressKey("2001:db8:1:ff00::1"), clientAddressKey("2001:db8:1:fe00::1"));
  t.is(clientAddressKey("192.0.2.7"), "192.0.2.7");
  t.is(clientAddressKey("::ffff:192.0.2.7"), "192.0.2.7");
  t.not(clientAddressKey("192.0.2.7"), clientAddressKey("192.0.2.8"));
});

test("per-player rate limit: 429 with Retry-After and { error }, counted per token subject", async (t) => {
  await withApp({ edge: edge({ rateLimitPerPlayer: 3 }) }, async (app) => {
    for (let i = 0; i < 3; i++) t.is((await get(app, "/api/tables/1/state")).status, 200);
    const limited = await get(app, "/api/tables/1/state");
    t.is(limited.status, 429);
    t.true(Number(limited.headers.get("retry-after")) >= 1);
    t.deepEqual(await limited.json(), { error: "too many requests; try again later" });
    // Another player has a budget of their own; public routes are not counted per player.
    const other = await app.tokenFor("player-2");
    const theirs = await fetch(app.url + "/api/tables/1/state", { headers: { authorization: `Bearer ${other}` } });
    t.is(theirs.status, 200);
    t.is((await fetch(app.url + "/api/tables")).status, 200);
  });
});

test("a rate-limit refusal is held refusalHoldMs before it is sent (a flooder's loop slows down)", async (t) => {
  await withApp({ edge: edge({ rateLimitPerPlayer: 1, refusalHoldMs: 150 }) }, async (app) => {
    t.is((await get(app, "/api/tables/1/state")).status, 200);
    const started = performance.now();
    const limited = await get(app, "/api/tables/1/state");
    t.is(limited.status, 429);
    t.true(performance.now() - started >= 140, `answered after ${performance.now() - started} ms`);
  });
});

test("per-IP rate limit before authentication, health exempt; its 429 carries the request id and the security headers", async (t) => {
  await withApp({ edge: edge({ rateLimitPerIp: 2 }) }, async (app) => {
    t.is((await fetch(app.url + "/api/tables")).status, 200);
    t.is((await fetch(app.url + "/api/deal", { method: "POST" })).status, 401);
    const limited = await fetch(app.url + "/api/tables", { headers: { "x-request-id": "flood-1" } });
    t.is(limited.status, 429);
    t.truthy(limited.headers.get("retry-after"));
    t.is(limited.headers.get("x-request-id"), "flood-1");
    t.is(limited.headers.get("x-content-type-options"), "nosniff");
    t.is(limited.headers.get("content-type"), "application/json; charset=utf-8");
    t.deepEqual(await limited.json(), { error: "too many requests; try again later" });
    t.is((await fetch(app.url + "/api/health")).status, 200);
    t.is((await fetch(app.url + "/api/health?any=query")).status, 200);
    // Only a health check is exempt: another method on its path is counted like any request.
    t.is((await fetch(app.url + "/api/health", { method: "POST" })).status, 429);
  });
  // A CORS preflight too: it was answered 204 before the limit, however many an address sent.
  await withApp({ edge: edge({ rateLimitPerIp: 2, corsOrigins: [ORIGIN] }) }, async (app) => {
    const preflight = () =>
      fetch(app.url + "/api/tables/1/sit", {
        method: "OPTIONS",
        headers: { origin: ORIGIN, "access-control-request-method": "POST" },
      });
    t.deepEqual([(await preflight()).status, (await preflight()).status], [204, 204]);
    const limited = await preflight();
    t.is(limited.status, 429);
    t.is(limited.headers.get("access-control-allow-origin"), ORIGIN, "with its CORS headers, for the page to read it");
  });
});

/**
 * A bulk generation that answers once `release` is called; `asked` holds each batch's numberOfGames
 * and `signals` its call's signal, in the order they were asked for.
 */
async function gatedBulk() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const { bulkPieces } = await import("./helpers/fixtures.js");
  const asked: number[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  const generateBulk: OddsApi["generateBulk"] = (request, options) => {
    asked.push(request.numberOfGames);
    signals.push(options.signal);
    return streamOf(async () => {
      await gate;
      return bulkPieces(request.numberOfGames, request.numberOfHands);
    });
  };
  return { generateBulk, release, asked, signals };
}

test("bulk requests beyond the concurrency cap wait their turn in order of arrival; past 16 waiting, a fast 429", async (t) => {
  const { generateBulk, release, asked } = await gatedBulk();
  await withApp({ edge: edge({ heavyConcurrency: 1 }), odds: { generateBulk } }, async (app) => {
    const bulk = (numberOfGames: number) => post(app, "/api/games/bulk", { numberOfGames, numberOfHands: 3 });
    const first = bulk(1);
    await until("the first request's batch asked for", () => asked.length === 1);
    // Seventeen more: sixteen wait, the last to arrive is refused. Which one that is is not fixed: on a
    // busy machine HTTP requests sent 20 ms apart reach the server out of order (9 after 10 once).
    const answered = new Map<number, Response>();
    const more: Promise<Response>[] = [];
    for (let games = 2; games <= 18; games++) {
      more.push(bulk(games).then((answer) => (answered.set(games, answer), answer)));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const started = Date.now();
    await until("a refusal", () => answered.size > 0, 30_000);
    // The first holds the only slot until release(): one that waited for it would wait until the
    // line's limit (10 s), so a bound under that tells a refusal from a wait; 5 s leaves a busy machine room.
    t.true(Date.now() - started < 5_000, `refused after ${Date.now() - started} ms`);
    t.is(answered.size, 1, "the others wait");
    const [[refusedGames, refused]] = [...answered] as [[number, Response]];
    t.is(refused.status, 429);
    t.is(refused.headers.get("retry-after"), "1");
    t.deepEqual(await refused.json(), { error: "too many bulk requests in progress; try again shortly" });
    t.is((await post(app, "/api/deal")).status, 200, "other routes are not capped");
    t.deepEqual(asked, [1]);

    release();
    t.is((await first).status, 200);
    const waited = (await Promise.all(more)).filter((answer) => answer !== refused);
    t.deepEqual(
      waited.map((answer) => answer.status),
      waited.map(() => 200),
    );
    // Each served once. The order of service is the line's (tested below).
    t.deepEqual(
      [...asked].sort((a, b) => a - b),
      Array.from({ length: 18 }, (_, i) => i + 1).filter((games) => games !== refusedGames),
    );
  });
});

test("the line serves its waiting in order of arrival; one that leaves gives up its place; past its room, full", async (t) => {
  const line = new Line(1, 3, 60_000);
  const never = new AbortController().signal;
  const holder = await line.enter(never);
  if (typeof holder !== "function") return t.fail("the first takes the free slot");
  const leaving = new AbortController();
  const served: string[] = [];
  const wait = (name: string, signal = never) =>
    line.enter(signal).then((turn) => {
      served.push(typeof turn === "function" ? name : `${name}: ${turn}`);
      if (typeof turn === "function") turn();
    });
  const waits = [wait("a"), wait("b", leaving.signal), wait("c")];
  t.is(await line.enter(never), "full", "three waiting: no room for a fourth");
  leaving.abort();
  holder();
  await Promise.all(waits);
  t.deepEqual(served, ["b: left", "a", "c"]);
});

test("a request that leaves while it waits for a slot gives up its place: the next one is served", async (t) => {
  const { generateBulk, release, asked } = await gatedBulk();
  await withApp({ edge: edge({ heavyConcurrency: 1 }), odds: { generateBulk } }, async (app) => {
    const first = post(app, "/api/games/bulk");
    // The first holds the slot before the other comes (a fixed wait let the other come first once).
    await until("the first request's batch asked for", () => asked.length === 1);
    const socket = connect(Number(new URL(app.url).port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.on("error", () => {});
    socket.write(
      `POST /api/games/bulk HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.token}\r\nContent-Length: 0\r\n\r\n`,
    );
    // Margins for a busy machine: the server must have queued the request, then seen it leave, before
    // the slot frees (with 100 ms each, one CI run served the one that left).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const next = post(app, "/api/games/bulk");
    await new Promise((resolve) => setTimeout(resolve, 500));
    release();
    t.deepEqual([(await first).status, (await next).status], [200, 200]);
    t.is(asked.length, 2, "the batch of the one who left was never asked for");
  });
});

test("one player's bulk requests beyond the per-player cap are a fast 429; another player still gets a slot", async (t) => {
  const { generateBulk, release, asked } = await gatedBulk();
  const settings = edge({ heavyConcurrency: 2, heavyConcurrencyPerPlayer: 1 });
  await withApp({ edge: settings, odds: { generateBulk } }, async (app) => {
    const first = post(app, "/api/games/bulk");
    await until("the first request's batch asked for", () => asked.length === 1);
    const again = await post(app, "/api/games/bulk");
    t.is(again.status, 429);
    t.is(again.headers.get("retry-after"), "1");
    t.deepEqual(await again.json(), { error: "one bulk request at a time per player: wait for the one in progress" });
    const other = post(app, "/api/games/bulk", undefined, {
      authorization: `Bearer ${await app.tokenFor("player-2")}`,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    t.deepEqual([(await first).status, (await other).status], [200, 200], "the other player took the second slot");
    t.is((await post(app, "/api/games/bulk")).status, 200, "the player's slot is free again");
  });
});

test("a bulk request with a bad body is a 400 at once, though its player's slot and the line are taken", async (t) => {
  const { generateBulk, release, asked } = await gatedBulk();
  const settings = edge({ heavyConcurrency: 1, heavyConcurrencyPerPlayer: 1 });
  await withApp({ edge: settings, odds: { generateBulk } }, async (app) => {
    const first = post(app, "/api/games/bulk");
    await until("the first request's batch asked for", () => asked.length === 1);
    const sameBad = await post(app, "/api/games/bulk", { numberOfGames: 0 });
    t.is(sameBad.status, 400, "not the per-player 429");
    t.deepEqual(await sameBad.json(), { error: "numberOfGames must be an integer from 1 to 200" });
    const other = { authorization: `Bearer ${await app.tokenFor("player-2")}` };
    const otherBad = await post(app, "/api/games/bulk", { numberOfGames: 1000 }, other);
    t.is(otherBad.status, 400, "answered while the only slot is still taken, not after waiting for it");
    t.deepEqual(await otherBad.json(), { error: "numberOfGames must be an integer from 1 to 200" });
    release();
    t.is((await first).status, 200);
    t.is(asked.length, 1, "no batch asked for a bad body");
  });
});

test("accounts from one address hold at most its share of the bulk line; another address still gets in", async (t) => {
  const { generateBulk, release, asked } = await gatedBulk();
  const settings = edge({
    heavyConcurrency: 1,
    heavyConcurrencyPerPlayer: 1,
    heavyConcurrencyPerAddress: 2,
    trustProxyHops: 1,
  });
  await withApp({ edge: settings, odds: { generateBulk } }, async (app) => {
    const from = async (player: string, address: string) =>
      post(app, "/api/games/bulk", undefined, {
        authorization: `Bearer ${await app.tokenFor(player)}`,
        "x-forwarded-for": address,
      });
    const first = from("player-1", "192.0.2.1");
    await until("the first request's batch asked for", () => asked.length === 1);
    // Two more from the address: the one that arrives first waits in the line, the other is refused.
    // Which one arrives first is not fixed on a busy machine (a fixed wait between them was not enough).
    const refusals: string[] = [];
    const [second, third] = ["player-2", "player-3"].map(async (player) => {
      const answer = await from(player, "192.0.2.1");
      if (answer.status === 429) refusals.push(player);
      return answer;
    }) as [Promise<Response>, Promise<Response>];
    // (One that waited for the slot would be refused only at the line's limit, 10 s, and otherwise.)
    await until("a refusal", () => refusals.length > 0, 30_000);
    const [refused, waiting] = refusals[0] === "player-2" ? [await second, third] : [await third, second];
    t.is(refused.status, 429);
    t.is(refused.headers.get("retry-after"), "1");
    t.deepEqual(await refused.json(), { error: "too many bulk requests from this address at once; try again shortly" });
    const elsewhere = from("player-4", "198.51.100.9");
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    t.deepEqual(
      [(await first).status, (await waiting).status, (await elsewhere).status],
      [200, 200, 200],
      "the address's two and the other address's one are served",
    );
    t.is((await from(refusals[0]!, "192.0.2.1")).status, 200, "the address's places are free again");
  });
});

test("a client that goes cancels nothing: its batch runs out and holds its slot until then; one pipelined behind it never starts", async (t) => {
  const { generateBulk, release, signals } = await gatedBulk();
  await withApp({ edge: edge({ heavyConcurrency: 1 }), odds: { generateBulk } }, async (app) => {
    // Two bulk requests pipelined on one connection: the first takes the slot, the second waits
    // unhandled for the first's answer (http-server.ts). The client then goes.
    const { port } = new URL(app.url);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.on("error", () => {});
    const bulk = `POST /api/games/bulk HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.token}\r\nContent-Length: 0\r\n\r\n`;
    socket.write(bulk + bulk);
    await until("the first batch asked for", () => signals.length > 0);
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));

    t.is(signals.length, 1, "only the first batch was asked for: the pipelined one never had its turn");
    t.false(
      signals.some((signal) => signal?.aborted),
      "the batch was not cancelled (a cancel is an RST_STREAM toward the odds service)",
    );
    const next = post(app, "/api/games/bulk");
    await new Promise((resolve) => setTimeout(resolve, 200));
    t.is(signals.length, 1, "the slot is held while the batch runs: the next request waits");

    release();
    t.is((await next).status, 200, "and is served once the batch ended");
    t.is(signals.length, 2);
  });
});

test("a batch's slot is held until its answer has left: a client that does not read keeps it", async (t) => {
  const largest = { numberOfGames: 200, numberOfHands: 4 };
  // Long hand descriptions make the answer about 13 MB, more than the kernel's socket buffers take in.
  const { bulkPieces } = await import("./helpers/fixtures.js");
  const padded: OddsApi["generateBulk"] = (request) =>
    streamOf(async () =>
      bulkPieces(request.numberOfGames, request.numberOfHands).map((piece) => ({
        ...piece,
        games: piece.games.map((game) => ({
          ...game,
          handStageInfoList: game.handStageInfoList.map((info) => ({ ...info, handDescLong: "x".repeat(5_000) })),
        })),
      })),
    );
  const settings = edge({ heavyConcurrency: 2, heavyConcurrencyPerPlayer: 1 });
  await withApp({ edge: settings, odds: { generateBulk: padded } }, async (app) => {
    const { port } = new URL(app.url);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.on("error", () => {});
    socket.pause(); // never reads its answer
    const body = JSON.stringify(largest);
    socket.write(
      `POST /api/games/bulk HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    // Its slot is taken once the batch is asked for; a second later its answer is written (and unread).
    while (app.odds.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const again = await post(app, "/api/games/bulk", largest);
    t.is(again.status, 429, "the unread answer still holds the player's slot");
    t.deepEqual(await again.json(), { error: "one bulk request at a time per player: wait for the one in progress" });
    socket.destroy();
    // Free once the server has seen the connection go (a 429 takes no slot of its own).
    let after = await post(app, "/api/games/bulk", largest);
    for (const deadline = Date.now() + 10_000; after.status === 429 && Date.now() < deadline;) {
      await after.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await post(app, "/api/games/bulk", largest);
    }
    t.is(after.status, 200, "the slot is free once the connection went");
  });
});

test("a heavy handler that fails frees its slot", async (t) => {
  let fail = true;
  const failingOnce = (request: { numberOfGames: number; numberOfHands: number }) =>
    streamOf(async () => {
      if (fail) throw new Error("the odds service broke");
      const { bulkPieces } = await import("./helpers/fixtures.js");
      return bulkPieces(request.numberOfGames, request.numberOfHands);
    });
  await withApp({ edge: edge({ heavyConcurrency: 1 }), odds: { generateBulk: failingOnce } }, async (app) => {
    t.is((await post(app, "/api/games/bulk")).status, 500);
    fail = false;
    t.is((await post(app, "/api/games/bulk")).status, 200, "the slot was released");
  });
});

test("a valid token whose subject is longer than a playerId may be is a 400 naming playerId", async (t) => {
  await withApp({}, async (app) => {
    for (const [subject, error] of [
      ["x".repeat(257), "the token's subject (playerId) must be at most 256 characters"],
      ["a\u0001b", "the token's subject (playerId) must not contain control characters"],
      // C1, and a bidirectional override that would show "bob" reversed in another's seat list.
      ["bob\u0085", "the token's subject (playerId) must not contain control characters"],
      ["bob\u202e", "the token's subject (playerId) must not contain control characters"],
      // Each of these would reach the wallet as "\ufffdzz" (gRPC speaks UTF-8): one account for three subjects.
      ["\ud800zz", "the token's subject (playerId) must be well-formed Unicode (no lone surrogate)"],
      ["\udc00zz", "the token's subject (playerId) must be well-formed Unicode (no lone surrogate)"],
    ] as const) {
      const token = await app.tokenFor(subject);
      const response = await fetch(app.url + "/api/tables/1/state", { headers: { authorization: `Bearer ${token}` } });
      t.is(response.status, 400);
      t.deepEqual(await response.json(), { error });
    }
    const ok = await app.tokenFor("y".repeat(256));
    const fine = await fetch(app.url + "/api/tables/1/state", { headers: { authorization: `Bearer ${ok}` } });
    t.is(fine.status, 200);
    t.is(app.table.calls.at(-1)?.method, "getState");
  });
});
