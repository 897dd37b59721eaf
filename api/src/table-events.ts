// GET /api/tables/{tableId}/events: a table's changes as Server-Sent Events, each the new version and
// the state GET /api/tables/{tableId}/state would answer at that version.
import { EXAMPLE_COMMITMENT } from "./cards.js";
import { apiPart, errorResponse, STREAM_HEADERS } from "./operation.js";
import { TableIdParam } from "./tables.js";

/**
 * A Last-Event-ID the gateway accepts: a version it sent, in plain decimal digits (else 400), or empty,
 * which is the same as absent (from the current state).
 */
export const LAST_EVENT_ID_PATTERN = /^(|0|[1-9][0-9]{0,15})$/;

const EVENT_FORMAT = [
  "One event per stored version of the table, in order, each exactly once:",
  "`id: <version>` (the table's version: 1, 2, 3... without gaps), `event: state`,",
  "`data: <the JSON body of GET /api/tables/{tableId}/state at that version>` (schema TableGameState, on one line),",
  "then a blank line. The first event is the current state; with Last-Event-ID, the versions after it",
  "(only the current state when more than 64 were missed, or when Last-Event-ID is above the table's version).",
  "A comment line `: keep-alive` comes every 15 seconds (EVENTS_HEARTBEAT_SECONDS).",
  "The stream ends after at most 15 minutes (EVENTS_MAX_STREAM_SECONDS), or when the table service stays",
  "unreachable: reconnect with Last-Event-ID set to the last id received, and nothing is missed or repeated.",
].join(" ");

const EXAMPLE_EVENT =
  "id: 42\nevent: state\ndata: " +
  JSON.stringify({
    tableId: 1,
    gameId: "T1-7",
    gameState: "STATUS_START",
    bettingStage: -1,
    bettingOpen: false,
    numberOfHands: 4,
    numberOfSeats: 6,
    jackpotValue: 0,
    hands: null,
    flopCard1: null,
    flopCard2: null,
    flopCard3: null,
    turnCard: null,
    riverCard: null,
    seats: [{ seatId: 1, playerId: "alice", playerName: "Alice", seatBalance: 100, avatarImageUrl: "" }],
    bets: [],
    handOdds: [],
    seedCommitment: EXAMPLE_COMMITMENT,
    serverSeed: null,
    clientSeed: null,
    targetRtp: null,
  }) +
  "\n\n: keep-alive\n\n";

/** One event of the stream: its fields as a client's SSE parser sees them. */
const STATE_EVENT = {
  type: "object",
  required: ["event", "id", "data"],
  properties: {
    event: { const: "state" },
    id: { type: "string", pattern: "^[1-9][0-9]*$", description: "The table's version" },
    data: {
      type: "string",
      contentMediaType: "application/json",
      contentSchema: { $ref: "#/components/schemas/TableGameState" },
    },
  },
};

export const tableEventsApi = apiPart(
  "tables",
  {},
  {
    getTableEvents: {
      method: "get",
      path: "/api/tables/{tableId}/events",
      summary: "The table's changes, live (Server-Sent Events); readable by whoever may read its state",
      parameters: [
        { name: "tableId", in: "path", required: true, schema: TableIdParam },
        {
          name: "Last-Event-ID",
          in: "header",
          required: false,
          description:
            "Resume after this version (the id of the last event received): no event at or below it is sent; empty is the same as absent",
          schema: { type: "string", pattern: LAST_EVENT_ID_PATTERN.source },
        },
      ],
      // Not JSON: `responses` describes the answers in full (the stream, then every error).
      ok: { type: "object" },
      example: { ok: EXAMPLE_EVENT },
      responses: {
        200: {
          description: EVENT_FORMAT,
          headers: STREAM_HEADERS,
          // The schema of one event (OpenAPI 3.1 reads a text/event-stream schema per event).
          content: { "text/event-stream": { schema: STATE_EVENT, example: EXAMPLE_EVENT } },
        },
        400: errorResponse(400),
        401: errorResponse(401),
        403: errorResponse(403),
        404: errorResponse(404),
        429: {
          ...errorResponse(429),
          description:
            "Too many event streams open (EVENTS_MAX_STREAMS_PER_PLAYER, EVENTS_MAX_STREAMS_PER_ADDRESS, EVENTS_MAX_STREAMS), or a rate limit",
        },
        503: errorResponse(503),
      },
    },
  },
);
