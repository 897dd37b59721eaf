// OpenTelemetry across every hop, on the whole stack: each process exports its spans to a collector
// in this test (OTLP/HTTP JSON), and one sit and one bet are each followed as a single trace from
// the gateway's HTTP span through table and wallet (gRPC, W3C trace context in the metadata) to
// their database commands (their shape, no values), with the saga steps' own spans; the gateway's
// server span is named after its route. A client's own traceparent is linked from the trace the
// gateway starts, never its parent. The log lines written meanwhile carry the same trace_id and
// span_id.
import test, { type ExecutionContext } from "ava";
import { randomBytes, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { Api, show, type BetReply, type Player, type SitReply, type TableState } from "../helpers/api.js";
import { startOtlpCollector, type CollectedSpan, type OtlpCollector } from "../helpers/otlp-collector.js";
import { eventually } from "../helpers/poll.js";
import { startTestStack, type TestStack } from "../helpers/stack.js";

const TABLE = 3;
/** OTLP's span kinds. */
const SERVER = 2;
const CLIENT = 3;
/** Requests a second from one address. */
const PER_IP_LIMIT = 40;

let collector: OtlpCollector;
let stack: TestStack;
let api: Api;
let failed = false;

test.before(async () => {
  collector = await startOtlpCollector();
  stack = await startTestStack({
    env: {
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      // Batches leave every 100 ms instead of every 5 s: the test waits less.
      OTEL_BSP_SCHEDULE_DELAY: "100",
      // The per-address limit (the last test floods it), ample for every other test's requests.
      RATE_LIMIT_PER_IP: String(PER_IP_LIMIT),
      RATE_LIMIT_WINDOW_SECONDS: "1",
    },
  });
  api = new Api(stack.url, stack.dataDir);
});

test.afterEach.always((t) => {
  failed ||= !t.passed;
});

test.after.always(async (t) => {
  if (failed && stack) t.log(`stack output (${stack.logFile}, kept):\n${await stack.logTail(40)}`);
  await stack?.stop({ keepData: failed });
  await collector?.close();
});

interface Caller {
  traceId: string;
  parentId: string;
  traceparent: string;
}

/** A client's own W3C traceparent, so that the test can tell which trace the gateway started for its request. */
function callerTrace(): Caller {
  const traceId = randomBytes(16).toString("hex");
  const parentId = randomBytes(8).toString("hex");
  return { traceId, parentId, traceparent: `00-${traceId}-${parentId}-01` };
}

/**
 * The trace of a request sent with `caller`'s traceparent: a new one, whose root (the gateway's
 * server span) links to the caller's span; no span joins the caller's own trace.
 */
async function requestTrace(t: ExecutionContext, caller: Caller): Promise<string> {
  const root = await eventually(`the gateway's span linked to ${caller.traceId}`, () =>
    Promise.resolve(
      collector.spans.find(
        (span) =>
          span.service === "pokerodds-gateway" &&
          span.links.some((link) => link.traceId === caller.traceId && link.spanId === caller.parentId),
      ),
    ),
  );
  t.like(root, { kind: SERVER, parentSpanId: "" }, "the gateway's server span starts a new trace");
  t.not(root.traceId, caller.traceId);
  t.deepEqual(
    collector.spans.filter((span) => span.traceId === caller.traceId),
    [],
    "no span joins the caller's trace",
  );
  return root.traceId;
}

/** The trace's spans once `complete` says every expected one has arrived. */
function traceSpans(traceId: string, complete: (spans: CollectedSpan[]) => boolean): Promise<CollectedSpan[]> {
  return eventually(`the spans of trace ${traceId}`, () => {
    const spans = collector.spans.filter((span) => span.traceId === traceId);
    return Promise.resolve(complete(spans) ? spans : undefined);
  });
}

const isDatabase = (span: CollectedSpan) => span.attributes["db.system.name"] === "mongodb";
const named = (spans: CollectedSpan[], name: string) => spans.find((span) => span.name === name);

/** `span`'s ancestors, nearest first, within the trace. */
function ancestors(spans: CollectedSpan[], span: CollectedSpan): CollectedSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain: CollectedSpan[] = [];
  for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId)) chain.push(parent);
  return chain;
}

/** One tree: every span's parent is in the trace, but the root's, which has none. */
function assertOneTree(t: ExecutionContext, spans: CollectedSpan[]): void {
  const ids = new Set(spans.map((span) => span.spanId));
  const orphans = spans.filter((span) => !ids.has(span.parentSpanId) && span.parentSpanId !== "");
  t.deepEqual(orphans, [], "every span hangs from the trace's root");
  const roots = spans.filter((span) => span.parentSpanId === "");
  t.is(roots.length, 1, `one root: ${roots.map((span) => `${span.service} ${span.name}`).join(", ")}`);
  t.is(roots[0]?.service, "pokerodds-gateway");
  t.is(roots[0]?.kind, SERVER, "the root is the gateway's HTTP server span");
}

/** Every log line that names the trace, by the service that wrote it; each also has a span_id. */
async function logLinesOf(traceId: string): Promise<Map<string, Record<string, unknown>[]>> {
  const byService = new Map<string, Record<string, unknown>[]>();
  for (const line of (await readFile(stack.logFile, "utf8")).split("\n")) {
    if (!line.includes(traceId)) continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    const service = String(entry.service);
    byService.set(service, [...(byService.get(service) ?? []), entry]);
  }
  return byService;
}

async function newPlayer(id: string, role?: "ADMIN"): Promise<Player> {
  const player = await api.player(id, role);
  const reply = await player.profile();
  if (reply.status !== 200) throw new Error(`first profile: ${show(reply)}`);
  return player;
}

test.serial("a sit is one trace: gateway, table, wallet, their database commands and the saga's steps", async (t) => {
  const alice = await newPlayer("trace-alice");
  const caller = callerTrace();
  const reply = await alice.request<SitReply>("POST", `/api/tables/${TABLE}/sit`, {
    body: { buyInAmount: 100 },
    key: randomUUID(),
    headers: { traceparent: caller.traceparent },
  });
  t.is(reply.status, 200, show(reply));
  t.is(reply.body.acknowledgement, "ACK", show(reply));
  const traceId = await requestTrace(t, caller);

  const spans = await traceSpans(
    traceId,
    (found) =>
      ["pokerodds-gateway", "pokerodds-table", "pokerodds-wallet"].every((service) =>
        found.some((span) => span.service === service && isDatabase(span) === (service !== "pokerodds-gateway")),
      ) && ["saga.sit", "saga.sit.debit", "saga.sit.store"].every((name) => named(found, name)),
  );
  t.log(spans.map((span) => `${span.service} ${span.scope} ${span.name}`).join("\n"));
  assertOneTree(t, spans);

  // gateway -> table and table -> wallet, each a client span in the caller and a server span in the callee.
  const hop = (service: string, method: string, kind: number) =>
    spans.find((span) => span.service === service && span.kind === kind && span.name.endsWith(method));
  t.truthy(hop("pokerodds-gateway", "TableService/Sit", CLIENT), "the gateway calls the table");
  t.truthy(hop("pokerodds-table", "TableService/Sit", SERVER), "the table serves it");
  const debit = hop("pokerodds-wallet", "WalletService/Debit", SERVER);
  t.truthy(debit, "the wallet serves the debit");
  // The wallet's debit, and its database commands, sit under the saga's debit step.
  t.true(
    ancestors(spans, debit!).some((span) => span.name === "saga.sit.debit"),
    "debit under saga.sit.debit",
  );
  t.true(
    spans.some(
      (span) => span.service === "pokerodds-wallet" && isDatabase(span) && ancestors(spans, span).includes(debit!),
    ),
    "the ledger is written under the wallet's Debit",
  );
  const store = named(spans, "saga.sit.store")!;
  t.true(
    spans.some(
      (span) => span.service === "pokerodds-table" && isDatabase(span) && ancestors(spans, span).includes(store),
    ),
    "the seat is stored under saga.sit.store",
  );
  // A database span shows its command's shape, never a value (player ids, amounts).
  const statements = spans.filter(isDatabase).map((span) => String(span.attributes["db.query.text"]));
  t.true(
    statements.every((text) => text.startsWith("{") && !text.includes("trace-alice")),
    statements.join("\n"),
  );
  t.deepEqual(named(spans, "saga.sit.debit")?.attributes, {
    "saga.kind": "sit",
    "saga.step": "debit",
    "table.id": TABLE,
  });

  // Every service's log lines for this request carry the trace and span ids.
  const lines = await eventually("log lines with the trace id", async () => {
    const found = await logLinesOf(traceId);
    return ["gateway", "table", "wallet"].every((service) => found.has(service)) ? found : undefined;
  });
  for (const entries of lines.values())
    for (const entry of entries) t.regex(String(entry.span_id), /^[0-9a-f]{16}$/, JSON.stringify(entry));
});

test.serial("a bet is one trace: gateway, table and the table's database commands", async (t) => {
  const [bob, admin] = await Promise.all([newPlayer("trace-bob"), newPlayer("trace-admin", "ADMIN")]);
  const sat = await bob.sit(TABLE, 50);
  t.is(sat.body.acknowledgement, "ACK", show(sat));
  const advanced = await admin.advance(TABLE);
  t.is(advanced.status, 200, show(advanced));
  const state: TableState = advanced.body;
  const hand = state.handOdds.find((odds) => odds.odds > 0)!.handIndex;

  const caller = callerTrace();
  const reply = await bob.request<BetReply>("POST", `/api/tables/${TABLE}/bet`, {
    body: { seatIndex: sat.body.seatId, handIndex: hand, betAmount: 1 },
    key: randomUUID(),
    headers: { traceparent: caller.traceparent },
  });
  t.is(reply.status, 200, show(reply));
  t.is(reply.body.acknowledgement, "ACK", show(reply));
  const traceId = await requestTrace(t, caller);

  const spans = await traceSpans(
    traceId,
    (found) =>
      found.some((span) => span.service === "pokerodds-table" && span.kind === SERVER) &&
      found.some((span) => span.service === "pokerodds-table" && isDatabase(span)) &&
      found.some((span) => span.service === "pokerodds-gateway" && span.kind === SERVER),
  );
  t.log(spans.map((span) => `${span.service} ${span.scope} ${span.name}`).join("\n"));
  assertOneTree(t, spans);
  // The gateway's route mounting names its server span after the route template, not the URL.
  const root = spans.find((span) => span.parentSpanId === "");
  t.is(root?.name, "POST /api/tables/:tableId/bet");
  t.is(root?.attributes["http.route"], "/api/tables/:tableId/bet");
  t.truthy(
    spans.find((span) => span.service === "pokerodds-gateway" && span.kind === CLIENT && span.name.endsWith("/Bet")),
    "the gateway calls the table's Bet",
  );
});

test.serial("a request's path is recorded cut to its first 1,024 characters", async (t) => {
  const caller = callerTrace();
  const path = `/api/${"x".repeat(5000)}`;
  const reply = await fetch(stack.url + path, { headers: { traceparent: caller.traceparent } });
  t.is(reply.status, 404);
  const traceId = await requestTrace(t, caller);
  const [root] = await traceSpans(traceId, (spans) => spans.length > 0);
  t.is(root?.attributes["url.path"], `${path.slice(0, 1024)}… (5005 characters)`);
});

// Last: it spends the address's budget.
test.serial("a request the per-address limit refuses starts no span: a flood costs no trace", async (t) => {
  let refused: Caller | undefined;
  for (let sent = 0; !refused && sent < 20 * PER_IP_LIMIT; sent++) {
    const caller = callerTrace();
    const reply = await fetch(`${stack.url}/api/tables`, { headers: { traceparent: caller.traceparent } });
    if (reply.status === 429) refused = caller;
  }
  if (!refused) return t.fail("no request was refused");
  // Sent after it, once the window has passed: when its span has arrived, the refused one's would have.
  const later = callerTrace();
  await eventually("a request after the window", async () => {
    const reply = await fetch(`${stack.url}/api/tables`, { headers: { traceparent: later.traceparent } });
    return reply.status === 200 ? true : undefined;
  });
  await requestTrace(t, later);
  const { traceId } = refused;
  const linked = collector.spans.filter((span) => span.links.some((link) => link.traceId === traceId));
  t.deepEqual(linked, [], "the refused request has no span");
});
