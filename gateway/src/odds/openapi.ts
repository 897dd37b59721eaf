import { apiPart } from "../openapi/operation.js";
import { BulkRequest, BulkResponse, DealRequest, DealResult } from "./schemas.js";

export const oddsApi = apiPart(
  "dealing",
  { DealRequest, DealResult, BulkRequest, BulkResponse },
  {
    deal: {
      method: "post",
      path: "/api/deal",
      summary: "A stand-alone deal with pre-flop odds",
      body: { schema: "DealRequest", required: false },
      ok: "DealResult",
      errors: [503],
    },
    generateBulk: {
      method: "post",
      path: "/api/games/bulk",
      heavy: true,
      summary: "Pre-computed full games",
      body: { schema: "BulkRequest", required: false },
      ok: "BulkResponse",
      errors: [503],
    },
  },
);
