// The odds service's environment, read once at start-up: a bad value stops the process.
// The same pattern as every service's config.ts (one interface, one readConfig(env)): alike on purpose.
import { envInt, envPort } from "@pokerodds/common";
import { availableParallelism } from "node:os";

export interface OddsServiceConfig {
  grpcPort: number;
  metricsPort: number;
  /** Worker threads for equity work. */
  workers: number;
  /** Tasks that may wait for a thread before Deal and GenerateBulk are refused (RESOURCE_EXHAUSTED). */
  queueSize: number;
}

type Env = Record<string, string | undefined>;

export function readConfig(env: Env = process.env): OddsServiceConfig {
  return {
    grpcPort: envPort("GRPC_PORT", 50051, env),
    metricsPort: envPort("METRICS_PORT", 9465, env),
    workers: envInt("ODDS_WORKERS", availableParallelism(), { min: 1, max: 256 }, env),
    queueSize: envInt("ODDS_QUEUE_SIZE", 256, { min: 1, max: 1_000_000 }, env),
  };
}
