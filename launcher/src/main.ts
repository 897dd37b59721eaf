// `npm start`: the whole stack in one process tree. The stack reads MONGODB_URI, AUTH_*,
// TABLE_COUNT and LOG_LEVEL from this environment itself.
import { envPort, envString } from "@pokerodds/common/config";
import { createLogger } from "@pokerodds/common/logger";
import { resolve } from "node:path";
import { describeExit } from "./child.js";
import { startStack } from "./stack.js";

const logger = createLogger("launcher");
/** decisions.md: a stop signal ends everything within 10 s; this leaves margin for exiting. */
const stopGraceMs = 7000;
const hardLimitMs = 9500;

let port: number;
let dataDir: string;
try {
  port = envPort("PORT", 8080);
  // Absolute, so the gateway finds the same directory whatever its working directory.
  dataDir = resolve(envString("DATA_DIR", "./data"));
} catch (error) {
  logger.error(String(error));
  process.exit(1);
}

const startup = new AbortController();
const starting = startStack({
  port,
  dataDir,
  signal: startup.signal,
  onUnexpectedExit: (name, exit) => {
    logger.error({ child: name }, `${name} ${describeExit(exit)}; stopping everything`);
    void shutdown(1);
  },
});

let stopping = false;
async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  // Children left by a hung stop are SIGKILLed by the exit handler in child.ts.
  setTimeout(() => {
    logger.error("stopping took too long, exiting");
    process.exit(1);
  }, hardLimitMs).unref();
  startup.abort();
  const stack = await starting.catch(() => undefined);
  await stack?.stop(stopGraceMs);
  logger.info("stopped");
  process.exit(code);
}

// SIGHUP too: a closed terminal must not leave the services running.
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  process.on(signal, () => {
    // npm forwards the terminal's Ctrl-C it also received: a repeated signal changes nothing.
    if (!stopping) logger.info({ signal }, "stopping");
    void shutdown(0);
  });
}

try {
  const stack = await starting;
  logger.info(
    {
      url: stack.url,
      database: stack.embeddedDatabase ? stack.mongodbUri : "external, from MONGODB_URI",
      dataDir,
      children: stack.children(),
    },
    `API ready at ${stack.url}/api`,
  );
} catch (error) {
  if (!stopping) {
    logger.error(`the stack did not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
