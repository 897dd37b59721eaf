import { Type } from "@sinclair/typebox";

export const CHECK_VALUES = ["ok", "not_serving", "unreachable", "unavailable", "unknown"] as const;

const Check = Type.Union(
  CHECK_VALUES.map((value) => Type.Literal(value)),
  {
    description:
      "Services: ok, not_serving (answers but is not ready, e.g. its database is down) or unreachable. " +
      "database: ok when the wallet or table service serves (each stops serving when it loses the database), " +
      "unavailable when neither serves and one says so, unknown when neither answers",
  },
);

export const HealthResponse = Type.Object(
  {
    status: Type.Union([Type.Literal("ok"), Type.Literal("unavailable")]),
    checks: Type.Object({ odds: Check, wallet: Check, table: Check, database: Check }, { additionalProperties: false }),
    error: Type.Optional(Type.String({ description: "What is down; present with status unavailable (HTTP 503)" })),
  },
  { additionalProperties: false },
);
