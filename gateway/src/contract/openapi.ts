// The OpenAPI 3.1 description of the whole public API, built from the same schemas that validate
// requests, so the document cannot drift from what the gateway accepts.
// The audit report's schema is the money audit's own (@pokerodds/audit builds and reads the report).
import { AuditReport } from "@pokerodds/audit/report";
import { IDEMPOTENCY_KEY_PATTERN } from "../http/idempotency-key.js";
import { ErrorBody } from "./error-body.js";
import { HealthResponse } from "./health.js";
import { BulkRequest, BulkResponse, DealRequest, DealResult } from "./odds.js";
import { PlayerIdParam, PlayerProfile } from "./players.js";
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
} from "./tables.js";

const SCHEMAS = {
  ErrorBody,
  HealthResponse,
  DealRequest,
  DealResult,
  BulkRequest,
  BulkResponse,
  TablesList,
  PlayerProfile,
  SitRequest,
  SitResponse,
  TopUpRequest,
  TopUpResponse,
  BetRequest,
  BetResponse,
  LeaveResponse,
  NoBody,
  TableGameState,
  AuditReport,
};
type SchemaName = keyof typeof SCHEMAS;

const ERRORS = {
  400: "Invalid parameters or body, or malformed JSON",
  401: "Missing or invalid bearer token (WWW-Authenticate: Bearer)",
  403: "Acting for another player, or a table that is not the caller's",
  404: "No such table or route",
  409: "Not allowed in the current state",
  413: "Body larger than 64 KiB",
  415: "A body that is not application/json",
  422: "Idempotency key reused with a different request",
  503: "A service or the database is unavailable",
} as const;
type ErrorStatus = keyof typeof ERRORS;

const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (name: SchemaName) => ({ "application/json": { schema: ref(name) } });

const TABLE_ID = { name: "tableId", in: "path", required: true, schema: TableIdParam };
const PLAYER_ID = { name: "playerId", in: "path", required: true, schema: PlayerIdParam };
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

interface Operation {
  operationId: string;
  summary: string;
  tag: "health" | "lobby" | "players" | "tables" | "dealing" | "meta" | "admin";
  isPublic?: boolean;
  parameters?: object[];
  body?: { schema: SchemaName; required: boolean };
  ok: SchemaName | "OpenApiDocument";
  errors: ErrorStatus[];
}

function operation(op: Operation) {
  const authErrors: ErrorStatus[] = op.isPublic ? [] : [401];
  const errors = [...new Set([...(op.body ? [400, 413, 415] : []), ...authErrors, ...op.errors])].sort(
    (a, b) => a - b,
  ) as ErrorStatus[];
  return {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    ...(op.isPublic ? { security: [] } : {}),
    ...(op.parameters ? { parameters: op.parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: op.body.required,
            ...(op.body.required ? {} : { description: "Optional" }),
            content: jsonContent(op.body.schema),
          },
        }
      : {}),
    responses: {
      200: {
        description: "Success",
        content:
          op.ok === "OpenApiDocument" ? { "application/json": { schema: { type: "object" } } } : jsonContent(op.ok),
      },
      ...Object.fromEntries(errors.map((status) => [status, { $ref: `#/components/responses/E${status}` }])),
    },
  };
}

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
    tags: ["health", "lobby", "players", "tables", "dealing", "meta", "admin"].map((name) => ({ name })),
    paths: {
      "/api/health": {
        get: {
          ...operation({
            operationId: "getHealth",
            summary: "Readiness of every service and the database",
            tag: "health",
            isPublic: true,
            ok: "HealthResponse",
            errors: [],
          }),
          responses: {
            200: { description: "Everything answers", content: jsonContent("HealthResponse") },
            503: { description: "Something is down; checks name it", content: jsonContent("HealthResponse") },
          },
        },
      },
      "/api/openapi.json": {
        get: operation({
          operationId: "getOpenApi",
          summary: "This document",
          tag: "meta",
          isPublic: true,
          ok: "OpenApiDocument",
          errors: [],
        }),
      },
      "/api/tables": {
        get: operation({
          operationId: "listTables",
          summary: "Active tables (200 with an empty list when degraded)",
          tag: "lobby",
          isPublic: true,
          ok: "TablesList",
          errors: [],
        }),
      },
      "/api/players/{playerId}": {
        get: operation({
          operationId: "getPlayer",
          summary: "Profile; the first read creates the player and a 1,000 welcome balance",
          tag: "players",
          parameters: [PLAYER_ID],
          ok: "PlayerProfile",
          errors: [400, 403, 404, 503],
        }),
      },
      "/api/tables/{tableId}/sit": {
        post: operation({
          operationId: "sit",
          summary: "Buy in: account to seat (NACK when short)",
          tag: "tables",
          parameters: [TABLE_ID, IDEMPOTENCY_KEY],
          body: { schema: "SitRequest", required: true },
          ok: "SitResponse",
          errors: [403, 404, 409, 422, 503],
        }),
      },
      "/api/tables/{tableId}/topup": {
        post: operation({
          operationId: "topUp",
          summary: "Account to seat while seated (NACK when short)",
          tag: "tables",
          parameters: [TABLE_ID, IDEMPOTENCY_KEY],
          body: { schema: "TopUpRequest", required: true },
          ok: "TopUpResponse",
          errors: [403, 404, 409, 422, 503],
        }),
      },
      "/api/tables/{tableId}/bet": {
        post: operation({
          operationId: "bet",
          summary: "Back one hand at the current betting stage",
          tag: "tables",
          parameters: [TABLE_ID, IDEMPOTENCY_KEY],
          body: { schema: "BetRequest", required: true },
          ok: "BetResponse",
          errors: [403, 404, 409, 422, 503],
        }),
      },
      "/api/tables/{tableId}/leave": {
        post: operation({
          operationId: "leave",
          summary: "Seat balance back to the account; idempotent",
          tag: "tables",
          parameters: [TABLE_ID, IDEMPOTENCY_KEY],
          body: { schema: "NoBody", required: false },
          ok: "LeaveResponse",
          errors: [403, 404, 409, 422, 503],
        }),
      },
      "/api/tables/{tableId}/advance": {
        post: operation({
          operationId: "advance",
          summary: "Move the game to its next state",
          tag: "tables",
          parameters: [TABLE_ID],
          body: { schema: "NoBody", required: false },
          ok: "TableGameState",
          errors: [403, 404, 409, 503],
        }),
      },
      "/api/tables/{tableId}/state": {
        get: operation({
          operationId: "getTableState",
          summary: "The table's full current game state",
          tag: "tables",
          parameters: [TABLE_ID],
          ok: "TableGameState",
          errors: [400, 403, 404, 503],
        }),
      },
      "/api/deal": {
        post: operation({
          operationId: "deal",
          summary: "A stand-alone deal with pre-flop odds",
          tag: "dealing",
          body: { schema: "DealRequest", required: false },
          ok: "DealResult",
          errors: [503],
        }),
      },
      "/api/games/bulk": {
        post: operation({
          operationId: "generateBulk",
          summary: "Pre-computed full games",
          tag: "dealing",
          body: { schema: "BulkRequest", required: false },
          ok: "BulkResponse",
          errors: [503],
        }),
      },
      "/api/admin/audit": {
        get: operation({
          operationId: "getAudit",
          summary:
            "ADMIN only (403 otherwise): the money audit of wallet and tables, reconciled to the cent. 200 whatever " +
            "it finds (status clean, pending or mismatch); 503 when a service cannot be audited",
          tag: "admin",
          ok: "AuditReport",
          errors: [403, 503],
        }),
      },
    },
    components: {
      schemas: SCHEMAS,
      responses: Object.fromEntries(
        Object.entries(ERRORS).map(([status, description]) => [
          `E${status}`,
          {
            description,
            ...(status === "401" ? { headers: { "WWW-Authenticate": { schema: { type: "string" } } } } : {}),
            content: jsonContent("ErrorBody"),
          },
        ]),
      ),
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
