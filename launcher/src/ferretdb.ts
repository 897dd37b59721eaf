import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { describeExit, spawnChild, stopChildren, type Child, type Output } from "./child.js";
import { repoPath } from "./paths.js";

/** Built by `npm run build:db` (launcher/build-ferretdb.mjs). */
export const ferretdbBinary = repoPath(".cache/ferretdb/ferretdb");

export interface FerretDB {
  /** Ready for the MongoDB driver, with retryWrites=false: FerretDB would apply a retried write twice. */
  uri: string;
  port: number;
  child: Child;
  stop(graceMs?: number): Promise<void>;
}

export interface FerretDBOptions {
  /** Directory for the SQLite files; created if missing. */
  dataDir: string;
  /** Loopback port to listen on; 0 (the default) lets the OS pick a free one. */
  port?: number;
  output?: Output;
  timeoutMs?: number;
}

/** Starts the embedded database and resolves once it accepts connections. */
export async function startFerretDB(options: FerretDBOptions): Promise<FerretDB> {
  const child = spawnChild(
    "db",
    ferretdbBinary,
    ["-listen", `127.0.0.1:${options.port ?? 0}`, "-data", options.dataDir],
    {
      env: process.env,
      output: options.output ?? "inherit",
      pipeStdout: true,
    },
  );
  // Its only stdout line is the ready line: {"uri":"mongodb://127.0.0.1:<port>/"}.
  const ready = new Promise<string>((resolve) =>
    createInterface({ input: child.process.stdout! }).once("line", resolve),
  );
  const timeoutMs = options.timeoutMs ?? 10_000;
  const timeout = sleep(timeoutMs, "timeout" as const, { ref: false });
  const outcome = await Promise.race([ready, child.exited, timeout]);
  if (outcome === "timeout") {
    await stopChildren([[child]], 0);
    throw new Error(`the embedded database did not get ready within ${timeoutMs} ms`);
  }
  if (typeof outcome !== "string") {
    const hint = outcome.error ? " (run `npm run build:db` first)" : "";
    throw new Error(`the embedded database ${describeExit(outcome)}${hint}`);
  }
  const uri = new URL((JSON.parse(outcome) as { uri: string }).uri);
  uri.searchParams.set("retryWrites", "false");
  return { uri: uri.href, port: Number(uri.port), child, stop: (graceMs = 5000) => stopChildren([[child]], graceMs) };
}
