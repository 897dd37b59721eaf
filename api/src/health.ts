import { Type } from "@sinclair/typebox";
import { apiPart, HEALTH_PATH, jsonContent, REQUEST_ID_HEADER } from "./operation.js";

const CHECK_VALUES = ["ok", "not_serving", "unreachable", "unavailable", "unknown"] as const;

const Check = Type.Union(
  CHECK_VALUES.map((value) => Type.Literal(value)),
  { description: "ok, not_serving (answers but is not ready, e.g. its database is down) or unreachable" },
);

const DatabaseCheck = Type.Union(
  [...CHECK_VALUES, "read_only" as const].map((value) => Type.Literal(value)),
  {
    description:
      "ok when the wallet or table service serves (each stops serving when it loses the database), " +
      "unavailable when neither serves and one says so, unknown when neither answers, " +
      "read_only when one that serves says its database refused its last write: reads go on, moves answer 503",
  },
);

export const HealthResponse = Type.Object(
  {
    status: Type.Union([Type.Literal("ok"), Type.Literal("unavailable")]),
    checks: Type.Object(
      { odds: Check, wallet: Check, table: Check, database: DatabaseCheck },
      { additionalProperties: false },
    ),
    error: Type.Optional(Type.String({ description: "What is down; present with status unavailable (HTTP 503)" })),
  },
  { additionalProperties: false },
);

export const healthApi = apiPart(
  "health",
  { HealthResponse },
  {
    getHealth: {
      method: "get",
      path: HEALTH_PATH,
      summary: "Readiness of every service and the database",
      isPublic: true,
      ok: "HealthResponse",
      example: { ok: { status: "ok", checks: { odds: "ok", wallet: "ok", table: "ok", database: "ok" } } },
      responses: {
        200: {
          description: "Everything answers",
          headers: REQUEST_ID_HEADER,
          content: jsonContent("HealthResponse", {
            status: "ok",
            checks: { odds: "ok", wallet: "ok", table: "ok", database: "ok" },
          }),
        },
        503: {
          description: "Something is down; checks name it",
          headers: REQUEST_ID_HEADER,
          content: jsonContent("HealthResponse", {
            status: "unavailable",
            checks: { odds: "ok", wallet: "not_serving", table: "not_serving", database: "unavailable" },
            error: "database unavailable",
          }),
        },
      },
    },
  },
);
