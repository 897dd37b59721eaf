import { pino, type Logger } from "pino";
import { traceLogFields } from "./tracing/log-fields.js";

export type { Logger };

/**
 * The one field that names a request in every process's lines (the gateway's request log and every
 * service's call log), so the lines of one request join across processes.
 */
export const REQUEST_ID_FIELD = "requestId";

/**
 * JSON lines on stdout, one logger per process, in pino's standard shape (time in epoch
 * milliseconds, pid, hostname) and tagged with the service name; while tracing is on, a line
 * written inside a span carries its trace_id and span_id.
 */
export function createLogger(service: string): Logger {
  return pino({ level: process.env.LOG_LEVEL ?? "info", mixin: traceLogFields }).child({ service });
}

/**
 * An error nothing caught (a port taken at start, a rejection nobody awaited) still ends the process
 * with exit 1 at once, but as a fatal line of the process's log rather than Node's bare text on
 * stderr, so a crash loop's cause can be read where every other line is. (Waiting for a lagging
 * reader to take the line kept a failed process serving, and a stop signal meanwhile exited 0.)
 */
export function logUncaughtErrors(logger: Logger): void {
  process.on("uncaughtException", (error, origin) => {
    logger.fatal({ err: error, origin }, "uncaught error: exiting");
    process.exit(1);
  });
}
