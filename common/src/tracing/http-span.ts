// The gateway's HTTP server span, started by the gateway's own middleware rather than the
// OpenTelemetry http instrumentation: that one patches Node's http module and binds every request's
// and response's listeners to the trace context, which cost a fifth of the state reads' throughput
// (bench/tracing.ts). The span is named after the route.
//
// The caller is untrusted (the API is public): its W3C traceparent, if any, is a link of a new trace,
// never its parent, so a client can neither pick a trace id (mixing its spans into another request's
// trace) nor have its requests recorded past the sampler by sending a sampled flag. This is
// OpenTelemetry's advice for a public boundary; the caller finds its request's trace by the link.
import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from "@opentelemetry/api";
import { tracer } from "./span.js";
import type { IncomingHttpHeaders } from "node:http";

/** The headers the configured propagator reads (W3C's traceparent and tracestate by default), looked up once. */
let contextFields: string[] | undefined;
const sendsContext = (headers: IncomingHttpHeaders): boolean =>
  (contextFields ??= propagation.fields()).some((field) => headers[field] !== undefined);

/** A request's span, the root of a new trace, and the context to run the request in (the span is its active one). */
export function startHttpServerSpan(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
): { span: Span; context: Context } {
  // Most callers send none: the propagator's parsing is skipped then.
  const caller = sendsContext(headers) ? trace.getSpanContext(propagation.extract(ROOT_CONTEXT, headers)) : undefined;
  // The parent context is the empty one, so the span is a root without `root: true` (which would
  // make the SDK copy that empty context to delete a span it does not hold).
  const span = tracer.startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: { "http.request.method": method, "url.path": path },
      links: caller && isSpanContextValid(caller) ? [{ context: caller }] : [],
    },
    ROOT_CONTEXT,
  );
  return { span, context: trace.setSpan(ROOT_CONTEXT, span) };
}

/** Ends a request's span with its status code; a 5xx is an error. */
export function endHttpServerSpan(span: Span, statusCode: number): void {
  span.setAttribute("http.response.status_code", statusCode);
  if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Names the current request's span after its route template (never the URL, which holds ids). */
export function setHttpRoute(method: string, route: string): void {
  const span = trace.getSpan(context.active());
  if (!span) return;
  span.updateName(`${method} ${route}`);
  span.setAttribute("http.route", route);
}
