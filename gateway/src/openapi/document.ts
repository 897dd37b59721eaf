// The OpenAPI 3.1 description of the whole public API, assembled from each feature's part (its
// operations and the schemas they name). The schemas are the ones that validate requests, and the app
// mounts every route from the same operations, so the document cannot drift from what the gateway does.
import { adminApi } from "../admin/openapi.js";
import { ErrorBody } from "../contract/error-body.js";
import { healthApi } from "../health/openapi.js";
import { oddsApi } from "../odds/openapi.js";
import { playersApi } from "../players/openapi.js";
import { lobbyApi, tablesApi } from "../tables/openapi.js";
import { apiPart, errorResponses, pathsOf, requestIdParameter, TAGS, type Handlers } from "./operation.js";

/** GET /api/openapi.json, the document's own part. */
export const openApiPart = apiPart(
  "meta",
  {},
  {
    getOpenApi: {
      method: "get",
      path: "/api/openapi.json",
      summary: "This document",
      isPublic: true,
      ok: { type: "object" },
    },
  },
);

// Paths and schemas each in the order the document has always had, so that its JSON stays the same
// byte for byte (test/fixtures/openapi.json).
export function openApiDocument() {
  return {
    openapi: "3.1.0",
    info: {
      title: "Poker odds table game",
      version: "0.4.0",
      description:
        "Player-versus-house poker odds game. Money amounts are JSON numbers in units with at most 2 decimal places.",
    },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    tags: TAGS.map((name) => ({ name })),
    paths: pathsOf([healthApi, openApiPart, lobbyApi, playersApi, tablesApi, oddsApi, adminApi]),
    components: {
      schemas: {
        ErrorBody,
        ...healthApi.schemas,
        ...oddsApi.schemas,
        ...lobbyApi.schemas,
        ...playersApi.schemas,
        ...tablesApi.schemas,
        ...adminApi.schemas,
      },
      responses: errorResponses(),
      parameters: { XRequestId: requestIdParameter },
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "Access token of the identity provider",
        },
      },
    },
  };
}

export function openApiRoutes(): Handlers<typeof openApiPart> {
  const document = openApiDocument();
  return { getOpenApi: (_req, res) => void res.json(document) };
}
