// The wallet service's environment, read once at start-up: a bad value stops the process.
// The same pattern as every service's config.ts (one interface, one readConfig(env)): alike on purpose.
import { DEFAULT_PORTS } from "@pokerodds/common/stack-layout";
import { envPort } from "@pokerodds/common";
import { readMetricsListen, type MetricsListen } from "@pokerodds/common/metrics";
import { readDatabaseSettings, type DatabaseSettings } from "@pokerodds/common/mongo";

interface WalletServiceConfig {
  grpcPort: number;
  metrics: MetricsListen;
  database: DatabaseSettings;
}

type Env = Record<string, string | undefined>;

export function readConfig(env: Env = process.env): WalletServiceConfig {
  return {
    grpcPort: envPort("GRPC_PORT", DEFAULT_PORTS.wallet, env),
    metrics: readMetricsListen(9466, env),
    database: readDatabaseSettings("wallet", env),
  };
}
