import { pino, type Logger } from "pino";

export type { Logger };

/** JSON lines on stdout, one logger per process, tagged with the service name. */
export function createLogger(service: string): Logger {
  return pino({
    level: process.env.LOG_LEVEL ?? "info",
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
