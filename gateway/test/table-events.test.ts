// GET /api/tables/{tableId}/events against a WatchTable the test drives: the event format (the
// state exactly as GET .../state answers it), Last-Event-ID answered from the feed's recent
// versions, refusals as JSON before the stream starts (each stream's caller checked by GetState),
// the caps on open streams (429), heartbeats, one WatchTable call per table shared by its streams
// and kept a while after the last (so clients that come and go cancel nothing), subscribing again
// after a replica's stream breaks (no gap, no repeat), and the stream's time limit.
import { status } from "@grpc/grpc-js";
import type {
  TableState,
  WatchTableRequest,
  WatchTableResponse,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import test, { type ExecutionContext } from "ava";
import { connect } from "node:net";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { setTimeout as sleep } from "node:timers/promises";
import { until } from "../../test/helpers/poll.js";
import { openSse, type SseStream } from "../../test/helpers/sse.js";
import { readEdgeSettings, type EdgeSettings } from "../src/http/edge.js";
import { lastEventIdOf } from "../src/tables/events.js";
import { FEED_MAX_CHARS } from "../src/tables/table-feeds.js";
import type { TableEventsApi } from "../src/services.js";
import { edgeWithoutLimits, startApp, type AppOverrides, type TestApp } from "./helpers/app.js";
import { FakeServerStream, serviceError } from "./helpers/fake-stream.js";
import { AUDIENCE, customToken, ISSUER, newKey, verifierFor } from "./helpers/tokens.js";
import { tableState } from "./helpers/fixtures.js";

/** One WatchTable call as the gateway made it; the test answers for the table service. */
class FakeWatch extends FakeServerStream<WatchTableRequest, WatchTableResponse> {
  /** One version; `latestVersion` below it marks a replayed one (the feed has not caught up yet). */
  push(version: number, state: TableState = tableState(), latestVersion = version): this {
    return this.send({ version, state, latestVersion });
  }
}

/** A table service whose WatchTable calls the test answers; `respond` runs on each call as it is made. */
function fakeTableEvents(respond: (call: FakeWatch, index: number) => void = (call) => void call.push(1)) {
  const calls: FakeWatch[] = [];
  const api: TableEventsApi = {
    watchTable: (request, options) => {
      const call = new FakeWatch(request, options);
      calls.push(call);
      respond(call, calls.length - 1);
      return call;
    },
  };
  return { api, calls };
}

/**
 * The grace period of the closing tests: "at once" is under half of it, a margin that a busy
 * machine does not use up (with 1 s and 500 ms, one took 802 ms while CI ran beside it).
 */
const CLOSE_GRACE_MS = 10_000;

/** How long a feed stays after its last stream, in the tests of that linger. */
const LINGER_MS = 10_000;

/** How long a new stream waits for its feed to reach its cursor, in the tests of that wait. */
const AHEAD_WAIT_MS = 5_000;

const edge = edgeWithoutLimits;

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function withApp(
  t: ExecutionContext,
  events: ReturnType<typeof fakeTableEvents>,
  settings: Partial<EdgeSettings> = {},
  more: AppOverrides = {},
): Promise<TestApp> {
  const app = await startApp({ tableEvents: events.api, edge: edge(settings), ...more });
  t.teardown(() => app.close());
  return app;
}

const open = (app: TestApp, path = "/api/tables/7/events", headers: Record<string, string> = {}, token?: string) =>
  openSse(app.url + path, token ?? app.token, headers);

function closeAfter(t: ExecutionContext, stream: SseStream): SseStream {
  t.teardown(() => stream.close());
  return stream;
}

/** Opens a stream on the table, reads its first event and closes it: the table's feed then lingers. */
async function watchAndLeave(app: TestApp, tableId: number): Promise<void> {
  const stream = await open(app, `/api/tables/${tableId}/events`);
  await until(`table ${tableId}'s event`, () => stream.events.length === 1);
  stream.close();
}

test("events: id is the version, event is state, data is exactly GET .../state's body; the headers", async (t) => {
  const events = fakeTableEvents((call) => void call.push(5));
  const app = await withApp(t, events);
  const stream = closeAfter(t, await open(app, "/api/tables/7/events", { "x-request-id": "sse-1" }));
  t.is(stream.status, 200);
  t.is(stream.headers.get("content-type"), "text/event-stream");
  t.is(stream.headers.get("cache-control"), "no-store");
  t.is(stream.headers.get("x-accel-buffering"), "no");
  t.is(stream.headers.get("x-request-id"), "sse-1");
  await until("the first event", () => stream.events.length === 1);
  const state = await (
    await fetch(`${app.url}/api/tables/7/state`, { headers: { authorization: `Bearer ${app.token}` } })
  ).json();
  t.deepEqual(stream.events[0], { id: "5", event: "state", data: JSON.stringify(state) });
  const call = events.calls[0]!;
  t.like(call.request, { tableId: 7, afterVersion: 0, recentVersions: 64, caller: { playerId: "player-1" } });
  t.is(call.options.requestId, "table-feed-7");
  t.like(app.table.calls[0], { method: "getState", request: { tableId: 7, caller: { playerId: "player-1" } } });
  events.calls[0]!.push(6, tableState({ gameId: "T7-4" }));
  await until("the next event", () => stream.events.length === 2);
  t.like(stream.events[1], { id: "6", event: "state" });
  t.is(JSON.parse(stream.events[1]!.data).gameId, "T7-4");
});

test("Last-Event-ID: the versions after it, from the feed's recent ones, each once whatever the service sends", async (t) => {
  const events = fakeTableEvents((call) => void call.push(3).push(4).push(5).push(4).push(5).push(6));
  const app = await withApp(t, events);
  const stream = closeAfter(t, await open(app, "/api/tables/7/events", { "last-event-id": "4" }));
  await until("5 and 6", () => stream.events.length === 2);
  const again = closeAfter(t, await open(app, "/api/tables/7/events", { "last-event-id": "3" }));
  await until("4 to 6", () => again.events.length === 3);
  events.calls[0]!.push(7);
  await until("7 on both", () => stream.events.length === 3 && again.events.length === 4);
  await sleep(50);
  t.deepEqual(
    stream.events.map((e) => e.id),
    ["5", "6", "7"],
  );
  t.deepEqual(
    again.events.map((e) => e.id),
    ["4", "5", "6", "7"],
  );
  t.is(events.calls.length, 1, "one call for both, answered from the recent versions");
});

test("a feed keeps its newest events up to FEED_MAX_CHARS: a Last-Event-ID older than those goes on from the oldest kept", async (t) => {
  // Forty states of 300 bets (about 44 KB each): far past the bound before 64 versions.
  const bets = Array.from({ length: 300 }, (_, i) => ({ ...tableState().bets[0]!, playerId: `player-${i}` }));
  const events = fakeTableEvents((call) => {
    for (let version = 1; version <= 40; version++) call.push(version, tableState({ bets }), 40);
  });
  const app = await withApp(t, events);
  const stream = closeAfter(t, await open(app, "/api/tables/7/events", { "last-event-id": "1" }));
  await until("the newest", () => stream.events.at(-1)?.id === "40");
  const ids = stream.events.map((e) => Number(e.id));
  const chars = stream.events.reduce((sum, e) => sum + e.data.length, 0);
  t.true(ids[0]! > 2, `from the oldest kept (${ids[0]}), not from version 2`);
  t.deepEqual(
    ids,
    Array.from({ length: ids.length }, (_, i) => ids[0]! + i),
    "then each version in order",
  );
  t.true(chars <= FEED_MAX_CHARS + stream.events[0]!.data.length, `${chars} characters kept`);
});

test("a new feed catches up before any stream starts: the current state first, more than 64 missed skip to it", async (t) => {
  // The table service replays the last 64 versions to a new feed, each marked with the latest.
  const events = fakeTableEvents((call) => {
    for (let version = 37; version <= 100; version++) call.push(version, tableState(), 100);
  });
  const app = await withApp(t, events);
  const [current, far, near] = await Promise.all([
    open(app),
    open(app, "/api/tables/7/events", { "last-event-id": "35" }),
    open(app, "/api/tables/7/events", { "last-event-id": "36" }),
  ]);
  for (const stream of [current, far, near]) closeAfter(t, stream);
  await until("the current state, and 64 versions", () => far.events.length === 1 && near.events.length === 64);
  await sleep(50);
  t.deepEqual(
    current.events.map((e) => e.id),
    ["100"],
  );
  t.deepEqual(
    far.events.map((e) => e.id),
    ["100"],
  );
  t.is(near.events[0]!.id, "37");
  t.is(near.events.at(-1)!.id, "100");
});

test("a feed that cannot catch up (the table service accepted, then hangs): 503, and the next stream opens a new one", async (t) => {
  const events = fakeTableEvents((call, i) => {
    if (i === 0)
      call.push(7, tableState(), 9); // a replay that never reaches the latest
    else call.push(9);
  });
  const app = await withApp(t, events);
  const started = Date.now();
  const stuck = await open(app);
  t.deepEqual([stuck.status, stuck.body], [503, { error: "table service unavailable" }]);
  t.true(Date.now() - started >= 9_000, "after the catch-up time");
  t.true(events.calls[0]!.cancelled);
  const next = closeAfter(t, await open(app));
  await until("the current state", () => next.events.length === 1);
  t.is(next.events[0]!.id, "9");
});

test("a client that leaves while its feed catches up frees its slot at once", async (t) => {
  const events = fakeTableEvents((call, i) => void (i === 0 ? call.open() : call.push(1))); // table 7's never catches up
  const app = await withApp(t, events, { eventStreamsPerPlayer: 1 });
  const abort = new AbortController();
  const first = fetch(`${app.url}/api/tables/7/events`, {
    headers: { authorization: `Bearer ${app.token}` },
    signal: abort.signal,
  }).catch(() => undefined);
  await until("the feed's call", () => events.calls.length === 1);
  abort.abort();
  await first;
  // Freed once the server has seen the client go; held, it would be until the catch-up gives up
  // (10 s): a deadline under half of that tells the two apart, with room for a busy machine.
  const started = Date.now();
  let other = await open(app, "/api/tables/9/events");
  while (other.status === 429 && Date.now() - started < 5_000) {
    await sleep(20);
    other = await open(app, "/api/tables/9/events");
  }
  closeAfter(t, other);
  t.is(other.status, 200, "the slot was freed");
});

test("Last-Event-ID above the table's version: waits a moment for it, else the current state; then the versions after", async (t) => {
  const events = fakeTableEvents((call) => void call.push(5));
  // A wait a busy machine does not outlast before version 6 comes (it did the default second).
  const app = await withApp(t, events, {}, { feedLimits: { aheadWaitMs: AHEAD_WAIT_MS } });
  // Opened together, so that both are still waiting when version 6 comes.
  const [ahead, soon] = await Promise.all([
    open(app, "/api/tables/7/events", { "last-event-id": "999999" }).then((stream) => closeAfter(t, stream)),
    open(app, "/api/tables/7/events", { "last-event-id": "6" }).then((stream) => closeAfter(t, stream)),
  ]);
  // Another replica's version, reaching this feed late.
  events.calls[0]!.push(6);
  await until("the current state", () => ahead.events.length === 1, 3 * AHEAD_WAIT_MS);
  events.calls[0]!.push(7);
  await until("7 on both", () => ahead.events.length === 2 && soon.events.length === 1);
  t.deepEqual(
    ahead.events.map((e) => e.id),
    ["6", "7"],
  );
  t.deepEqual(
    soon.events.map((e) => e.id),
    ["7"],
    "nothing at or below the cursor once the feed reached it",
  );
});

test("a new stream's first state is never older than its caller's check read: it waits a moment for the feed to reach that version", async (t) => {
  // The feed follows a replica that has not polled another's write yet: it is at 5, the check read 6.
  const events = fakeTableEvents((call) => void call.push(5));
  const app = await withApp(
    t,
    events,
    {},
    {
      table: { getState: async () => ({ state: tableState(), version: 6 }) },
      feedLimits: { aheadWaitMs: AHEAD_WAIT_MS },
    },
  );
  const stream = closeAfter(t, await open(app));
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.deepEqual(stream.events, [], "version 5 was not sent as the current state");
  events.calls[0]!.push(6);
  await until("the current state", () => stream.events.length === 1, 5_000);
  t.is(stream.events[0]!.id, "6");
});

test("a feed behind its caller's check past the wait: nothing older than the check's read, nothing at or below the cursor", async (t) => {
  // The feed's replica is at 5 and stays there past the wait; the check read 8.
  const events = fakeTableEvents((call) => void call.push(5));
  const app = await withApp(
    t,
    events,
    {},
    { table: { getState: async () => ({ state: tableState(), version: 8 }) }, feedLimits: { aheadWaitMs: 100 } },
  );
  const fresh = closeAfter(t, await open(app));
  const resumed = closeAfter(t, await open(app, "/api/tables/7/events", { "last-event-id": "7" }));
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.deepEqual(fresh.events, [], "version 5 was not sent as the current state");
  t.deepEqual(resumed.events, [], "nor to a stream resuming after 7, which the table has");
  events.calls[0]!.push(6).push(7).push(8).push(9);
  await until("9 on both", () => fresh.events.at(-1)?.id === "9" && resumed.events.at(-1)?.id === "9");
  t.deepEqual(
    fresh.events.map((e) => e.id),
    ["8", "9"],
  );
  t.deepEqual(
    resumed.events.map((e) => e.id),
    ["8", "9"],
    "no step back and no repeat",
  );
});

test("Last-Event-ID: any id the contract allows, 16 digits past 2^53 too, is taken; one above 2^53 as the largest exact version", (t) => {
  const idOf = (header: string) => lastEventIdOf({ headers: { "last-event-id": header } } as never);
  t.is(idOf("0"), 0);
  t.is(idOf("9007199254740991"), Number.MAX_SAFE_INTEGER);
  t.is(idOf("9007199254740992"), Number.MAX_SAFE_INTEGER, "above any version, as the contract's pattern allows");
  t.is(idOf("9999999999999999"), Number.MAX_SAFE_INTEGER);
  t.throws(() => idOf("99999999999999999"), { message: /Last-Event-ID/ }, "17 digits");
});

test("refused before any stream, as JSON: bad Last-Event-ID or tableId, no token, GetState's refusals", async (t) => {
  const answers = [
    serviceError(status.PERMISSION_DENIED, "not yours"),
    serviceError(status.NOT_FOUND, "no table 8"),
    serviceError(status.UNAVAILABLE, "connection refused"),
  ];
  const events = fakeTableEvents();
  const app = await withApp(
    t,
    events,
    {},
    {
      table: {
        getState: async () => {
          throw answers.shift()!;
        },
      },
    },
  );
  for (const id of ["abc", "-1", "007", "1.5", "99999999999999999"]) {
    const answer = await open(app, "/api/tables/7/events", { "last-event-id": id });
    t.is(answer.status, 400, id);
    t.regex(
      (answer.body as { error: string }).error,
      /Last-Event-ID .* at most 16 decimal digits, without leading zeros/,
    );
  }
  t.is((await open(app, "/api/tables/07/events")).status, 400);
  const anonymous = await openSse(`${app.url}/api/tables/7/events`, null);
  t.is(anonymous.status, 401);
  t.is(app.table.calls.length, 0, "nothing asked of the table service");
  t.deepEqual(await open(app, "/api/tables/1001/events").then((a) => [a.status, a.body]), [
    403,
    { error: "not yours" },
  ]);
  t.deepEqual(await open(app, "/api/tables/8/events").then((a) => [a.status, a.body]), [404, { error: "no table 8" }]);
  t.deepEqual(await open(app, "/api/tables/7/events").then((a) => [a.status, a.body]), [
    503,
    { error: "table service unavailable" },
  ]);
  t.is(events.calls.length, 0, "no table watched");
});

test("each stream's caller is checked, also on a feed another caller opened", async (t) => {
  const events = fakeTableEvents();
  const app = await withApp(
    t,
    events,
    {},
    {
      table: {
        getState: async ({ caller }) => {
          if (caller?.playerId !== "player-1") throw serviceError(status.PERMISSION_DENIED, "not yours");
          return { state: tableState(), version: 1 };
        },
      },
    },
  );
  closeAfter(t, await open(app, "/api/tables/1001/events"));
  const other = await open(app, "/api/tables/1001/events", {}, await app.tokenFor("player-2"));
  t.deepEqual([other.status, other.body], [403, { error: "not yours" }]);
  t.is(events.calls.length, 1);
});

test("a table service that stays unavailable: tried a few times, then 503", async (t) => {
  const events = fakeTableEvents((call) => call.fail(status.UNAVAILABLE, "connection refused"));
  const app = await withApp(t, events);
  const answer = await open(app);
  t.is(answer.status, 503);
  t.deepEqual(answer.body, { error: "table service unavailable" });
  t.is(events.calls.length, 6);
});

test("caps: per player and in all, 429 with Retry-After and { error }; a closed stream frees its slot", async (t) => {
  const events = fakeTableEvents();
  const app = await withApp(t, events, { eventStreamsPerPlayer: 2, eventStreams: 3 });
  const first = closeAfter(t, await open(app));
  closeAfter(t, await open(app));
  const third = await open(app);
  t.is(third.status, 429);
  t.is(third.headers.get("retry-after"), "5");
  t.regex((third.body as { error: string }).error, /too many event streams open for this player/);
  const other = await app.tokenFor("player-2");
  closeAfter(t, await open(app, undefined, {}, other));
  const overall = await open(app, undefined, {}, await app.tokenFor("player-3"));
  t.is(overall.status, 429);
  t.regex((overall.body as { error: string }).error, /too many event streams open; try again later/);

  first.close();
  let again: SseStream | undefined;
  for (const deadline = Date.now() + 5_000; !again && Date.now() < deadline; await sleep(20)) {
    const answer = await open(app);
    if (answer.status === 200) again = closeAfter(t, answer);
  }
  t.is(again?.status, 200, "the closed stream's slot is free again");
  t.is(events.calls.length, 1, "every stream of the table on one call");
  t.false(events.calls[0]!.cancelled);
});

test("one address cannot hold every stream with many accounts: 429 beyond its cap, and the refusal holds no slot", async (t) => {
  const app = await withApp(t, fakeTableEvents(), { eventStreamsPerPlayer: 1, eventStreamsPerAddress: 3 });
  const held: SseStream[] = [];
  for (let i = 0; i < 3; i++)
    held.push(closeAfter(t, await open(app, undefined, {}, await app.tokenFor(`account-${i}`))));
  const late = await app.tokenFor("account-3");
  const refused = await open(app, undefined, {}, late);
  t.is(refused.status, 429);
  t.is(refused.headers.get("retry-after"), "5");
  t.deepEqual(refused.body, { error: "too many event streams open from this address; close one first" });

  held[0]!.close();
  // The refusal kept none of its player's slots (one each here): the player opens once the address has room.
  let again: SseStream | undefined;
  for (const deadline = Date.now() + 5_000; !again && Date.now() < deadline; await sleep(20)) {
    const answer = await open(app, undefined, {}, late);
    if (answer.status === 200) again = closeAfter(t, answer);
  }
  t.is(again?.status, 200);
});

test("streams that come and go share their table's one call and cancel nothing; it closes a while after the last", async (t) => {
  const events = fakeTableEvents();
  // A linger long enough that a busy machine does not outlast it between two streams (it did 2 s).
  const app = await withApp(t, events, {}, { feedLimits: { lingerMs: LINGER_MS } });
  for (let i = 0; i < 50; i++) {
    const stream = await open(app, "/api/tables/7/events", {}, await app.tokenFor(`player-${i}`));
    await until("the first event", () => stream.events.length === 1);
    stream.close();
  }
  const other = closeAfter(t, await open(app, "/api/tables/9/events"));
  await until("the other table's event", () => other.events.length === 1);
  t.deepEqual(
    events.calls.map((call) => call.request.tableId),
    [7, 9],
  );
  t.is(app.table.calls.filter((call) => call.method === "getState").length, 51, "each stream checked");
  t.false(events.calls[0]!.cancelled);
  await until("table 7's call cancelled, after the last stream", () => events.calls[0]!.cancelled, 3 * LINGER_MS);
  t.false(events.calls[1]!.cancelled, "a table still watched keeps its call");
  const back = closeAfter(t, await open(app));
  await until("the event of a new call", () => back.events.length === 1);
  t.is(events.calls.length, 3);
});

test("feeds kept after their last stream are bounded: past maxLingering, the one idle longest closes", async (t) => {
  const events = fakeTableEvents();
  const app = await withApp(t, events, {}, { feedLimits: { lingerMs: 60_000, maxLingering: 2 } });
  await watchAndLeave(app, 7);
  await watchAndLeave(app, 8);
  await watchAndLeave(app, 9);
  await until("table 7's call cancelled, the third idle feed", () => events.calls[0]!.cancelled);
  t.deepEqual(
    events.calls.map((call) => [call.request.tableId, call.cancelled]),
    [
      [7, true],
      [8, false],
      [9, false],
    ],
  );
});

test("all feeds' events are bounded by maxChars: idle feeds close first, then each feed keeps only its newest", async (t) => {
  // States of 300 bets (about 34,000 characters each as events): five are past the bound of
  // 120,000, and within one feed's own.
  const bets = Array.from({ length: 300 }, (_, i) => ({ ...tableState().bets[0]!, playerId: `player-${i}` }));
  const big = tableState({ bets });
  const events = fakeTableEvents();
  const app = await withApp(t, events, {}, { feedLimits: { lingerMs: 60_000, maxChars: 120_000 } });
  const idle = await open(app, "/api/tables/9/events");
  await until("table 9's event", () => idle.events.length === 1);
  idle.close();
  const watched = closeAfter(t, await open(app, "/api/tables/7/events"));
  await until("table 7's event", () => watched.events.length === 1);
  const table7 = events.calls[1]!;
  t.is(table7.request.tableId, 7);
  for (let version = 2; version <= 6; version++) table7.push(version, big);
  await until("the watched stream's newest", () => watched.events.at(-1)?.id === "6");
  await until("table 9's idle feed closed", () => events.calls[0]!.cancelled);
  t.false(table7.cancelled, "the watched feed stays");
  // A client back from version 1 goes on from the oldest event kept: the older ones were dropped.
  const back = closeAfter(t, await open(app, "/api/tables/7/events", { "last-event-id": "1" }));
  await until("the returning stream's newest", () => back.events.at(-1)?.id === "6");
  t.true(Number(back.events[0]!.id) > 2, `from version ${back.events[0]!.id}`);
  const held = back.events.reduce((sum, event) => sum + event.data.length, 0);
  t.true(held <= 120_000 + back.events.at(-1)!.data.length, `${held} characters held`);
  const pushed = 5 * back.events.at(-1)!.data.length;
  t.true(pushed > 120_000 && pushed < FEED_MAX_CHARS, `${pushed} characters: past the bound, within one feed's own`);
});

test("versions an idle feed reads after the budget closed it count for nothing: other idle feeds stay", async (t) => {
  const bets = Array.from({ length: 300 }, (_, i) => ({ ...tableState().bets[0]!, playerId: `player-${i}` }));
  const big = tableState({ bets });
  const events = fakeTableEvents();
  const app = await withApp(t, events, {}, { feedLimits: { lingerMs: 60_000, maxChars: 100_000 } });
  await watchAndLeave(app, 9);
  await watchAndLeave(app, 8);
  const watched = closeAfter(t, await open(app, "/api/tables/7/events"));
  await until("table 7's event", () => watched.events.length === 1);
  const [table9, table8, table7] = events.calls as [FakeWatch, FakeWatch, FakeWatch];
  // A burst on idle table 9: the third is past the budget and closes its feed; the rest were read already.
  for (let version = 2; version <= 6; version++) table9.push(version, big);
  await until("table 9's idle feed closed", () => table9.cancelled);
  table7.push(2, big);
  await until("table 7's second event", () => watched.events.length === 2);
  await sleep(50);
  t.false(table8.cancelled, "table 8's idle feed stays: one large state and three small ones are within the budget");
});

test("a heartbeat comment keeps an idle stream open", async (t) => {
  const events = fakeTableEvents();
  const app = await withApp(t, events, { eventHeartbeatMs: 40 });
  const stream = closeAfter(t, await open(app));
  await until("three heartbeats", () => stream.comments.length >= 3);
  t.true(stream.comments.every((comment) => comment === "keep-alive"));
  t.is(stream.events.length, 1);
});

test("a client that stops reading is cut after three heartbeats' time with nothing sent, not held until it goes", async (t) => {
  const events = fakeTableEvents();
  // The feed closes as soon as its one stream leaves: its call's cancellation shows the cut.
  const app = await withApp(t, events, { eventHeartbeatMs: 100 }, { feedLimits: { lingerMs: 0 } });
  // A state of 300 bets (about 44 KB as an event), so that the socket's buffers fill soon.
  const bets = Array.from({ length: 300 }, (_, i) => ({ ...tableState().bets[0]!, playerId: `player-${i}` }));
  const url = new URL(app.url);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  t.teardown(() => socket.destroy());
  socket.on("error", () => undefined);
  let closed = false;
  socket.on("close", () => (closed = true));
  socket.write(`GET /api/tables/7/events HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${app.token}\r\n\r\n`);
  await new Promise((resolve) => socket.once("data", resolve));
  socket.pause(); // and never reads again
  const watch = events.calls[0]!;
  let version = 2;
  const pump = setInterval(() => watch.push(version++, tableState({ bets, gameId: `T7-${version}` })), 5);
  t.teardown(() => clearInterval(pump));
  // Sent until the buffers between the two ends are full, however long a busy machine takes to fill
  // them (a fixed 2 s of sending once left them short of full, and the stream was never cut).
  await until("the stalled stream cut and its feed closed", () => watch.cancelled, 60_000);
  clearInterval(pump);
  // The gateway closed its end (a paused socket does not see it): read what was sent, then the end.
  // Before, the stream went on, its heartbeats with it.
  socket.resume();
  await until("the stalled connection cut", () => closed, 10_000);
  // A reading client's connection is kept busy by its heartbeats and stays.
  const reader = closeAfter(t, await open(app));
  await sleep(600);
  t.false(reader.endedByServer());
});

test("a broken WatchTable stream: subscribed again from the last version sent, no gap and no repeat", async (t) => {
  const events = fakeTableEvents((call, i) => {
    if (i === 0) {
      call.push(1);
      setTimeout(() => call.push(2).push(3), 30);
      setTimeout(() => call.fail(status.UNAVAILABLE, "Connection dropped"), 80);
    } else if (i === 1) {
      call.fail(status.UNAVAILABLE, "connection refused"); // the dead replica, once more
    } else if (i === 2) {
      call.push(3).push(4); // a replica that repeats what was sent is filtered
      setTimeout(() => call.end(), 50);
    } else {
      call.push(5);
    }
  });
  const app = await withApp(t, events);
  const stream = closeAfter(t, await open(app));
  await until("five versions", () => stream.events.length === 5);
  t.deepEqual(
    stream.events.map((e) => e.id),
    ["1", "2", "3", "4", "5"],
  );
  t.deepEqual(
    events.calls.map((call) => call.request.afterVersion),
    [0, 3, 3, 4],
  );
  t.false(stream.endedByServer());
});

test("a feed that broke and missed more than 64 versions asks for the recent ones: a resume within them misses none", async (t) => {
  const events = fakeTableEvents((call, i) => {
    if (i === 0) {
      for (let version = 1; version <= 10; version++) call.push(version);
      setTimeout(() => call.fail(status.UNAVAILABLE, "Connection dropped"), 30);
      return;
    }
    // The table service at 110 by then: the recent versions asked for, else the current one alone.
    const from = call.request.recentVersions >= 64 ? 47 : 110;
    for (let version = from; version <= 110; version++) call.push(version, tableState(), 110);
  });
  const app = await withApp(
    t,
    events,
    {},
    { table: { getState: async () => ({ state: tableState(), version: 110 }) } },
  );
  const first = closeAfter(t, await open(app));
  await until("the feed subscribed again", () => events.calls.length === 2);
  const resumed = closeAfter(t, await open(app, "/api/tables/7/events", { "last-event-id": "100" }));
  await until("110", () => resumed.events.at(-1)?.id === "110");
  t.like(events.calls[1]!.request, { afterVersion: 10, recentVersions: 64 });
  t.deepEqual(
    resumed.events.map((e) => e.id),
    range(101, 110).map(String),
  );
  t.is(first.events.at(-1)?.id, "110");
});

test("calls the table service accepted and that broke later (connections recycled) never end the feed", async (t) => {
  const events = fakeTableEvents((call, i) => {
    if (i === 0) call.push(1);
    else if (i < 8)
      call.open(); // an idle table: nothing to send before the connection goes
    else return void call.push(2);
    setTimeout(() => call.fail(status.UNAVAILABLE, "Connection dropped"), 20);
  });
  const app = await withApp(t, events);
  const stream = closeAfter(t, await open(app));
  await until("the version after seven breaks", () => stream.events.length === 2, 20_000);
  t.deepEqual(
    stream.events.map((e) => e.id),
    ["1", "2"],
  );
  t.false(stream.endedByServer());
  t.deepEqual(
    events.calls.map((call) => call.request.afterVersion),
    [0, 1, 1, 1, 1, 1, 1, 1, 1],
  );
});

test("a refusal after the stream started ends it; the client's reconnection gets the answer", async (t) => {
  const events = fakeTableEvents((call, i) => {
    if (i === 0) {
      call.push(1);
      setTimeout(() => call.fail(status.UNAVAILABLE), 20);
    } else call.fail(status.PERMISSION_DENIED, "not yours");
  });
  const app = await withApp(t, events);
  const stream = await open(app);
  await stream.closed;
  t.true(stream.endedByServer());
  t.deepEqual(
    stream.events.map((e) => e.id),
    ["1"],
  );
});

test("a stream ends after its time (the client reconnects with Last-Event-ID); its table's call stays a while", async (t) => {
  const events = fakeTableEvents();
  // A linger long enough that a busy machine does not outlast it between the stream's end and the check.
  const app = await withApp(t, events, { eventStreamMaxMs: 150 }, { feedLimits: { lingerMs: LINGER_MS } });
  const started = Date.now();
  const stream = await open(app);
  await stream.closed;
  t.true(stream.endedByServer());
  t.true(Date.now() - started >= 140);
  t.false(events.calls[0]!.cancelled, "the call stays after its last stream");
  await until("the call cancelled", () => events.calls[0]!.cancelled, 3 * LINGER_MS);
});

test("a stream ends when its caller's token stops being accepted, however long streams may last", async (t) => {
  const key = await newKey();
  const events = fakeTableEvents();
  const app = await withApp(t, events, { eventStreamMaxMs: 120_000 }, { verifyToken: verifierFor(key) });
  const now = Math.floor(Date.now() / 1000);
  // Expired 25 s ago: accepted for the 30 s of clock tolerance, so for about 5 s more.
  const claims = { sub: "player-1", iss: ISSUER, aud: AUDIENCE, iat: now - 60, exp: now - 25 };
  const started = Date.now();
  const stream = closeAfter(t, await open(app, undefined, {}, await customToken(key, claims)));
  t.is(stream.status, 200);
  await stream.closed;
  t.true(stream.endedByServer());
  const lasted = Date.now() - started;
  t.true(lasted < 30_000, `the stream lasted ${lasted} ms`);
  t.is(stream.events.length, 1, "the stream served until then");
});

// Serial: it slows the wall clock for the whole process.
test.serial(
  "a stream whose token runs out while its feed catches up is answered 401 at once, not left without an answer, even when the wall clock lags the timer",
  async (t) => {
    const key = await newKey();
    // Timers run on the monotonic clock: one may fire before Date.now() reaches the moment it was set
    // for. Here the wall clock steps back once the stream has set its timer.
    const wallClock = Date.now;
    t.teardown(() => (Date.now = wallClock));
    const events = fakeTableEvents((call) => {
      setTimeout(() => (Date.now = () => wallClock() - 200), 100);
      setTimeout(() => call.cancelled || call.push(1), 8_000);
    });
    const app = await withApp(t, events, {}, { verifyToken: verifierFor(key) });
    const now = Math.floor(Date.now() / 1000);
    // Expired 28 s ago: accepted for one or two seconds more, less than the feed takes to catch up.
    const claims = { sub: "player-1", iss: ISSUER, aud: AUDIENCE, iat: now - 60, exp: now - 28 };
    const token = await customToken(key, claims);
    const started = performance.now();
    const response = await fetch(`${app.url}/api/tables/7/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(15_000),
    });
    t.is(response.status, 401);
    t.deepEqual(await response.json(), { error: "Authorization header is invalid: the token has expired" });
    // The token runs out after 1-2 s, the feed catches up after 8 s: 6 s leaves a busy machine room.
    t.true(performance.now() - started < 6_000, "answered when the token ran out, before the feed caught up");
  },
);

test("HEAD checks the caller and answers the stream's headers, watching nothing; the connection serves on", async (t) => {
  const events = fakeTableEvents();
  const app = await withApp(t, events);
  const socket = connect(Number(new URL(app.url).port), "127.0.0.1");
  t.teardown(() => socket.destroy());
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  const ask = (method: string, path: string) =>
    socket.write(`${method} ${path} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${app.token}\r\n\r\n`);
  ask("HEAD", "/api/tables/7/events");
  await until("the HEAD answer", () => received.includes("\r\n\r\n"));
  t.regex(received, /^HTTP\/1\.1 200 OK\r\n/);
  t.regex(received, /content-type: text\/event-stream\r\n/i);
  t.like(app.table.calls[0], { method: "getState" });
  t.is(events.calls.length, 0);
  ask("GET", "/api/tables/7/state"); // on the same connection: answered only once the HEAD answer ended
  await until("the state's answer", () => received.includes('"tableId"')).catch(() => undefined);
  t.is(received.split("HTTP/1.1 200 OK").length, 3, "both answered on the one connection");
});

test("closing the server ends open streams at once instead of waiting out the grace period", async (t) => {
  const events = fakeTableEvents();
  const app = await startApp({ tableEvents: events.api, edge: edge(), closeGraceMs: CLOSE_GRACE_MS });
  const stream = await open(app);
  await until("the first event", () => stream.events.length === 1);
  const started = Date.now();
  await app.close();
  await stream.closed;
  t.true(Date.now() - started < CLOSE_GRACE_MS / 2, `closed after ${Date.now() - started} ms`);
  t.true(stream.endedByServer());
  t.true(events.calls[0]!.cancelled);
});

test("closing the server answers a stream still waiting for its feed at once: 503, not cut after the grace period", async (t) => {
  const events = fakeTableEvents((call) => void call.open()); // accepted, no version yet
  const app = await startApp({ tableEvents: events.api, edge: edge(), closeGraceMs: CLOSE_GRACE_MS });
  const answer = open(app);
  await until("the feed's call", () => events.calls.length === 1);
  const started = Date.now();
  await app.close();
  const waiting = await answer;
  t.true(Date.now() - started < CLOSE_GRACE_MS / 2, `answered after ${Date.now() - started} ms`);
  t.deepEqual([waiting.status, waiting.body], [503, { error: "table service unavailable" }]);
  t.true(events.calls[0]!.cancelled);
});

test("a Last-Event-ID above the table's version gets the current state after a moment, also across garbage collections", async (t) => {
  // Node 20 could collect an AbortSignal.timeout combined by AbortSignal.any before it fired.
  v8.setFlagsFromString("--expose-gc");
  const collect = runInNewContext("gc") as () => void;
  const events = fakeTableEvents((call) => void call.push(5));
  const app = await withApp(t, events);
  const stream = closeAfter(t, await open(app, "/api/tables/7/events", { "last-event-id": "6" }));
  for (let i = 0; i < 10; i++) {
    collect();
    await sleep(50);
  }
  // After the default second's wait; never, were its timer collected.
  await until("the current state", () => stream.events.length === 1);
  t.is(stream.events[0]!.id, "5");
});

test("without a table service to watch, 503", async (t) => {
  const app = await startApp({ edge: edge() });
  t.teardown(() => app.close());
  const answer = await open(app);
  t.is(answer.status, 503);
});

test("the stream settings come from the environment", (t) => {
  const settings = readEdgeSettings({
    EVENTS_MAX_STREAMS: "10",
    EVENTS_MAX_STREAMS_PER_PLAYER: "2",
    EVENTS_MAX_STREAMS_PER_ADDRESS: "3",
    EVENTS_HEARTBEAT_SECONDS: "5",
    EVENTS_MAX_STREAM_SECONDS: "60",
  });
  t.like(settings, {
    eventStreams: 10,
    eventStreamsPerPlayer: 2,
    eventStreamsPerAddress: 3,
    eventHeartbeatMs: 5_000,
    eventStreamMaxMs: 60_000,
  });
  t.throws(() => readEdgeSettings({ EVENTS_MAX_STREAMS: "0" }));
  t.throws(() => readEdgeSettings({ EVENTS_HEARTBEAT_SECONDS: "0" }));
});

test("in the OpenAPI document: a text/event-stream answer, Last-Event-ID, and its error answers", async (t) => {
  const app = await startApp({ edge: edge() });
  t.teardown(() => app.close());
  const document = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<
        string,
        { tags: string[]; parameters: { name?: string }[]; responses: Record<string, { content?: object }> }
      >
    >;
  };
  const operation = document.paths["/api/tables/{tableId}/events"]!.get!;
  t.deepEqual(operation.tags, ["tables"]);
  t.deepEqual(Object.keys(operation.responses), ["200", "400", "401", "403", "404", "429", "503"]);
  t.deepEqual(Object.keys(operation.responses["200"]!.content!), ["text/event-stream"]);
  t.true(operation.parameters.some((parameter) => parameter.name === "Last-Event-ID"));
});
