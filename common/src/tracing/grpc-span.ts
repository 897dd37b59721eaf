// The spans of every gRPC call, both ends, started by common's own client and server wrappers
// (client.ts, handler.ts, stream.ts) rather than the OpenTelemetry grpc instrumentation: that one
// patched every client method and every served call (a shimmer wrap of each call's sendMetadata,
// a bound callback, a metadata listener) and cost about a tenth of the state reads' throughput
// (bench/tracing.ts). The W3C trace context travels in each call's metadata; span names and
// attributes follow the RPC semantic conventions, as the instrumentation's did.
import type { Metadata } from "@grpc/grpc-js";
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from "@opentelemetry/api";
import { tracer } from "./span.js";
import { tracingEnabled } from "./enabled.js";

/** Decided once: with tracing off a call pays one branch, not even the no-op API. */
const TRACING = tracingEnabled();

const STATUS_OK = 0;
/** gRPC status codes that mean a server failed, not that it refused (OpenTelemetry's RPC conventions). */
const SERVER_FAULTS = new Set([2, 4, 12, 13, 14, 15]); // UNKNOWN, DEADLINE_EXCEEDED, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS

const setter: TextMapSetter<Metadata> = { set: (metadata, key, value) => metadata.set(key, value) };
const getter: TextMapGetter<Metadata> = {
  get: (metadata, key) => {
    const values = metadata.get(key);
    return values.length === 0 ? undefined : values.map(String);
  },
  keys: (metadata) => Object.keys(metadata.getMap()),
};

/** A call's span and which end it is, or none while tracing is off. */
export type RpcSpan = { span: Span; server: boolean } | undefined;

/** Each method's span name and attributes, worked out once: a process calls and serves a few dozen. */
const described = new Map<string, { name: string; attributes: Record<string, string> }>();

/** "/pokerodds.table.v1.TableService/Sit" -> "grpc.pokerodds.table.v1.TableService/Sit" and its attributes. */
function describe(path: string) {
  let description = described.get(path);
  if (!description) {
    const [, service = "", method = ""] = path.split("/");
    description = {
      name: `grpc.${service}/${method}`,
      attributes: { "rpc.system": "grpc", "rpc.service": service, "rpc.method": method },
    };
    described.set(path, description);
  }
  return description;
}

/** Starts the client span of a call to `path` and puts its context into the call's metadata. */
export function startClientSpan(path: string, metadata: Metadata): RpcSpan {
  if (!TRACING) return undefined;
  const { name, attributes } = describe(path);
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
  propagation.inject(trace.setSpan(context.active(), span), metadata, setter);
  return { span, server: false };
}

/**
 * Runs a served call inside its server span, a child of the caller's context from the metadata; the
 * span is handed to `work`, which ends it with endRpcSpan when the call is answered.
 */
export function inServerSpan<T>(path: string, metadata: Metadata, work: (span: RpcSpan) => T): T {
  if (!TRACING) return work(undefined);
  const { name, attributes } = describe(path);
  const parent = propagation.extract(ROOT_CONTEXT, metadata, getter);
  const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
  return context.with(trace.setSpan(parent, span), () => work({ span, server: true }));
}

/** Ends a call's span with its gRPC status code: any failure on a client span, a server fault on a server span. */
export function endRpcSpan(rpc: RpcSpan, code: number, message?: string): void {
  if (!rpc) return;
  rpc.span.setAttribute("rpc.grpc.status_code", code);
  if (code !== STATUS_OK && (!rpc.server || SERVER_FAULTS.has(code))) {
    rpc.span.setStatus({ code: SpanStatusCode.ERROR, message });
  }
  rpc.span.end();
}
