// The real stack (compiled services, embedded database) for whole-stack tests: run `npm run build` first.
//
//   test("...", async (t) => {
//     const stack = await useTestStack(t);
//     const response = await fetch(`${stack.url}/api/health`);
//   });
//
// or once per file: `test.before(async (t) => { t.context.stack = await startTestStack(); })` and
// `test.after.always((t) => t.context.stack.stop())`.
import { startStack, type Stack, type StackOptions } from "@pokerodds/launcher/stack";
import type { ExecutionContext, TestFn } from "ava";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface TestStackOptions {
  /** Added to the children's environment, e.g. { TABLE_COUNT: "2" }. */
  env?: NodeJS.ProcessEnv;
  readyTimeoutMs?: number;
  /** Processes per backend service, e.g. { wallet: 2, table: 2 } (default 1 each). */
  replicas?: StackOptions["replicas"];
  /** The data directory of a stack stopped with keepData, to start on its database again (default: a fresh one). */
  dataDir?: string;
}

export interface TestStack extends Omit<Stack, "stop"> {
  /** Fresh for this stack unless options.dataDir named one: the embedded database, the development issuer's key, stack.log. */
  dataDir: string;
  /** Every child's stdout and stderr. */
  logFile: string;
  logTail(lines?: number): Promise<string>;
  /** Stops every process, then removes dataDir unless asked to keep it. Safe to call twice. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

// Tests are hermetic: no MongoDB, identity provider or tsx loader leaks in from the developer's shell.
const notInherited = ["NODE_OPTIONS", "MONGODB_URI", "AUTH_JWKS_URL", "AUTH_ISSUER", "AUTH_AUDIENCE", "TABLE_COUNT"];

/** Every limit of the gateway's edge off: a test's or a bench's clients share one address and send quickly. */
export const NO_LIMITS = {
  RATE_LIMIT_PER_IP: "0",
  RATE_LIMIT_PER_PLAYER: "0",
  HISTORY_READS_PER_PLAYER: "0",
  HISTORY_READS_PER_ADDRESS: "0",
  BULK_MAX_CONCURRENT: "0",
  BULK_MAX_CONCURRENT_PER_PLAYER: "0",
  BULK_MAX_CONCURRENT_PER_ADDRESS: "0",
  MAX_CONNECTIONS_PER_ADDRESS: "0",
};

/**
 * A stack on free ports. Ports are picked free and then bound by the child processes, so a test
 * file starting another stack in parallel can take one in between (EADDRINUSE): such a start is
 * tried again once, on new ports; any other failure is the test's.
 */
export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  try {
    return await startTestStackOnce(options);
  } catch (error) {
    if (!String((error as Error).message).includes("EADDRINUSE")) throw error;
    return startTestStackOnce(options);
  }
}

async function startTestStackOnce(options: TestStackOptions): Promise<TestStack> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "pokerodds-stack-")));
  const logFile = join(dataDir, "stack.log");
  const log = await open(logFile, "a");
  const env = { ...process.env };
  for (const name of notInherited) delete env[name];
  // Every test client is one address and a few players: the gateway's limits apply only where a
  // test sets them (RATE_LIMIT_*, BULK_MAX_CONCURRENT in options.env).
  Object.assign(env, NO_LIMITS, options.env);
  const logTail = async (lines = 80) =>
    (await readFile(logFile, "utf8"))
      .split("\n")
      .slice(-lines - 1)
      .join("\n");

  let stack: Stack;
  try {
    stack = await startStack({
      port: 0,
      dataDir,
      env,
      output: log.fd,
      readyTimeoutMs: options.readyTimeoutMs,
      replicas: options.replicas,
    });
  } catch (error) {
    await log.close();
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`the test stack did not start: ${message}\n--- last lines of ${logFile} ---\n${await logTail()}`);
  }

  return {
    ...stack,
    dataDir,
    logFile,
    logTail,
    stop: async ({ keepData = false } = {}) => {
      await stack.stop();
      await log.close().catch(() => {}); // already closed by an earlier stop
      if (!keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** startTestStack, stopped when the test ends; a failed test keeps its data and logs the output's tail. */
export async function useTestStack(t: ExecutionContext, options?: TestStackOptions): Promise<TestStack> {
  const stack = await startTestStack(options);
  t.teardown(async () => {
    if (!t.passed) t.log(`stack output (${stack.logFile}):\n${await stack.logTail()}`);
    await stack.stop({ keepData: !t.passed });
  });
  return stack;
}

/**
 * One stack for a whole test file: started before its first test, stopped after its last. When any
 * test failed, the data is kept and the output's tail logged. Tests read `.stack`; the file's own
 * before hooks, which ava may run alongside this one, await `.ready`.
 */
export function stackPerFile(
  test: TestFn,
  options?: TestStackOptions,
): { readonly stack: TestStack; readonly ready: Promise<TestStack> } {
  let started: TestStack | undefined;
  let failed = false;
  const ready = startTestStack(options).then((stack) => (started = stack));
  ready.catch(() => {}); // reported by the before hook below
  test.before(async () => {
    await ready;
  });
  test.afterEach.always((t) => {
    failed ||= !t.passed;
  });
  test.after.always(async (t) => {
    const stack = started ?? (await ready.catch(() => undefined));
    if (!stack) return;
    if (failed) t.log(`stack output (${stack.logFile}, kept):\n${await stack.logTail(40)}`);
    await stack.stop({ keepData: failed });
  });
  return {
    get stack() {
      if (!started) throw new Error("the file's stack has not started");
      return started;
    },
    ready,
  };
}
