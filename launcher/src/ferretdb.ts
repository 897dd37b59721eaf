import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { describeExit, spawnChild, stopChildren, type Child, type Output } from "./child.js";
import { repoPath } from "./paths.js";

/** Built by `npm run build:db` (launcher/build-ferretdb.mjs). */
export const ferretdbBinary = repoPath(".cache/ferretdb/ferretdb");

export interface FerretDB {
  /** Ready for the MongoDB driver, with retryWrites=false: FerretDB would apply a retried write twice. */
  uri: string;
  /** Its Unix socket, in its data directory (main.go says why not TCP). */
  socketPath: string;
  child: Child;
  stop(graceMs?: number): Promise<void>;
}

interface FerretDBOptions {
  /** Directory for the SQLite files and the socket; created if missing, and kept to this user. */
  dataDir: string;
  output?: Output;
}

/** How long the embedded database may take to accept connections. */
const READY_TIMEOUT_MS = 10_000;

/** The longest path a Unix socket may have on Linux (sun_path holds 108 bytes with its NUL). */
const SOCKET_PATH_MAX_BYTES = 107;

/** Starts the embedded database and resolves once it accepts connections. */
export async function startFerretDB(options: FerretDBOptions): Promise<FerretDB> {
  const dataDir = resolve(options.dataDir);
  const socketPath = join(dataDir, "ferretdb.sock");
  if (Buffer.byteLength(socketPath) > SOCKET_PATH_MAX_BYTES) {
    throw new Error(`the database's socket ${socketPath} is longer than a Unix socket may be: use a shorter DATA_DIR`);
  }
  const child = spawnChild("db", ferretdbBinary, ["-data", dataDir], {
    env: process.env,
    output: options.output ?? "inherit",
    pipeStdout: true,
  });
  // Its only stdout line is the ready line: {"socket":"<dataDir>/ferretdb.sock"}.
  const ready = new Promise<string>((resolve) =>
    createInterface({ input: child.process.stdout! }).once("line", resolve),
  );
  const timeout = sleep(READY_TIMEOUT_MS, "timeout" as const, { ref: false });
  const outcome = await Promise.race([ready, child.exited, timeout]);
  if (outcome === "timeout") {
    await stopChildren([[child]], 0);
    throw new Error(`the embedded database did not get ready within ${READY_TIMEOUT_MS} ms, so it was killed`);
  }
  if (typeof outcome !== "string") {
    const hint = outcome.error ? " (run `npm run build:db` first)" : "";
    throw new Error(`the embedded database ${describeExit(outcome)}${hint}`);
  }
  const uri = `mongodb://${encodeURIComponent(socketPath)}/?retryWrites=false`;
  return { uri, socketPath, child, stop: (graceMs = 5000) => stopChildren([[child]], graceMs) };
}
