// Our own spans, for the work the automatic instrumentations cannot see (the odds pool's tasks,
// the table's saga steps). Only @opentelemetry/api is loaded: with tracing off its tracer is the
// no-op one, so a span costs a function call.
import { SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";

/** The tracer of every span of our own (tasks, saga steps, HTTP requests, gRPC calls). */
export const tracer = trace.getTracer("pokerodds");

/**
 * Runs `work` inside a span named `name` (a child of the current one); an error thrown by it is
 * recorded on the span and thrown on unchanged.
 */
export function withSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      if (error instanceof Error) span.recordException(error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
