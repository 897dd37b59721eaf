import { apiPart, jsonContent } from "../openapi/operation.js";
import { HealthResponse } from "./schemas.js";

export const healthApi = apiPart(
  "health",
  { HealthResponse },
  {
    getHealth: {
      method: "get",
      path: "/api/health",
      summary: "Readiness of every service and the database",
      isPublic: true,
      ok: "HealthResponse",
      responses: {
        200: { description: "Everything answers", content: jsonContent("HealthResponse") },
        503: { description: "Something is down; checks name it", content: jsonContent("HealthResponse") },
      },
    },
  },
);
