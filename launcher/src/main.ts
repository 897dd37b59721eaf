// `npm start`: the whole stack in one process tree. The stack reads MONGODB_URI, AUTH_*,
// TABLE_COUNT and LOG_LEVEL from this environment itself.
import { dataDirFrom, DEFAULT_PORTS, pidFilePath } from "@pokerodds/common/stack-layout";
import { envPort } from "@pokerodds/common/config";
import { createLogger, logUncaughtErrors } from "@pokerodds/common/logger";
import { lockDataDir } from "./data-dir-lock.js";
import { watchDiskSpace } from "./disk-space.js";
import { pidFile } from "./pid-file.js";
import { readRestartPolicy, Restarter, type RestartPolicy } from "./restarts.js";
import { startStack, type ChildName, type Stack } from "./stack.js";

// Every file the stack writes under DATA_DIR (its children inherit this) is this user's alone.
process.umask(0o077);

const logger = createLogger("launcher");
logUncaughtErrors(logger);
/** decisions.md: a stop signal ends everything within 10 s; this leaves margin for exiting. */
const stopGraceMs = 7000;
const hardLimitMs = 9500;

let port: number;
let dataDir: string;
let policy: RestartPolicy;
let unlockDataDir: () => Promise<void>;
try {
  port = envPort("PORT", DEFAULT_PORTS.gateway);
  // Absolute, so the gateway finds the same directory whatever its working directory.
  dataDir = dataDirFrom();
  policy = readRestartPolicy();
  unlockDataDir = await lockDataDir(dataDir);
} catch (error) {
  logger.error(String(error));
  process.exit(1);
}

const pids = pidFile(pidFilePath(dataDir));
/** Set once the stack is up: restarts and the pid file only ever concern a started stack. */
let stack: Stack | undefined;
const writePids = () => pids.write(stack?.children() ?? [], stack?.grpcAddresses ?? {});

const restarts = new Restarter({
  policy,
  start: async (name) => {
    await stack!.startService(name as ChildName);
    return stack!.children().find((child) => child.name === name)?.pid ?? -1;
  },
  giveUp: () => void shutdown(1),
  restarted: writePids,
  log: logger,
});

const startup = new AbortController();
const starting = startStack({
  port,
  dataDir,
  signal: startup.signal,
  onUnexpectedExit: (name, exit) => {
    restarts.exited(name, exit);
    void writePids();
  },
});

let stopping = false;
async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  // Before anything else: a restart whose delay ends during the stop must not start a process.
  restarts.stop();
  // Children left by a hung stop are SIGKILLed by the exit handler in child.ts.
  setTimeout(() => {
    logger.error("stopping took too long, exiting");
    process.exit(1);
  }, hardLimitMs).unref();
  startup.abort();
  const started = await starting.catch(() => undefined);
  await started?.stop(stopGraceMs);
  await pids.remove();
  await unlockDataDir();
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
  stack = await starting;
  // Before "API ready": whoever reads the log's line finds the pid file written.
  await writePids();
  logger.info(
    {
      url: stack.url,
      database: stack.embeddedDatabase ? stack.mongodbUri : "external, from MONGODB_URI",
      dataDir,
      children: stack.children(),
      // Free ports, picked at each start: said here, so that no child's own line must be found.
      metrics: Object.fromEntries(stack.metricsUrls().map(({ name, url }) => [name, url])),
      pidFile: pids.path,
      restarts: policy,
    },
    `API ready at ${stack.url}/api`,
  );
  // The embedded database's files are under DATA_DIR; an external one's disk is its own to watch.
  if (stack.embeddedDatabase) watchDiskSpace(dataDir, logger);
} catch (error) {
  if (!stopping) {
    logger.error(`the stack did not start: ${error instanceof Error ? error.message : String(error)}`);
    await unlockDataDir();
    process.exit(1);
  }
}
