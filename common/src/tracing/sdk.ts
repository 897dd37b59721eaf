// The OpenTelemetry SDK of one process: traces only (metrics stay on Prometheus, logs on stdout),
// configured by the standard OTEL_* variables (exporter, endpoint, protocol, service name,
// sampler, batch sizes). Loaded by register.ts only when tracing is on.
import type { Instrumentation } from "@opentelemetry/instrumentation";
import { createAddHookMessageChannel } from "import-in-the-middle";
import { register } from "node:module";
import { setTracingFlush } from "./flush.js";

/**
 * OTEL_TRACES_EXPORTER=discard (ours, not a standard value): every span is recorded and batched
 * as with a real exporter, then dropped. For measuring what tracing costs a process (bench/).
 */
const DISCARD = "discard";

/** The instrumentations, created (which hooks their modules) before the SDK is imported. */
async function instrumentations(): Promise<Instrumentation[]> {
  const pino = await import("@opentelemetry/instrumentation-pino");
  return [
    // No http, Express, grpc or mongodb instrumentation: the gateway starts its HTTP server spans
    // itself (http-span.ts), common's gRPC client and server wrappers start every call's spans
    // (grpc-span.ts), and common's database client every command's (mongodb-span.ts), each at a
    // fraction of the instrumentation's cost per call.
    // trace_id and span_id in every log line; the lines themselves stay on stdout.
    new pino.PinoInstrumentation({ disableLogSending: true }),
  ];
}

/** A span exporter that accepts everything and keeps nothing (OTEL_TRACES_EXPORTER=discard). */
async function discardingProcessors() {
  const { BatchSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
  const exporter = {
    export: (_spans: unknown, done: (result: { code: 0 }) => void) => done({ code: 0 }),
    shutdown: () => Promise.resolve(),
  };
  return [new BatchSpanProcessor(exporter)];
}

/** Registers the ES module loader hook, hooks the instrumented modules and starts the SDK. */
export async function startTracing(): Promise<void> {
  // Only the modules an instrumentation asked for are wrapped (not every module of the process),
  // and the entry point waits until the loader thread knows them all.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register("import-in-the-middle/hook.mjs", import.meta.url, registerOptions);

  const hooked = await instrumentations();
  // Traces only, unless told otherwise: metrics are Prometheus' and logs go to stdout.
  process.env.OTEL_METRICS_EXPORTER ??= "none";
  process.env.OTEL_LOGS_EXPORTER ??= "none";
  const discard = process.env.OTEL_TRACES_EXPORTER?.trim() === DISCARD;
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const sdk = new NodeSDK({
    instrumentations: hooked,
    ...(discard ? { spanProcessors: await discardingProcessors() } : {}),
  });
  sdk.start();
  setTracingFlush(() => sdk.shutdown());
  await waitForAllMessagesAcknowledged();
}
