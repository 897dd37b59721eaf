import { pino, type Logger } from "pino";
import { envOptional } from "./config.js";
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
  const level = envOptional("LOG_LEVEL");
  if (level !== undefined && !LOG_LEVELS.includes(level.toLowerCase())) {
    // Before any configuration is read: said as configOrExit says a bad value, in the log, exit 1.
    const logger = pino({ mixin: traceLogFields }).child({ service });
    logger.fatal(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(level)}`);
    process.exit(1);
  }
  return pino({ level: level ?? "info", mixin: traceLogFields }).child({ service });
}

/**
 * LOG_LEVEL's values (unset or empty: info), pino's, in any case as pino reads them: an empty one was passed on to pino as a level
 * and every process stopped at start with "default level: must be included in custom levels".
 */
export const LOG_LEVELS = [...Object.keys(pino.levels.values), "silent"];

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
