import { GameState as ProtoGameState } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { gameStateName } from "@pokerodds/common/game-state-names";
import { API_HEADERS } from "@pokerodds/common/http-headers";
import {
  GAME_ID_PATTERN,
  GAME_ID_RULE,
  IDEMPOTENCY_KEY_PATTERN,
  MAX_BETS_PER_SEAT_PER_GAME,
  MAX_HANDS_PER_GAME,
} from "@pokerodds/common/limits";
import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import { TABLE_REFUSALS } from "@pokerodds/common/table-refusals";
import { Type, type Static } from "@sinclair/typebox";
import { BettingStage, Card, clientSeed, EXAMPLE_COMMITMENT, Hand, HandOdds, seedHex } from "./cards.js";
import { EXAMPLE_RECORD, GameRecord } from "./game-records.js";
import { apiPart, type Operation } from "./operation.js";
import {
  amount,
  int32AtLeast,
  integerFrom,
  money,
  MUST_BE,
  nullable,
  oneOfIntegers,
  playerId,
  targetRtp,
} from "./fields.js";

const PLAYER_ID_RULE = "Defaults to the token's subject; another player's id needs the ADMIN role (else 403)";

export const TableIdParam = Type.Integer({
  minimum: 1,
  description: `Public tables 1..TABLE_COUNT, personal tables from ${FIRST_PERSONAL_TABLE_ID}; plain decimal digits without a sign or leading zeros (else 400)`,
});

/** The body of leave, which acts for the token's subject: none, or an empty object. */
export const NoBody = Type.Object(
  {},
  {
    additionalProperties: false,
    description: "No body is needed; an empty object is accepted, anything else is a 400",
  },
);

/** The gameId of a state a client saw (an advance's from, a bet's at). */
const GameIdSeen = Type.String({
  pattern: GAME_ID_PATTERN.source,
  description: "The gameId of the state seen",
  [MUST_BE]: GAME_ID_RULE,
});

/** The states a table is ever in (the contract's, but its unset value): those an advance moves on from. */
const TABLE_GAME_STATES = Object.values(ProtoGameState)
  .filter((state): state is ProtoGameState => typeof state === "number" && state > 0)
  .map(gameStateName);

/** The body of advance: none, or the state the caller saw, which the game then moves on from only. */
export const AdvanceRequest = Type.Object(
  {
    from: Type.Optional(
      Type.Object(
        {
          gameId: GameIdSeen,
          gameState: Type.Union(
            TABLE_GAME_STATES.map((name) => Type.Literal(name)),
            { description: "The gameState seen", [MUST_BE]: `one of ${TABLE_GAME_STATES.join(", ")}` },
          ),
        },
        {
          additionalProperties: false,
          description:
            "The state the caller saw: the game moves on only from it, so a retry, or a second player's deal " +
            "sent after the first one's, never moves it twice. Once the advance from it is made (by an earlier try or by another " +
            "player) the answer is the state now and nothing moves; a 409 when the table never moved on from it " +
            "(the game was voided, or is not there yet)",
        },
      ),
    ),
    clientSeed: Type.Optional(
      clientSeed(
        "Mixed into the deck by the advance that deals (from STATUS_SETUP or STATUS_START), after the house committed " +
          "to its seed (seedCommitment), so neither side alone chooses the cards (docs/provably-fair.md); any other " +
          "advance ignores it. Send fresh random text, e.g. 32 hex digits",
      ),
    ),
  },
  {
    additionalProperties: false,
    description: "No body is needed (the game moves on from whatever state it is in); an empty object is accepted",
  },
);

export const LOBBY_GAME_STATES = ["BETTING", "WAITING"] as const;

const TableSummary = Type.Object(
  {
    tableId: Type.Integer({ minimum: 1 }),
    playerCount: Type.Integer({ minimum: 0 }),
    gameState: Type.Union(
      LOBBY_GAME_STATES.map((name) => Type.Literal(name)),
      { description: "BETTING while a betting stage takes bets (the state's bettingOpen), otherwise WAITING" },
    ),
  },
  { additionalProperties: false },
);

export const TablesList = Type.Object(
  {
    tables: Type.Array(TableSummary, { description: "Tables whose session changed in the last 30 minutes" }),
    totalActivePlayers: Type.Integer({ minimum: 0 }),
  },
  {
    additionalProperties: false,
    description: "An empty list when the data store is unavailable (degraded, not an error)",
  },
);

/** A NACK's message on sit, top-up and bet: one of the table's fixed reasons. */
const TableRefusal = Type.Union(
  Object.values(TABLE_REFUSALS).map((reason) => Type.Literal(reason)),
  { description: "Why the table refused a sit, a top-up or a bet: the message of its NACK" },
);

const Acknowledgement = Type.Union([Type.Literal("ACK"), Type.Literal("NACK")], {
  description: "NACK (still HTTP 200, with a message) for insufficient balance, a full table or a second seat",
});

export const SitRequest = Type.Object(
  { playerId: Type.Optional(playerId(PLAYER_ID_RULE)), buyInAmount: money("Moved from the account to the seat") },
  { additionalProperties: false },
);

export const SitResponse = Type.Object(
  {
    acknowledgement: Acknowledgement,
    message: Type.Optional(Type.String({ description: "Why a NACK was given: a TableRefusal" })),
    seatId: Type.Integer({ description: "What a bet's seatIndex names" }),
    seatBalance: amount("The seat balance after the buy-in"),
  },
  { additionalProperties: false },
);

export const TopUpRequest = Type.Object(
  { playerId: Type.Optional(playerId(PLAYER_ID_RULE)), amount: money("Moved from the account to the seat") },
  { additionalProperties: false },
);

export const TopUpResponse = Type.Object(
  {
    acknowledgement: Acknowledgement,
    message: Type.Optional(Type.String({ description: "Why a NACK was given: a TableRefusal" })),
    newSeatBalance: amount("Seat balance after the top-up"),
    newAccountBalance: amount("Account balance after the top-up"),
  },
  { additionalProperties: false },
);

export const BetRequest = Type.Object(
  {
    playerId: Type.Optional(playerId(PLAYER_ID_RULE)),
    seatIndex: int32AtLeast(0, "The seatId returned by sit"),
    handIndex: integerFrom(0, MAX_HANDS_PER_GAME - 1, {
      description: "Zero-based hand to back; one beyond the table's hands is a 409",
    }),
    betAmount: money("Stake, taken from the seat balance"),
    at: Type.Optional(
      Type.Object(
        {
          gameId: GameIdSeen,
          bettingStage: oneOfIntegers([0, 1, 2] as const, {
            description: "The bettingStage seen: 0 hole, 1 flop, 2 turn",
          }),
        },
        {
          additionalProperties: false,
          description:
            "The game and stage whose odds the caller saw: the bet is placed only there, at those odds. Once " +
            "another player has moved the table on it is a 409 and nothing is placed. Without it the bet takes " +
            "the odds of the stage open when it arrives",
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const BetResponse = Type.Object(
  {
    acknowledgement: Acknowledgement,
    message: Type.String({ description: "What was recorded (ACK), or why it was refused (NACK: a TableRefusal)" }),
    updatedSeatBalance: amount("Seat balance after the stake"),
  },
  { additionalProperties: false },
);

export const LeaveResponse = Type.Object(
  {
    acknowledgement: Type.Literal("ACK", { description: "Leave is idempotent: not seated gives ACK with 0 returned" }),
    creditsReturned: amount("Seat balance credited to the account"),
    newAccountBalance: amount("Account balance after the credit"),
  },
  { additionalProperties: false },
);

const Seat = Type.Object(
  {
    seatId: Type.Integer(),
    playerId: Type.String(),
    playerName: Type.String(),
    seatBalance: amount("Chips at this seat"),
    avatarImageUrl: Type.String(),
  },
  { additionalProperties: false },
);

const BetRecord = Type.Object(
  {
    playerId: Type.String(),
    bettingStage: BettingStage,
    seatIndex: Type.Integer(),
    handIndex: Type.Integer({ minimum: 0 }),
    betAmount: amount("Stake"),
    recordedOdds: Type.Number({ description: "Odds displayed when the bet was placed; used for the payout" }),
  },
  { additionalProperties: false },
);

export const GAME_STATES = [
  "UNCHANGED",
  "INVALID_CARD",
  "CARD_ALREADY_DEALT",
  "STATUS_SETUP",
  "STATUS_START",
  "STATUS_MANUAL_DEALING_HOLE",
  "STATUS_HOLE",
  "STATUS_FLOP_CARD1",
  "STATUS_FLOP_CARD2",
  "STATUS_FLOP_CARD3",
  "STATUS_FLOP",
  "STATUS_TURN",
  "STATUS_RIVER",
] as const;

export const TableGameState = Type.Object(
  {
    tableId: Type.Integer({ minimum: 1 }),
    gameId: Type.String(),
    gameState: Type.Union(
      GAME_STATES.map((name) => Type.Literal(name)),
      { description: "Advance walks STATUS_SETUP/START -> HOLE -> FLOP -> TURN -> RIVER -> SETUP" },
    ),
    bettingStage: BettingStage,
    bettingOpen: Type.Boolean({
      description:
        "Whether bettingStage takes bets now: false at setup and the river, and while an advance that " +
        "has closed the stage's betting reveals the next cards (a bet then is a 409)",
    }),
    numberOfHands: Type.Integer(),
    numberOfSeats: Type.Integer(),
    jackpotValue: Type.Number({ description: "Always 0: no jackpot rule is specified" }),
    hands: nullable(Type.Array(Hand), "Null before the hole state"),
    flopCard1: nullable(Card),
    flopCard2: nullable(Card),
    flopCard3: nullable(Card),
    turnCard: nullable(Card),
    riverCard: nullable(Card),
    seats: Type.Array(Seat),
    bets: Type.Array(BetRecord, { description: "All bets of the current game" }),
    handOdds: Type.Array(HandOdds, { description: "Per hand per stage, for the current and earlier stages" }),
    seedCommitment: nullable(
      seedHex(),
      "SHA-256 of the server seed the deck is derived from, from the game's start (STATUS_SETUP or STATUS_START), before " +
        "any client seed or bet; null only at a table where nothing has happened yet, until its deal",
    ),
    serverSeed: nullable(
      seedHex(),
      "The seed, at the river only (null otherwise): check the deck with docs/provably-fair.md or npm run verify",
    ),
    clientSeed: nullable(
      clientSeed("The client seed"),
      "The client seed the dealing advance mixed into the deck, from the hole on; null when it named none",
    ),
    targetRtp: nullable(
      targetRtp(),
      'The target return to player every stage of this game is priced at (decisions.md, "Pricing"), fixed by ' +
        "its deal; null before the deal",
    ),
  },
  { additionalProperties: false },
);

export type TablesListBody = Static<typeof TablesList>;
export type SitResponseBody = Static<typeof SitResponse>;
export type TopUpResponseBody = Static<typeof TopUpResponse>;
export type BetResponseBody = Static<typeof BetResponse>;
export type LeaveResponseBody = Static<typeof LeaveResponse>;
export type TableGameStateBody = Static<typeof TableGameState>;

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
      conditional: true,
      example: {
        ok: { tables: [{ tableId: 1, playerCount: 2, gameState: "BETTING" }], totalActivePlayers: 2 },
      },
    },
  },
);

const SCHEMAS = {
  GameRecord,
  TableRefusal,
  SitRequest,
  SitResponse,
  TopUpRequest,
  TopUpResponse,
  BetRequest,
  BetResponse,
  LeaveResponse,
  NoBody,
  AdvanceRequest,
  TableGameState,
};
type SchemaName = keyof typeof SCHEMAS;

const TABLE_ID = { name: "tableId", in: "path", required: true, schema: TableIdParam };
const IDEMPOTENCY_KEY = {
  name: API_HEADERS.idempotencyKey,
  in: "header",
  required: false,
  description:
    "Makes a retry safe: send a fresh key (a UUID) per intended operation and the same key on every retry of it. " +
    "The same key replays the first result; with a different body it is a 422; while the first request is " +
    "still running, a 409. Without one the gateway uses a fresh key, so a retry counts as a new request. " +
    "Once the request is valid, its answer names the key used in its Idempotency-Key header, and a 5xx " +
    "leaves the outcome unknown (the move may still be made): the same request with that key learns it",
  schema: { type: "string", pattern: IDEMPOTENCY_KEY_PATTERN.source },
};

/** Sit, topup, bet and leave move money: each takes an Idempotency-Key, and a reused one can be a 422. */
function moneyMove(
  op: Pick<Operation<SchemaName>, "path" | "summary" | "body" | "ok" | "example" | "links">,
): Operation<SchemaName> {
  return {
    method: "post",
    parameters: [TABLE_ID, IDEMPOTENCY_KEY],
    errors: [403, 404, 409, 422, 503],
    okHeaders: {
      [API_HEADERS.idempotencyKey]: {
        description: "The key the move was made under: the client's, or the gateway's own when it sent none",
        schema: { type: "string" },
      },
    },
    ...op,
  };
}

/** The path's table, for a link to the next call at the same table. */
const SAME_TABLE = { tableId: "$request.path.tableId" };

/**
 * The answer's header naming the table's version of the state it holds: the id of that state's event
 * (GET .../events). Answers may arrive out of order (a read sent before an advance, a stream that
 * resumes behind a read), so a client shows a state only when its version is above the one shown.
 */
const TABLE_VERSION = {
  [API_HEADERS.tableVersion]: {
    description:
      "The table's version of this state (1, 2, 3..., the id of its event in GET /api/tables/{tableId}/events): a client orders the states it is answered by it",
    schema: { type: "integer", minimum: 1 },
  },
};
const GAME_ID = {
  name: "gameId",
  in: "path",
  required: true,
  description: "A game of this table, as its state shows it (`T1-7`); text of another form names no game (404)",
  schema: { type: "string", pattern: GAME_ID_PATTERN.source },
};

const EXAMPLE_STATE = {
  tableId: 1,
  gameId: "T1-7",
  gameState: "STATUS_FLOP",
  bettingStage: 1,
  bettingOpen: true,
  numberOfHands: 4,
  numberOfSeats: 6,
  jackpotValue: 0,
  hands: ["AhKd", "7c7s", "QhJh", "9d8d"],
  flopCard1: "Kh",
  flopCard2: "7d",
  flopCard3: "2h",
  turnCard: null,
  riverCard: null,
  seats: [
    { seatId: 1, playerId: "alice", playerName: "Alice", seatBalance: 95, avatarImageUrl: "/avatars/default.png" },
  ],
  bets: [{ playerId: "alice", bettingStage: 0, seatIndex: 1, handIndex: 0, betAmount: 5, recordedOdds: 2.9 }],
  handOdds: [
    {
      handIndex: 0,
      bettingStage: 1,
      handStatus: "IN_PLAY_BETTING_STAGE_ACTIVE",
      winPercentage: 17.2,
      drawPercentage: 0,
      odds: 5.6,
    },
    {
      handIndex: 1,
      bettingStage: 1,
      handStatus: "IN_PLAY_FAVOURITE",
      winPercentage: 77.4,
      drawPercentage: 0,
      odds: 1.3,
    },
    {
      handIndex: 2,
      bettingStage: 1,
      handStatus: "IN_PLAY_BETTING_STAGE_ACTIVE",
      winPercentage: 4.3,
      drawPercentage: 0,
      odds: 22.6,
    },
    {
      handIndex: 3,
      bettingStage: 1,
      handStatus: "IN_PLAY_BETTING_STAGE_ACTIVE",
      winPercentage: 1.1,
      drawPercentage: 0,
      odds: 88.2,
    },
  ],
  seedCommitment: EXAMPLE_COMMITMENT,
  serverSeed: null,
  clientSeed: "3f9c2a61d07b4e85a1c6f0d29b87e354",
  targetRtp: 0.97,
};

/** The table session and game flow under /api/tables/{tableId}/ (each entry alike on purpose: a route each). */
export const tablesApi = apiPart("tables", SCHEMAS, {
  sit: moneyMove({
    path: "/api/tables/{tableId}/sit",
    summary: "Buy in: account to seat (NACK when short)",
    body: { schema: "SitRequest", required: true },
    ok: "SitResponse",
    example: {
      body: { buyInAmount: 100 },
      ok: { acknowledgement: "ACK", seatId: 1, seatBalance: 100 },
    },
    links: {
      bet: {
        operationId: "bet",
        description: "Back a hand from the seat just taken",
        parameters: SAME_TABLE,
        requestBody: { seatIndex: "$response.body#/seatId", handIndex: 0, betAmount: 1 },
      },
      getTableState: { operationId: "getTableState", description: "The table just joined", parameters: SAME_TABLE },
      topUp: {
        operationId: "topUp",
        description: "More chips for the same seat",
        parameters: SAME_TABLE,
        requestBody: { amount: 10 },
      },
      leave: { operationId: "leave", description: "Leave the seat just taken", parameters: SAME_TABLE },
    },
  }),
  topUp: moneyMove({
    path: "/api/tables/{tableId}/topup",
    summary: "Account to seat while seated (NACK when short)",
    body: { schema: "TopUpRequest", required: true },
    ok: "TopUpResponse",
    example: {
      body: { amount: 50 },
      ok: { acknowledgement: "ACK", newSeatBalance: 150, newAccountBalance: 850 },
    },
  }),
  bet: moneyMove({
    path: "/api/tables/{tableId}/bet",
    summary:
      `Back one hand at the current betting stage (a seat takes ${MAX_BETS_PER_SEAT_PER_GAME} bets in one game, ` +
      "whoever sits in it: then a 409; a stage takes none once an advance to the next has begun: a 409 too)",
    body: { schema: "BetRequest", required: true },
    ok: "BetResponse",
    example: {
      body: { seatIndex: 1, handIndex: 1, betAmount: 5, at: { gameId: "T1-7", bettingStage: 1 } },
      ok: { acknowledgement: "ACK", message: "bet placed: handIndex 1 at odds 3.4 (flop)", updatedSeatBalance: 90 },
    },
    links: {
      advance: { operationId: "advance", description: "Deal the next stage", parameters: SAME_TABLE },
      getTableState: {
        operationId: "getTableState",
        description: "The bet in the game's bets",
        parameters: SAME_TABLE,
      },
    },
  }),
  leave: moneyMove({
    path: "/api/tables/{tableId}/leave",
    summary: "Seat balance back to the account; idempotent",
    body: { schema: "NoBody", required: false },
    ok: "LeaveResponse",
    example: { body: {}, ok: { acknowledgement: "ACK", creditsReturned: 95, newAccountBalance: 995 } },
  }),
  advance: {
    method: "post",
    path: "/api/tables/{tableId}/advance",
    summary: "Move the game to its next state (from the state seen, if named)",
    parameters: [TABLE_ID],
    body: { schema: "AdvanceRequest", required: false },
    ok: "TableGameState",
    errors: [403, 404, 409, 503],
    okHeaders: TABLE_VERSION,
    example: { body: { from: { gameId: "T1-7", gameState: "STATUS_HOLE" } }, ok: EXAMPLE_STATE },
    links: {
      getTableState: {
        operationId: "getTableState",
        description: "The state as others see it",
        parameters: SAME_TABLE,
      },
      advance: { operationId: "advance", description: "On to the next stage", parameters: SAME_TABLE },
      leave: { operationId: "leave", description: "Cash out the seat", parameters: SAME_TABLE },
    },
  },
  getTableState: {
    method: "get",
    path: "/api/tables/{tableId}/state",
    summary: "The table's full current game state",
    parameters: [TABLE_ID],
    ok: "TableGameState",
    errors: [400, 403, 404, 503],
    okHeaders: TABLE_VERSION,
    example: { ok: EXAMPLE_STATE },
    links: {
      advance: { operationId: "advance", description: "Move this table's game on", parameters: SAME_TABLE },
      getGame: {
        operationId: "getGame",
        description: "The game's record, with its seeds, once it is over",
        parameters: { ...SAME_TABLE, gameId: "$response.body#/gameId" },
      },
    },
  },
  getGame: {
    method: "get",
    path: "/api/tables/{tableId}/games/{gameId}",
    summary:
      "A finished game's record (settled at the river, or void): cards, odds of every stage, bets, payouts and the deck's seeds, to verify it (docs/provably-fair.md); the same record as a line of GET /api/admin/games. Readable by whoever may read the table's state; 404 while the game is not over",
    parameters: [TABLE_ID, GAME_ID],
    ok: "GameRecord",
    errors: [400, 403, 404, 503],
    example: { ok: EXAMPLE_RECORD },
  },
});
