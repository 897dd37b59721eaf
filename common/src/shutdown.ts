import type { Logger } from "./logger.js";
import { flushTracing } from "./tracing/flush.js";

/** A stop that takes longer than this is cut short: the process exits 1. */
const HARD_LIMIT_MS = 8000;

/**
 * Runs `stop` once on SIGTERM or SIGINT and exits; a second signal or a stop that outlives
 * HARD_LIMIT_MS exits at once, so a process manager never waits on a hung shutdown.
 */
export function onShutdownSignal(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, "second signal, exiting now");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, "shutting down");
    setTimeout(() => {
      logger.error("shutdown took too long, exiting");
      process.exit(1);
    }, HARD_LIMIT_MS).unref();
    // The last spans (the shutdown's own included) go out before the process does; a no-op when
    // tracing is off.
    stop()
      .then(() => flushTracing())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", handle);
  process.on("SIGINT", handle);
}
