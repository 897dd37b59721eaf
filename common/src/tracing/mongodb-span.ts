// The span of every MongoDB command, made from the driver's command events (mongo.ts monitors
// commands anyway, for its metrics) rather than the OpenTelemetry mongodb instrumentation: that one
// wraps the driver's command, its connection pool's check-out and release and each command's
// callback, which cost the state reads about 60 µs of the table's CPU a command (bench/tracing.ts).
// Names and attributes follow the stable database conventions, as the instrumentation's did.
import { context, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import type { CommandStartedEvent, MongoClient } from "mongodb";
import { tracingEnabled } from "./enabled.js";
import { tracer } from "./span.js";
import { statementShape } from "./statement.js";

/** Decided once: with tracing off no listener is added. */
const TRACING = tracingEnabled();

/** A command's span name and the attributes its kind shares, by database, command, collection and server. */
const described = new Map<string, { name: string; attributes: Record<string, string | number> }>();
/** Ample for a process's few collections and commands; past it nothing more is kept (a bug, or hostile names). */
const DESCRIBED_MAX = 256;

/**
 * The collection a command names: its own field's value ({ find: "snapshots" }), or for a getMore,
 * whose own field is the cursor's id, its `collection` (so that cursors do not fill the cache).
 */
function collectionOf(event: CommandStartedEvent): string | undefined {
  const named: unknown = event.command[event.commandName];
  if (typeof named === "string") return named;
  const { collection } = event.command as { collection?: unknown };
  return typeof collection === "string" ? collection : undefined;
}

/** "find snapshots" and the attributes every such command shares (db.query.text is each command's own). */
function describe(event: CommandStartedEvent) {
  const collection = collectionOf(event);
  const key = `${event.databaseName}\0${event.commandName}\0${collection ?? ""}\0${event.address}`;
  let kind = described.get(key);
  if (!kind) {
    // "host:port", where host may be an IPv6 address in brackets.
    const colon = event.address.lastIndexOf(":");
    kind = {
      name: collection === undefined ? event.commandName : `${event.commandName} ${collection}`,
      attributes: {
        "db.system.name": "mongodb",
        "db.namespace": event.databaseName,
        "db.operation.name": event.commandName,
        ...(collection === undefined ? {} : { "db.collection.name": collection }),
        "server.address": event.address.slice(0, colon),
        "server.port": Number(event.address.slice(colon + 1)),
      },
    };
    if (described.size < DESCRIBED_MAX) described.set(key, kind);
  }
  return kind;
}

/**
 * Gives each command sent within a recorded trace its span, a child of the span it was sent from. A
 * command outside any (the health ping) starts no trace of its own, and one inside a trace the
 * sampler left out gets no span (the parent-based sampler would drop it anyway) and costs no work.
 */
export function traceCommands(client: MongoClient): void {
  if (!TRACING) return;
  // The driver numbers requests across the whole process, so the number names one command.
  const open = new Map<number, Span>();
  client.on("commandStarted", (event) => {
    if (!trace.getSpan(context.active())?.isRecording()) return;
    const { name, attributes } = describe(event);
    const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
    // The statement's shape only, never a player id or an amount; set apart from the shared attributes
    // so that they are not copied twice (the SDK copies what it is given).
    span.setAttribute("db.query.text", statementShape(event.command));
    open.set(event.requestId, span);
  });
  client.on("commandSucceeded", (event) => {
    open.get(event.requestId)?.end();
    open.delete(event.requestId);
  });
  client.on("commandFailed", (event) => {
    const span = open.get(event.requestId);
    if (!span) return;
    open.delete(event.requestId);
    span.setStatus({ code: SpanStatusCode.ERROR, message: event.failure.message });
    span.end();
  });
}
