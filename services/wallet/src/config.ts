// The wallet service's environment, read once at start-up: a bad value stops the process.
// The same pattern as every service's config.ts (one interface, one readConfig(env)): alike on purpose.
import { DEFAULT_PORTS } from "@pokerodds/common/stack-layout";
import { envFlag, envPort, envString } from "@pokerodds/common";

interface WalletServiceConfig {
  grpcPort: number;
  metricsPort: number;
  mongodbUri: string;
  mongodbDatabase: string;
  /** MONGODB_ALLOW_PLAINTEXT=1: a database on another machine without TLS (a private network). */
  mongodbAllowPlaintext: boolean;
}

type Env = Record<string, string | undefined>;

export function readConfig(env: Env = process.env): WalletServiceConfig {
  return {
    grpcPort: envPort("GRPC_PORT", DEFAULT_PORTS.wallet, env),
    metricsPort: envPort("METRICS_PORT", 9466, env),
    mongodbUri: envString("MONGODB_URI", "mongodb://127.0.0.1:27017/", env),
    mongodbDatabase: envString("MONGODB_DATABASE", "wallet", env),
    mongodbAllowPlaintext: envFlag("MONGODB_ALLOW_PLAINTEXT", env),
  };
}
