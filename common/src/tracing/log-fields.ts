// The trace fields of a log line (OpenTelemetry's log correlation: trace_id, span_id, trace_flags),
// added by the logger's mixin itself rather than by the OpenTelemetry pino instrumentation, which
// hooked pino's module through the ES module loader to add the same mixin.
import { context, trace } from "@opentelemetry/api";
import { tracingEnabled } from "./enabled.js";

/** The current span's ids, or nothing outside a span. */
function currentSpanFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { trace_id: traceId, span_id: spanId, trace_flags: traceFlags.toString(16).padStart(2, "0") };
}

/** The mixin of every logger while tracing is on; none while it is off, so a line costs nothing more. */
export const traceLogFields = tracingEnabled() ? currentSpanFields : undefined;
