// Compiled backend processes for integration tests: start one on a port, wait for its health.
// Needs `npx tsc -b` (the services' dist/) first; the database comes from startFerretDB.
import { HealthChecker } from "@pokerodds/common";
import { describeExit, spawnChild, stopChildren, type Child, type Output } from "@pokerodds/launcher/child";
import { freePort } from "@pokerodds/launcher/ports";
import { repoPath } from "@pokerodds/launcher/paths";
import { setTimeout as sleep } from "node:timers/promises";
import { tlsAs, tlsEnv } from "./pki.js";

type BackendName = "odds" | "wallet" | "table";

/** The fully qualified gRPC service each backend reports health for. */
const GRPC_SERVICE: Record<BackendName, string> = {
  odds: "pokerodds.odds.v1.OddsService",
  wallet: "pokerodds.wallet.v1.WalletService",
  table: "pokerodds.table.v1.TableService",
};

/**
 * Starts services/<name>/dist/main.js on 127.0.0.1:port with `env` added to this process's
 * environment (minus NODE_OPTIONS: the compiled server needs no tsx loader, which would only slow
 * its start). LOG_LEVEL defaults to error, METRICS_PORT to 0 (any free port); TLS_* point at the
 * test CA's certificate for `name` (./pki.ts).
 */
export function spawnBackend(
  name: BackendName,
  port: number,
  env: NodeJS.ProcessEnv = {},
  output: Output = "inherit",
): Child {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: "error",
    METRICS_PORT: "0",
    ...tlsEnv(name),
    ...env,
  };
  childEnv.GRPC_PORT = String(port);
  delete childEnv.NODE_OPTIONS;
  return spawnChild(`${name}-${port}`, process.execPath, [repoPath(`services/${name}/dist/main.js`)], {
    env: childEnv,
    output,
  });
}

/**
 * Starts the backend on a free port and waits until it serves. A port is probed free before the
 * child binds it, so another process can take it meanwhile: a child that exits before serving is
 * started again on another port, twice at most.
 */
export async function startBackend(
  name: BackendName,
  env: NodeJS.ProcessEnv = {},
  output: Output = "inherit",
): Promise<{ port: number; child: Child }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawnBackend(name, port, env, output);
    try {
      await waitForHealth(name, port, "SERVING", child);
      return { port, child };
    } catch (error) {
      const exitedEarly = !child.alive();
      await stopChildren([[child]], 2000);
      if (!exitedEarly || attempt === 3) throw error;
    }
  }
}

/**
 * Waits until the backend on `port` reports `wanted` for its service; with its `child`, fails as
 * soon as that process is gone.
 */
export async function waitForHealth(
  name: BackendName,
  port: number,
  wanted: "SERVING" | "NOT_SERVING" = "SERVING",
  child?: Child,
  timeoutMs = 30_000,
): Promise<void> {
  const health = new HealthChecker(`127.0.0.1:${port}`, tlsAs("gateway"), name);
  try {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
      if ((await health.check(GRPC_SERVICE[name])) === wanted) return;
      if (child && !child.alive()) {
        throw new Error(`${name} on port ${port} ${describeExit(await child.exited)} before reporting ${wanted}`);
      }
    }
    throw new Error(`${name} on port ${port} did not report ${wanted} within ${timeoutMs} ms`);
  } finally {
    health.close();
  }
}

/** A gRPC failure's status code (undefined if the call succeeded). */
export async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return (error as { code?: number }).code;
  }
}
