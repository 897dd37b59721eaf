import { IDEMPOTENCY_KEY_PATTERN } from "../http/idempotency-key.js";
import { apiPart, type Operation } from "../openapi/operation.js";
import {
  BetRequest,
  BetResponse,
  LeaveResponse,
  NoBody,
  SitRequest,
  SitResponse,
  TableGameState,
  TableIdParam,
  TablesList,
  TopUpRequest,
  TopUpResponse,
} from "./schemas.js";

/** GET /api/tables, the document's "lobby". */
export const lobbyApi = apiPart(
  "lobby",
  { TablesList },
  {
    listTables: {
      method: "get",
      path: "/api/tables",
      summary: "Active tables (200 with an empty list when degraded)",
      isPublic: true,
      ok: "TablesList",
    },
  },
);

const SCHEMAS = {
  SitRequest,
  SitResponse,
  TopUpRequest,
  TopUpResponse,
  BetRequest,
  BetResponse,
  LeaveResponse,
  NoBody,
  TableGameState,
};
type SchemaName = keyof typeof SCHEMAS;

const TABLE_ID = { name: "tableId", in: "path", required: true, schema: TableIdParam };
const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: send a fresh key (a UUID) per intended operation and the same key on every retry of it. " +
    "The same key replays the first result; with a different body it is a 422; while the first request is " +
    "still running, a 409. Without one the gateway uses a fresh key, so a retry counts as a new request",
  schema: { type: "string", pattern: IDEMPOTENCY_KEY_PATTERN.source },
};

/** Sit, topup, bet and leave move money: each takes an Idempotency-Key, and a reused one can be a 422. */
function moneyMove(op: Pick<Operation<SchemaName>, "path" | "summary" | "body" | "ok">): Operation<SchemaName> {
  return {
    method: "post",
    parameters: [TABLE_ID, IDEMPOTENCY_KEY],
    errors: [403, 404, 409, 422, 503],
    ...op,
  };
}

/** The table session and game flow under /api/tables/{tableId}/ (each entry alike on purpose: a route each). */
export const tablesApi = apiPart("tables", SCHEMAS, {
  sit: moneyMove({
    path: "/api/tables/{tableId}/sit",
    summary: "Buy in: account to seat (NACK when short)",
    body: { schema: "SitRequest", required: true },
    ok: "SitResponse",
  }),
  topUp: moneyMove({
    path: "/api/tables/{tableId}/topup",
    summary: "Account to seat while seated (NACK when short)",
    body: { schema: "TopUpRequest", required: true },
    ok: "TopUpResponse",
  }),
  bet: moneyMove({
    path: "/api/tables/{tableId}/bet",
    summary: "Back one hand at the current betting stage",
    body: { schema: "BetRequest", required: true },
    ok: "BetResponse",
  }),
  leave: moneyMove({
    path: "/api/tables/{tableId}/leave",
    summary: "Seat balance back to the account; idempotent",
    body: { schema: "NoBody", required: false },
    ok: "LeaveResponse",
  }),
  advance: {
    method: "post",
    path: "/api/tables/{tableId}/advance",
    summary: "Move the game to its next state",
    parameters: [TABLE_ID],
    body: { schema: "NoBody", required: false },
    ok: "TableGameState",
    errors: [403, 404, 409, 503],
  },
  getTableState: {
    method: "get",
    path: "/api/tables/{tableId}/state",
    summary: "The table's full current game state",
    parameters: [TABLE_ID],
    ok: "TableGameState",
    errors: [400, 403, 404, 503],
  },
});
