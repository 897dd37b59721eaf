import type { Role } from "@pokerodds/api/players";
import {
  configOrExit,
  counter,
  createLogger,
  logUncaughtErrors,
  HealthChecker,
  onShutdownSignal,
  startMetricsServer,
  type Logger,
} from "@pokerodds/common";
import { createApp } from "./app.js";
import { signInOrigins } from "./client/routes.js";
import { loadOrCreateDevKey, signDevToken } from "@pokerodds/common/dev-issuer";
import { cachedTokenVerifier, createTokenVerifier, localKeys, remoteKeys } from "./auth/token-verifier.js";
import { connectBackends } from "./backends.js";
import { readBackendTls, readConfig, type AuthSettings, type GatewayConfig } from "./config.js";
import { startHttpServer, type ConnectionCap } from "./http-server.js";
import { readEdgeSettings } from "./http/edge.js";
import { TableFeeds } from "./tables/table-feeds.js";

const DRAIN_MS = 5_000;
/** A development sign-in lasts an hour, like `npm run token`'s default. */
const DEV_SIGN_IN_TTL_S = 3_600;

const logger = createLogger("gateway");
logUncaughtErrors(logger);
const { config, tls, edge } = configOrExit(logger, () => ({
  config: readConfig(),
  tls: readBackendTls(),
  edge: readEdgeSettings(),
}));

const backends = connectBackends({ ...config, tls });
// Each checker expects its backend's own certificate: one redirected to another of our services
// (which holds a certificate from the same CA) cannot answer for it.
const health = {
  odds: new HealthChecker(config.oddsAddress, tls, "odds"),
  wallet: new HealthChecker(config.walletAddress, tls, "wallet"),
  table: new HealthChecker(config.tableAddress, tls, "table"),
};

const tableFeeds = new TableFeeds(backends.tableEvents, logger);
const app = createApp({
  logger,
  edge,
  verifyToken: await tokenVerifierFor(config.auth),
  odds: backends.odds,
  wallet: backends.wallet,
  table: backends.table,
  tableFeeds,
  gameRecords: backends.gameRecords,
  health,
  client: await clientFor(config),
  auditDeadlineMs: config.auditDeadlineMs,
});
const server = await startHttpServer(app, {
  port: config.port,
  host: config.host,
  maxConnections: edge.connections,
  maxConnectionsPerAddress: edge.connectionsPerAddress,
  onDrop: connectionDrops(logger, edge.connections),
});
logger.info({ port: server.port, auth: config.auth.mode, issuer: config.auth.issuer }, "gateway listening");
const metrics = await startMetricsServer(config.metrics, logger);

onShutdownSignal(logger, async () => {
  tableFeeds.close();
  await server.close(DRAIN_MS);
  backends.close();
  for (const checker of Object.values(health)) checker.close();
  await metrics.close();
});

/**
 * Counts the connections dropped at a cap, and says so in the log at most once a minute for the
 * whole server's (one address's is its own doing, not an outage).
 */
function connectionDrops(log: Logger, maxConnections: number) {
  const dropped = counter(
    "gateway_connections_dropped_total",
    "Client connections closed on arrival, by cap: MAX_CONNECTIONS (total) or MAX_CONNECTIONS_PER_ADDRESS (address)",
    ["cap"],
  );
  let warnedAt = 0;
  return (cap: ConnectionCap) => {
    dropped.inc({ cap });
    if (cap !== "total" || Date.now() - warnedAt < 60_000) return;
    warnedAt = Date.now();
    log.warn({ maxConnections }, "connection cap reached: new connections are dropped");
  };
}

async function tokenVerifierFor(auth: AuthSettings) {
  const keys =
    auth.mode === "remote" ? remoteKeys(auth.jwksUrl) : localKeys((await loadOrCreateDevKey(auth.dataDir)).publicJwk);
  return cachedTokenVerifier(createTokenVerifier({ keys, issuer: auth.issuer, audience: auth.audience }));
}

/** The web client's sign-in: OIDC with a real identity provider, else the development issuer's. */
async function clientFor({ auth, webRoot, oidcClientId }: GatewayConfig) {
  if (auth.mode === "remote") {
    if (!oidcClientId) return { webRoot, config: { devSignIn: false } };
    const oidc = { issuer: auth.issuer, clientId: oidcClientId, audience: auth.audience };
    return { webRoot, config: { devSignIn: false, oidc }, signInOrigins: await signInOrigins(auth.issuer, logger) };
  }
  const key = await loadOrCreateDevKey(auth.dataDir);
  const { issuer, audience } = auth;
  const devSign = (playerId: string, role?: Role) =>
    signDevToken(key, { playerId, role, ttlSeconds: DEV_SIGN_IN_TTL_S, issuer, audience });
  return { webRoot, config: { devSignIn: true }, devSign };
}
