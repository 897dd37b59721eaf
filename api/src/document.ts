// The OpenAPI 3.1 description of the whole public API, assembled from each feature's part (its
// operations and the schemas they name). The schemas are the ones that validate requests, and the app
// mounts every route from the same operations, so the document cannot drift from what the gateway does.
import { Type } from "@sinclair/typebox";
import { adminApi } from "./admin.js";
import { clientApi } from "./client.js";
import { gameRecordsApi } from "./game-records.js";
import { healthApi } from "./health.js";
import { oddsApi } from "./odds.js";
import { apiPart, errorResponses, pathsOf, requestIdParameter, TAGS } from "./operation.js";
import { playersApi } from "./players.js";
import { tableEventsApi } from "./table-events.js";
import { lobbyApi, tablesApi } from "./tables.js";

/** Every error answer's body. */
const ErrorBody = Type.Object(
  { error: Type.String({ description: "Human-readable message" }) },
  { additionalProperties: false },
);

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
      example: { ok: { openapi: "3.1.0", info: { title: "Poker odds table game" }, paths: {} } },
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
      version: "0.6.0",
      description:
        "Player-versus-house poker odds game. Money amounts are JSON numbers in units with at most 2 decimal places.",
    },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    tags: TAGS.map((name) => ({ name })),
    paths: pathsOf([
      healthApi,
      openApiPart,
      clientApi,
      lobbyApi,
      playersApi,
      tablesApi,
      tableEventsApi,
      oddsApi,
      adminApi,
      gameRecordsApi,
    ]),
    components: {
      schemas: {
        ErrorBody,
        ...healthApi.schemas,
        ...oddsApi.schemas,
        ...lobbyApi.schemas,
        ...playersApi.schemas,
        ...tablesApi.schemas,
        ...tableEventsApi.schemas,
        ...adminApi.schemas,
        ...gameRecordsApi.schemas,
        ...clientApi.schemas,
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
