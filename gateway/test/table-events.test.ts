// GET /api/tables/{tableId}/events against a WatchTable the test drives: the event format (the
// state exactly as GET .../state answers it), Last-Event-ID, refusals as JSON before the stream
// starts, the caps on open streams (429), heartbeats, subscribing again after a replica's stream
// breaks (no gap, no repeat), the stream's time limit, and that closing the connection cancels
// the WatchTable call and frees the slot.
import { Metadata, status, type ServiceError } from "@grpc/grpc-js";
import type { ServerStream, ServerStreamCallOptions } from "@pokerodds/common";
import type {
  TableState,
  WatchTableRequest,
  WatchTableResponse,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import test, { type ExecutionContext } from "ava";
import { setTimeout as sleep } from "node:timers/promises";
import { openSse, until, type SseStream } from "../../test/helpers/sse.js";
import { readEdgeSettings, type EdgeSettings } from "../src/http/edge.js";
import type { TableEventsApi } from "../src/services.js";
import { startApp, type TestApp } from "./helpers/app.js";
import { tableState } from "./helpers/fixtures.js";

/** One WatchTable call as the gateway made it; the test answers for the table service. */
class FakeWatch implements ServerStream<WatchTableResponse> {
  readonly accepted: Promise<void>;
  private accept!: () => void;
  private refuse!: (error: Error) => void;
  private readonly queue: WatchTableResponse[] = [];
  private outcome: { error?: Error } | undefined;
  private wake = () => {};

  constructor(
    readonly request: WatchTableRequest,
    readonly options: ServerStreamCallOptions,
  ) {
    this.accepted = new Promise<void>((resolve, reject) => {
      this.accept = resolve;
      this.refuse = reject;
    });
    this.accepted.catch(() => {});
    options.signal?.addEventListener("abort", () => this.fail(status.CANCELLED, "Cancelled on client"));
  }

  get cancelled(): boolean {
    return this.options.signal?.aborted ?? false;
  }

  push(version: number, state: TableState = tableState()): this {
    this.accept();
    this.queue.push({ version, state });
    this.wake();
    return this;
  }

  open(): this {
    this.accept();
    return this;
  }

  fail(code: status, details = "test failure"): void {
    const error = Object.assign(new Error(`${code} ${details}`), { code, details, metadata: new Metadata() });
    this.outcome ??= { error: error as ServiceError };
    this.refuse(error);
    this.wake();
  }

  end(): void {
    this.outcome ??= {};
    this.accept();
    this.wake();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<WatchTableResponse> {
    for (;;) {
      const next = this.queue.shift();
      if (next) yield next;
      else if (this.outcome?.error) throw this.outcome.error;
      else if (this.outcome) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
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

const edge = (over: Partial<EdgeSettings> = {}): EdgeSettings => ({
  ...readEdgeSettings({}),
  rateLimitPerIp: 0,
  rateLimitPerPlayer: 0,
  heavyConcurrency: 0,
  heavyConcurrencyPerPlayer: 0,
  ...over,
});

async function withApp(
  t: ExecutionContext,
  events: ReturnType<typeof fakeTableEvents>,
  settings: Partial<EdgeSettings> = {},
): Promise<TestApp> {
  const app = await startApp({ tableEvents: events.api, edge: edge(settings) });
  t.teardown(() => app.close());
  return app;
}

const open = (app: TestApp, path = "/api/tables/7/events", headers: Record<string, string> = {}, token?: string) =>
  openSse(app.url + path, token ?? app.token, headers);

function closeAfter(t: ExecutionContext, stream: SseStream): SseStream {
  t.teardown(() => stream.close());
  return stream;
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
  t.like(call.request, { tableId: 7, afterVersion: 0, caller: { playerId: "player-1" } });
  t.is(call.options.requestId, "sse-1");
  events.calls[0]!.push(6, tableState({ gameId: "T7-4" }));
  await until("the next event", () => stream.events.length === 2);
  t.like(stream.events[1], { id: "6", event: "state" });
  t.is(JSON.parse(stream.events[1]!.data).gameId, "T7-4");
});

test("Last-Event-ID: asked for the versions after it, and nothing is sent twice, whatever the service sends", async (t) => {
  const events = fakeTableEvents((call) => void call.push(8).push(7).push(8).push(9));
  const app = await withApp(t, events);
  const stream = closeAfter(t, await open(app, "/api/tables/7/events", { "last-event-id": "7" }));
  await until("version 9", () => stream.events.length === 2);
  await sleep(50);
  t.deepEqual(
    stream.events.map((e) => e.id),
    ["8", "9"],
  );
  t.is(events.calls[0]!.request.afterVersion, 7);
});

test("Last-Event-ID above the table's version: the current state the service sends, then the versions after it", async (t) => {
  const events = fakeTableEvents((call) => void call.push(5).push(6));
  const app = await withApp(t, events);
  const stream = closeAfter(t, await open(app, "/api/tables/7/events", { "last-event-id": "999999" }));
  await until("versions 5 and 6", () => stream.events.length === 2);
  t.deepEqual(
    stream.events.map((e) => e.id),
    ["5", "6"],
  );
  t.is(events.calls[0]!.request.afterVersion, 999_999);
});

test("refused before any stream, as JSON: bad Last-Event-ID or tableId, no token, the table service's refusals", async (t) => {
  const answers = [status.PERMISSION_DENIED, status.NOT_FOUND, status.INVALID_ARGUMENT];
  const events = fakeTableEvents((call, i) => call.fail(answers[i]!, ["not yours", "no table 8", "bad"][i]));
  const app = await withApp(t, events);
  for (const id of ["abc", "-1", "007", "1.5", "99999999999999999"]) {
    const answer = await open(app, "/api/tables/7/events", { "last-event-id": id });
    t.is(answer.status, 400, id);
    t.regex((answer.body as { error: string }).error, /Last-Event-ID/);
  }
  t.is((await open(app, "/api/tables/07/events")).status, 400);
  const anonymous = await openSse(`${app.url}/api/tables/7/events`, null);
  t.is(anonymous.status, 401);
  t.is(events.calls.length, 0, "nothing asked of the table service");
  t.deepEqual(await open(app, "/api/tables/1001/events").then((a) => [a.status, a.body]), [
    403,
    { error: "not yours" },
  ]);
  t.deepEqual(await open(app, "/api/tables/8/events").then((a) => [a.status, a.body]), [404, { error: "no table 8" }]);
  t.is((await open(app, "/api/tables/8/events")).status, 400);
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
  await until("the call cancelled", () => events.calls[0]!.cancelled);
  let again: SseStream | undefined;
  for (const deadline = Date.now() + 5_000; !again && Date.now() < deadline; await sleep(20)) {
    const answer = await open(app);
    if (answer.status === 200) again = closeAfter(t, answer);
  }
  t.is(again?.status, 200, "the closed stream's slot is free again");
});

test("a heartbeat comment keeps an idle stream open", async (t) => {
  const events = fakeTableEvents();
  const app = await withApp(t, events, { eventHeartbeatMs: 40 });
  const stream = closeAfter(t, await open(app));
  await until("three heartbeats", () => stream.comments.length >= 3);
  t.true(stream.comments.every((comment) => comment === "keep-alive"));
  t.is(stream.events.length, 1);
});

test("a broken WatchTable stream: subscribed again from the last version sent, no gap and no repeat", async (t) => {
  const events = fakeTableEvents((call, i) => {
    if (i === 0) {
      call.push(1).push(2).push(3);
      setTimeout(() => call.fail(status.UNAVAILABLE, "Connection dropped"), 50);
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

test("a stream ends after its time (the client reconnects with Last-Event-ID), cancelling its call", async (t) => {
  const events = fakeTableEvents();
  const app = await withApp(t, events, { eventStreamMaxMs: 150 });
  const started = Date.now();
  const stream = await open(app);
  await stream.closed;
  t.true(stream.endedByServer());
  t.true(Date.now() - started >= 140);
  t.true(events.calls[0]!.cancelled);
});

test("HEAD answers the stream's headers and ends", async (t) => {
  const events = fakeTableEvents((call) => void call.open());
  const app = await withApp(t, events);
  const response = await fetch(`${app.url}/api/tables/7/events`, {
    method: "HEAD",
    headers: { authorization: `Bearer ${app.token}` },
  });
  t.is(response.status, 200);
  t.is(response.headers.get("content-type"), "text/event-stream");
  await until("the call cancelled", () => events.calls[0]!.cancelled);
});

test("closing the server ends open streams at once instead of waiting out the grace period", async (t) => {
  const events = fakeTableEvents();
  const app = await startApp({ tableEvents: events.api, edge: edge() });
  const stream = await open(app);
  await until("the first event", () => stream.events.length === 1);
  const started = Date.now();
  await app.close(); // a grace period of 1 s
  await stream.closed;
  t.true(Date.now() - started < 500, `closed after ${Date.now() - started} ms`);
  t.true(stream.endedByServer());
  t.true(events.calls[0]!.cancelled);
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
    EVENTS_HEARTBEAT_SECONDS: "5",
    EVENTS_MAX_STREAM_SECONDS: "60",
  });
  t.like(settings, { eventStreams: 10, eventStreamsPerPlayer: 2, eventHeartbeatMs: 5_000, eventStreamMaxMs: 60_000 });
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
