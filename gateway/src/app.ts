import { adminApi } from "@pokerodds/api/admin";
import { clientApi, devSignInApi, type ClientConfigBody } from "@pokerodds/api/client";
import { gameRecordsApi } from "@pokerodds/api/game-records";
import { openApiPart } from "@pokerodds/api/document";
import { healthApi } from "@pokerodds/api/health";
import { oddsApi } from "@pokerodds/api/odds";
import { playersApi } from "@pokerodds/api/players";
import { tableEventsApi } from "@pokerodds/api/table-events";
import { lobbyApi, tablesApi } from "@pokerodds/api/tables";
import type { Logger } from "@pokerodds/common";
import express, { type Express, type RequestHandler } from "express";
import { gameRecordRoutes } from "./admin/games.js";
import { AUDIT_DEADLINE_MS } from "@pokerodds/audit";
import { adminRoutes } from "./admin/routes.js";
import { requireAuth } from "./auth/caller.js";
import { clientConfigRoutes, devSignInRoutes, webAssets, type DevSigner } from "./client/routes.js";
import type { TokenVerifier } from "./auth/token-verifier.js";
import { healthRoutes } from "./health/routes.js";
import {
  corsFor,
  heavyCap,
  historyReadBudget,
  perIpLimit,
  perPlayerLimit,
  readEdgeSettings,
  securityHeaders,
  type EdgeSettings,
} from "./http/edge.js";
import { errorHandler, unknownRoute } from "./http/errors.js";
import { operationMounter } from "./http/mount.js";
import { requestId, requestLogging, requestMetrics, traceRequests } from "./http/request.js";
import { oddsRoutes } from "./odds/routes.js";
import { openApiRoutes } from "./openapi/routes.js";
import { playerRoutes } from "./players/routes.js";
import { lobbyRoutes } from "./tables/lobby.js";
import { tableEventRoutes } from "./tables/events.js";
import type { TableFeeds } from "./tables/table-feeds.js";
import { tableRoutes } from "./tables/routes.js";
import type { GameRecordsApi, HealthProbes, OddsApi, TableApi, WalletApi } from "./services.js";

export interface AppDeps {
  logger: Logger;
  verifyToken: TokenVerifier;
  odds: OddsApi;
  wallet: WalletApi;
  table: TableApi;
  /** The tables this gateway follows, for GET /api/tables/{tableId}/events; without them that route answers 503. */
  tableFeeds?: TableFeeds;
  /** GET /api/admin/games; without it that route answers 503. */
  gameRecords?: GameRecordsApi;
  health: HealthProbes;
  /**
   * The web client: its files, its sign-in config, the development signer while that issuer is on,
   * and the origins its OIDC sign-in connects to (signInOrigins in client/routes.ts).
   */
  client?: { webRoot: string; config: ClientConfigBody; devSign?: DevSigner; signInOrigins?: string[] };
  /** GET /api/admin/audit's deadline, every reading included (AUDIT_DEADLINE_MS when absent). */
  auditDeadlineMs?: number;
  /** CORS, rate limits and the heavy-route cap; read from the environment when absent. */
  edge?: EdgeSettings;
}

// Answers are per caller and per moment (a fresh shuffle each time): nothing may be cached.
const noStore: RequestHandler = (_req, res, next) => {
  res.set("Cache-Control", "no-store");
  next();
};

export function createApp(deps: AppDeps): Express {
  const edge = deps.edge ?? readEdgeSettings();
  const app = express();
  app.disable("x-powered-by");
  // Every body differs; hashing a 300 KB bulk answer for an ETag would be wasted work.
  app.set("etag", false);
  // Paths are exact: /API/TABLES and /api/tables/ are not /api/tables.
  app.set("case sensitive routing", true);
  app.set("strict routing", true);
  if (edge.trustProxyHops > 0) app.set("trust proxy", edge.trustProxyHops);

  // Each operation: the token checked first unless public (then the player's rate limit), then its
  // body parsed if it takes one, then its handler, inside the heavy-route cap if heavy.
  const { mount, finish } = operationMounter(app, {
    authenticated: [requireAuth(deps.verifyToken), perPlayerLimit(edge)],
    heavy: heavyCap(edge),
  });

  app.use(requestId);
  app.use(requestMetrics);
  app.use(securityHeaders());
  const cors = corsFor(edge.corsOrigins);
  if (cors) app.use(cors.headers);
  app.use(noStore);
  // Before the log line: an address over its limit is refused as cheaply as can be (its refusals
  // are counted by the request metrics, and a 429 is never logged line by line anyway).
  app.use(perIpLimit(edge));
  if (cors) app.use(cors.endPreflight);
  // After the per-address limit, so that a flood's refusals cost no spans; before everything else,
  // the request's log line included, so that it runs inside the request's span.
  const tracing = traceRequests();
  if (tracing) app.use(tracing);
  app.use(requestLogging(deps.logger));
  mount(healthApi, healthRoutes(deps.health, deps.logger));
  mount(openApiPart, openApiRoutes());
  mount(lobbyApi, lobbyRoutes(deps.table));
  const spendHistoryReads = historyReadBudget(edge);
  mount(playersApi, playerRoutes(deps.wallet, deps.table, spendHistoryReads));
  mount(tablesApi, tableRoutes(deps.table, spendHistoryReads));
  mount(tableEventsApi, tableEventRoutes(deps.table, deps.tableFeeds, edge));
  mount(oddsApi, oddsRoutes(deps.odds));
  mount(adminApi, adminRoutes(deps.wallet, deps.table, deps.auditDeadlineMs ?? AUDIT_DEADLINE_MS));
  mount(gameRecordsApi, gameRecordRoutes(deps.gameRecords));
  mountClient(app, mount, deps.client);
  finish();
  app.use(unknownRoute);
  app.use(errorHandler);
  return app;
}

/** The web client's config route, the development sign-in while that issuer is on, and its files at `/`. */
function mountClient(app: Express, mount: ReturnType<typeof operationMounter>["mount"], client: AppDeps["client"]) {
  mount(clientApi, clientConfigRoutes(client?.config ?? { devSignIn: false }));
  if (!client) return;
  if (client.devSign) mount(devSignInApi, devSignInRoutes(client.devSign));
  const assets = webAssets(client.webRoot, client.signInOrigins ?? []);
  if (assets) app.use(assets);
}
