import type { Logger } from "@pokerodds/common";
import express, { type Express, type RequestHandler } from "express";
import { requireAuth } from "./auth/require-auth.js";
import type { TokenVerifier } from "./auth/token-verifier.js";
import { openApiDocument } from "./contract/openapi.js";
import { errorHandler, unknownRoute } from "./http/error-handler.js";
import { optionalJsonBody } from "./http/json-body.js";
import { requestLogging } from "./http/request-logging.js";
import { requestMetrics } from "./http/request-metrics.js";
import { auditRoute } from "./routes/admin.js";
import { healthRoute } from "./routes/health.js";
import { lobbyRoute } from "./routes/lobby.js";
import { bulkRoute, dealRoute } from "./routes/odds.js";
import { playerRoute } from "./routes/players.js";
import { advanceRoute, betRoute, leaveRoute, sitRoute, stateRoute, topUpRoute } from "./routes/tables.js";
import type { HealthProbes, OddsApi, TableApi, WalletApi } from "./services.js";

export interface AppDeps {
  logger: Logger;
  verifyToken: TokenVerifier;
  odds: OddsApi;
  wallet: WalletApi;
  table: TableApi;
  health: HealthProbes;
}

// Answers are per caller and per moment (a fresh shuffle each time): nothing may be cached.
const noStore: RequestHandler = (_req, res, next) => {
  res.set("Cache-Control", "no-store");
  next();
};

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  // Every body differs; hashing a 300 KB bulk answer for an ETag would be wasted work.
  app.set("etag", false);

  const authenticated = requireAuth(deps.verifyToken);
  const document = openApiDocument();

  app.use(requestMetrics);
  app.use(requestLogging(deps.logger));
  app.use(noStore);
  app.get("/api/health", healthRoute(deps.health));
  app.get("/api/openapi.json", (_req, res) => void res.json(document));
  app.post("/api/deal", authenticated, optionalJsonBody, dealRoute(deps.odds));
  app.post("/api/games/bulk", authenticated, optionalJsonBody, bulkRoute(deps.odds));
  app.get("/api/tables", lobbyRoute(deps.table));
  app.get("/api/players/:playerId", authenticated, playerRoute(deps.wallet));
  app.post("/api/tables/:tableId/sit", authenticated, optionalJsonBody, sitRoute(deps.table));
  app.post("/api/tables/:tableId/topup", authenticated, optionalJsonBody, topUpRoute(deps.table));
  app.post("/api/tables/:tableId/bet", authenticated, optionalJsonBody, betRoute(deps.table));
  app.post("/api/tables/:tableId/leave", authenticated, optionalJsonBody, leaveRoute(deps.table));
  app.post("/api/tables/:tableId/advance", authenticated, optionalJsonBody, advanceRoute(deps.table));
  app.get("/api/tables/:tableId/state", authenticated, stateRoute(deps.table));
  app.get("/api/admin/audit", authenticated, auditRoute(deps.wallet, deps.table));
  app.use(unknownRoute);
  app.use(errorHandler);
  return app;
}
