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
    const logger = pino(options()).child({ service });
    logger.fatal(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(level)}`);
    process.exit(1);
  }
  return pino({ ...options(), level: level ?? "info" }).child({ service });
}

const options = () => ({ mixin: traceLogFields, serializers: { err: loggedError } });

/**
 * Fields in which the MongoDB driver's errors carry what was written or answered: a refused insert's
 * documents (`writeErrors[].op`, `result`), the server's whole reply. A table's stored version holds
 * its game's deck and server seed, which no line may show before the game reveals them.
 */
const DOCUMENT_FIELDS = ["writeErrors", "writeConcernError", "result", "errorResponse", "insertedIds", "op"];

/**
 * An error as pino writes it (type, message with its causes', stack, code and its other fields), but
 * DOCUMENT_FIELDS. (pino writes no cause's fields, only its message and stack.)
 */
function loggedError(error: unknown): unknown {
  const serialized: unknown = pino.stdSerializers.err(error as Error);
  if (typeof serialized !== "object" || serialized === null) return serialized;
  return Object.fromEntries(Object.entries(serialized).filter(([key]) => !DOCUMENT_FIELDS.includes(key)));
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
