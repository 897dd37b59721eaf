// The OpenTelemetry SDK of one process: traces only (metrics stay on Prometheus, logs on stdout),
// configured by the standard OTEL_* variables (exporter, endpoint, protocol, service name,
// sampler, batch sizes). Loaded by register.ts only when tracing is on.
//
// No instrumentation patches any module: the gateway starts its HTTP server spans itself
// (http-span.ts), common's gRPC client and server wrappers start every call's spans (grpc-span.ts),
// common's database client every command's (mongodb-span.ts), and common's logger adds the trace
// fields to its lines (log-fields.ts). The http, Express, grpc, mongodb and pino instrumentations
// did the same by wrapping those modules, and cost the state reads a fifth of their throughput
// (bench/tracing.ts).
import { setTracingFlush } from "./flush.js";

/**
 * OTEL_TRACES_EXPORTER=discard (ours, not a standard value): every span is recorded and batched
 * as with a real exporter, then dropped. For measuring what tracing costs a process (bench/).
 */
const DISCARD = "discard";

/** A span exporter that accepts everything and keeps nothing (OTEL_TRACES_EXPORTER=discard). */
async function discardingProcessors() {
  const { BatchSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
  const exporter = {
    export: (_spans: unknown, done: (result: { code: 0 }) => void) => done({ code: 0 }),
    shutdown: () => Promise.resolve(),
  };
  return [new BatchSpanProcessor(exporter)];
}

/** Starts the SDK: the global tracer provider, W3C propagation and the context manager. */
export async function startTracing(): Promise<void> {
  // Traces only, unless told otherwise: metrics are Prometheus' and logs go to stdout.
  process.env.OTEL_METRICS_EXPORTER ??= "none";
  process.env.OTEL_LOGS_EXPORTER ??= "none";
  // W3C trace context only: nothing of ours sets baggage, and the gateway passes none from its
  // callers, so the default baggage propagator would only parse and write nothing on every hop.
  process.env.OTEL_PROPAGATORS ??= "tracecontext";
  const discard = process.env.OTEL_TRACES_EXPORTER?.trim() === DISCARD;
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const sdk = new NodeSDK({
    instrumentations: [],
    ...(discard ? { spanProcessors: await discardingProcessors() } : {}),
  });
  sdk.start();
  setTracingFlush(() => sdk.shutdown());
}
