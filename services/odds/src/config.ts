// The odds service's environment, read once at start-up: a bad value stops the process.
// The same pattern as every service's config.ts (one interface, one readConfig(env)): alike on purpose.
import { DEFAULT_PORTS } from "@pokerodds/common/stack-layout";
import { envInt, envPort } from "@pokerodds/common";
import { readMetricsListen, type MetricsListen } from "@pokerodds/common/metrics";
import { availableParallelism } from "node:os";

interface OddsServiceConfig {
  grpcPort: number;
  metrics: MetricsListen;
  /** Worker threads for what a player waits on: deals and the tables' equity. */
  workers: number;
  /**
   * Niced processes for bulk chunks (pool.ts). One fewer than `workers` by default, at least one:
   * a core is left to the deals and the event loops, which encode and map every chunk's games.
   */
  batchWorkers: number;
  /** Tasks that may wait in a lane before Deal and GenerateBulk are refused (RESOURCE_EXHAUSTED). */
  queueSize: number;
}

/**
 * The old generation of each compute runner (a worker thread, a batch process), in MB. Without it
 * each took half the container's memory as the service's main thread does (Node sizes a worker's heap
 * as its parent's, and a forked process from the container), so their limits together passed the
 * container's, and a runaway task would be killed for memory with the whole pod. Their tasks are
 * small: 16-game bulk chunks (8 times the service's), 6-hand deals and 6-hand exact equities peaked
 * at 15 MB used (a one-off measurement on Node 20).
 */
export const COMPUTE_HEAP_MB = 48;

type Env = Record<string, string | undefined>;

export function readConfig(env: Env = process.env): OddsServiceConfig {
  const workers = envInt("ODDS_WORKERS", availableParallelism(), { min: 1, max: 256 }, env);
  return {
    grpcPort: envPort("GRPC_PORT", DEFAULT_PORTS.odds, env),
    metrics: readMetricsListen(9465, env),
    workers,
    batchWorkers: envInt("ODDS_BATCH_WORKERS", Math.max(1, workers - 1), { min: 1, max: 256 }, env),
    queueSize: envInt("ODDS_QUEUE_SIZE", 256, { min: 1, max: 1_000_000 }, env),
  };
}
