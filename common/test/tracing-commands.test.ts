// With tracing on: a database command sent inside a recorded span gets its own span (a child, named
// "<command> <collection>", the stable db.* attributes, the statement's shape only; a failure marks
// it), and none outside a span or inside one the sampler left out; a log line written inside a span
// carries its trace fields. The driver's command events are played by an EventEmitter; the
// whole-stack trace test follows the same spans from a real driver.
import { context, SpanKind, SpanStatusCode, trace, TraceFlags } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import test from "ava";
import type { MongoClient } from "mongodb";
import { EventEmitter } from "node:events";
import { Writable } from "node:stream";

// The tracing modules decide once, when loaded, whether this process traces.
process.env.OTEL_TRACES_EXPORTER = "console";
const { traceCommands } = await import("../src/tracing/mongodb-span.js");
const { traceLogFields } = await import("../src/tracing/log-fields.js");
const { pino } = await import("pino");

const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const tracer = trace.getTracer("test");

const driver = new EventEmitter();
traceCommands(driver as unknown as MongoClient);

let requestId = 0;
/** One command as the driver reports it: started, then succeeded or failed. */
function command(outcome: "succeeded" | "failed", sent: { address?: string; command?: Record<string, unknown> } = {}) {
  const id = ++requestId;
  const { address = "127.0.0.1:27017", command = { find: "snapshots", filter: { _id: "table-7" }, limit: 1 } } = sent;
  driver.emit("commandStarted", {
    requestId: id,
    commandName: Object.keys(command)[0],
    databaseName: "table",
    address,
    command,
  });
  if (outcome === "succeeded") driver.emit("commandSucceeded", { requestId: id });
  else driver.emit("commandFailed", { requestId: id, failure: new Error("connection closed") });
}

const commandSpans = () => exporter.getFinishedSpans().filter((span) => span.name === "find snapshots");

test.serial("a command inside a span is its child, described by its shape alone", (t) => {
  exporter.reset();
  const parent = tracer.startSpan("request");
  context.with(trace.setSpan(context.active(), parent), () => command("succeeded"));
  parent.end();
  const [span] = commandSpans();
  t.is(span?.kind, SpanKind.CLIENT);
  t.is(span?.parentSpanContext?.spanId, parent.spanContext().spanId);
  t.deepEqual(span?.attributes, {
    "db.system.name": "mongodb",
    "db.namespace": "table",
    "db.operation.name": "find",
    "db.collection.name": "snapshots",
    "db.query.text": '{"find":"?","filter":{"_id":"?"},"limit":"?"}',
    "server.address": "127.0.0.1",
    "server.port": 27017,
  });
  t.is(span?.status.code, SpanStatusCode.UNSET);
});

test.serial("each command's span has its own collection, statement and server, however many came before", (t) => {
  exporter.reset();
  const parent = tracer.startSpan("request");
  context.with(trace.setSpan(context.active(), parent), () => {
    command("succeeded");
    command("succeeded", { address: "[::1]:27018", command: { find: "versions", filter: { seq: 3 } } });
    command("succeeded", { command: { find: "snapshots", filter: { _id: "table-8" }, sort: { at: 1 } } });
  });
  parent.end();
  const spans = exporter.getFinishedSpans().filter((span) => span.name !== "request");
  t.deepEqual(
    spans.map((span) => [
      span.name,
      span.attributes["db.query.text"],
      span.attributes["server.address"],
      span.attributes["server.port"],
    ]),
    [
      ["find snapshots", '{"find":"?","filter":{"_id":"?"},"limit":"?"}', "127.0.0.1", 27017],
      ["find versions", '{"find":"?","filter":{"seq":"?"}}', "[::1]", 27018],
      ["find snapshots", '{"find":"?","filter":{"_id":"?"},"sort":{"at":"?"}}', "127.0.0.1", 27017],
    ],
  );
});

test.serial("a getMore is named by its cursor's collection, not by the cursor's id", (t) => {
  exporter.reset();
  const parent = tracer.startSpan("request");
  context.with(trace.setSpan(context.active(), parent), () => {
    for (const cursor of [41, 42]) {
      command("succeeded", { command: { getMore: BigInt(cursor), collection: "history", batchSize: 101 } });
    }
  });
  parent.end();
  const spans = exporter.getFinishedSpans().filter((span) => span.name !== "request");
  t.deepEqual(
    spans.map((span) => [span.name, span.attributes["db.collection.name"], span.attributes["db.query.text"]]),
    [
      ["getMore history", "history", '{"getMore":"?","collection":"?","batchSize":"?"}'],
      ["getMore history", "history", '{"getMore":"?","collection":"?","batchSize":"?"}'],
    ],
  );
});

test.serial("a failed command's span says so", (t) => {
  exporter.reset();
  const parent = tracer.startSpan("request");
  context.with(trace.setSpan(context.active(), parent), () => command("failed"));
  parent.end();
  t.deepEqual(commandSpans()[0]?.status, { code: SpanStatusCode.ERROR, message: "connection closed" });
});

test.serial("no span outside a trace, nor inside one the sampler left out", (t) => {
  exporter.reset();
  command("succeeded");
  const unsampled = trace.wrapSpanContext({
    traceId: "0af7651916cd43dd8448eb211c80319c",
    spanId: "b7ad6b7169203331",
    traceFlags: TraceFlags.NONE,
  });
  context.with(trace.setSpan(context.active(), unsampled), () => command("succeeded"));
  t.deepEqual(commandSpans(), []);
});

test.serial("a log line written inside a span carries its trace fields", (t) => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ mixin: traceLogFields }, sink);
  const span = tracer.startSpan("request");
  context.with(trace.setSpan(context.active(), span), () => logger.info("inside"));
  span.end();
  logger.info("outside");
  const { traceId, spanId } = span.spanContext();
  t.like(lines[0], { msg: "inside", trace_id: traceId, span_id: spanId, trace_flags: "01" });
  t.false("trace_id" in (lines[1] ?? {}));
});
