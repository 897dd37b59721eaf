import type { Logger } from "@pokerodds/common";
import express, { type Express, type RequestHandler } from "express";
import { requireAuth } from "./auth/require-auth.js";
import type { TokenVerifier } from "./auth/token-verifier.js";
import { openApiDocument } from "./contract/openapi.js";
import { errorHandler, unknownRoute } from "./http/error-handler.js";
import { optionalJsonBody } from "./http/json-body.js";
import { requestLogging } from "./http/request-logging.js";
import { healthRoute } from "./routes/health.js";
import { bulkRoute, dealRoute } from "./routes/odds.js";
import type { HealthProbes, OddsApi } from "./services.js";

export interface AppDeps {
  logger: Logger;
  verifyToken: TokenVerifier;
  odds: OddsApi;
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

  app.use(requestLogging(deps.logger));
  app.use(noStore);
  app.get("/api/health", healthRoute(deps.health));
  app.get("/api/openapi.json", (_req, res) => void res.json(document));
  app.post("/api/deal", authenticated, optionalJsonBody, dealRoute(deps.odds));
  app.post("/api/games/bulk", authenticated, optionalJsonBody, bulkRoute(deps.odds));
  app.use(unknownRoute);
  app.use(errorHandler);
  return app;
}
