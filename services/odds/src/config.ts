// The odds service's environment, read once at start-up: a bad value stops the process.
// The same pattern as every service's config.ts (one interface, one readConfig(env)): alike on purpose.
import { envInt, envPort } from "@pokerodds/common";
import { availableParallelism } from "node:os";

export interface OddsServiceConfig {
  grpcPort: number;
  metricsPort: number;
  /** Worker threads for what a player waits on: deals and the tables' equity. */
  workers: number;
  /**
   * Worker threads for bulk chunks. One fewer than `workers` by default (one core left): a bulk batch's
   * threads are niced, but V8's shared helper threads and the encoding of their results are not, so
   * with a chunk on every core the deals waited for a core (p99 34 ms against 21 ms with one
   * chunk thread on 2 cores, while bulk requests ran back to back).
   */
  batchWorkers: number;
  /** Tasks that may wait for a thread before Deal and GenerateBulk are refused (RESOURCE_EXHAUSTED). */
  queueSize: number;
}

type Env = Record<string, string | undefined>;

export function readConfig(env: Env = process.env): OddsServiceConfig {
  const workers = envInt("ODDS_WORKERS", availableParallelism(), { min: 1, max: 256 }, env);
  return {
    grpcPort: envPort("GRPC_PORT", 50051, env),
    metricsPort: envPort("METRICS_PORT", 9465, env),
    workers,
    batchWorkers: envInt("ODDS_BATCH_WORKERS", Math.max(1, workers - 1), { min: 1, max: 256 }, env),
    queueSize: envInt("ODDS_QUEUE_SIZE", 256, { min: 1, max: 1_000_000 }, env),
  };
}
