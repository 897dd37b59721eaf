import type { Logger } from "@pokerodds/common";
import express, { type Express, type RequestHandler } from "express";
import { adminApi } from "./admin/openapi.js";
import { adminRoutes } from "./admin/routes.js";
import { requireAuth } from "./auth/require-auth.js";
import type { TokenVerifier } from "./auth/token-verifier.js";
import { healthApi } from "./health/openapi.js";
import { healthRoutes } from "./health/routes.js";
import {
  concurrencyCap,
  corsFor,
  perIpLimit,
  perPlayerLimit,
  readEdgeSettings,
  securityHeaders,
  type EdgeSettings,
} from "./http/edge.js";
import { errorHandler, methodNotAllowed, unknownRoute } from "./http/error-handler.js";
import { optionalJsonBody } from "./http/json-body.js";
import { requestLogging } from "./http/request-logging.js";
import { requestMetrics } from "./http/request-metrics.js";
import { oddsApi } from "./odds/openapi.js";
import { oddsRoutes } from "./odds/routes.js";
import { openApiPart, openApiRoutes } from "./openapi/document.js";
import type { ApiPart, Handlers } from "./openapi/operation.js";
import { playersApi } from "./players/openapi.js";
import { playerRoutes } from "./players/routes.js";
import { lobbyRoutes } from "./tables/lobby.js";
import { lobbyApi, tablesApi } from "./tables/openapi.js";
import { tableRoutes } from "./tables/routes.js";
import type { HealthProbes, OddsApi, TableApi, WalletApi } from "./services.js";

export interface AppDeps {
  logger: Logger;
  verifyToken: TokenVerifier;
  odds: OddsApi;
  wallet: WalletApi;
  table: TableApi;
  health: HealthProbes;
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

  const authenticated = [requireAuth(deps.verifyToken), perPlayerLimit(edge)];
  const heavy = concurrencyCap(edge.heavyConcurrency);
  /** The methods of each path, for the 405s. */
  const methods = new Map<string, string[]>();
  /**
   * Each operation at its path: the token checked first unless public (then the player's rate
   * limit), the heavy-route cap if heavy, then its body parsed if it takes one.
   */
  const mount = <Part extends ApiPart>(part: Part, handlers: Handlers<Part>) => {
    for (const [operationId, op] of Object.entries(part.operations)) {
      const before = [
        ...(op.isPublic ? [] : authenticated),
        ...(op.heavy ? [heavy] : []),
        ...(op.body ? [optionalJsonBody] : []),
      ];
      const path = op.path.replace(/\{(\w+)\}/g, ":$1");
      app[op.method](path, ...before, handlers[operationId as keyof Handlers<Part>]);
      methods.set(path, [...(methods.get(path) ?? []), op.method.toUpperCase()]);
    }
  };

  app.use(requestMetrics);
  app.use(requestLogging(deps.logger));
  app.use(securityHeaders());
  const corsHandler = corsFor(edge.corsOrigins);
  if (corsHandler) app.use(corsHandler);
  app.use(noStore);
  app.use(perIpLimit(edge));
  mount(healthApi, healthRoutes(deps.health));
  mount(openApiPart, openApiRoutes());
  mount(lobbyApi, lobbyRoutes(deps.table));
  mount(playersApi, playerRoutes(deps.wallet));
  mount(tablesApi, tableRoutes(deps.table));
  mount(oddsApi, oddsRoutes(deps.odds));
  mount(adminApi, adminRoutes(deps.wallet, deps.table));
  for (const [path, allowed] of methods) app.all(path, methodNotAllowed(allowed));
  app.use(unknownRoute);
  app.use(errorHandler);
  return app;
}
