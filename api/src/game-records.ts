// GET /api/admin/games (ADMIN): every finished game as JSON Lines, for an external audit. Each line is
// one JSON value: a game's record, then, once every game was sent, a trailer that says so. The
// schema registered here is that of one line.
import { Type, type Static } from "@sinclair/typebox";
import { BettingStage, Card, clientSeed, Hand, HandOdds, seedHex } from "./cards.js";
import { amount, int32AtLeast, nullable, oneOfIntegers, playerId, targetRtp } from "./fields.js";
import { apiPart, errorResponse, STREAM_HEADERS } from "./operation.js";

/** What `after` accepts: a record's `cursor`, `<tableId>:<version>` in plain decimal digits. */
export const GAME_CURSOR_PATTERN = /^([1-9][0-9]{0,9}):([1-9][0-9]{0,15})$/;

/** JSON Lines, always UTF-8: no charset parameter. */
export const GAME_RECORDS_MEDIA_TYPE = "application/x-ndjson";

const time = (description: string) => Type.String({ format: "date-time", description });

const GameRecordBet = Type.Object(
  {
    playerId: Type.String(),
    seatIndex: Type.Integer({ description: "The seat the bet was placed from" }),
    handIndex: Type.Integer({ minimum: 0 }),
    bettingStage: BettingStage,
    betAmount: amount("Stake"),
    recordedOdds: Type.Number({
      minimum: 0,
      description: "The odds shown when the bet was placed: what it is paid at",
    }),
    placedAt: time("When the bet was placed"),
    returned: amount(
      "Paid (settled game: stake x recordedOdds / winning hands, rounded down to the cent) or refunded (void game); 0 for a losing bet",
    ),
    paidTo: Type.Union([Type.Literal("SEAT"), Type.Literal("ACCOUNT"), Type.Literal("NONE")], {
      description:
        "SEAT: the bettor's seat; ACCOUNT: the bettor's account (no longer seated, the seat at the largest balance, or a void's refund); NONE: nothing returned",
    }),
  },
  { additionalProperties: false },
);

const GameStage = Type.Object(
  {
    bettingStage: oneOfIntegers([0, 1, 2] as const),
    openedAt: time(
      "When its cards were shown: the deal for the hole (0), the reveal for the flop (1) and the turn (2)",
    ),
    closedAt: nullable(
      time("When an advance closed its betting to reveal the next cards"),
      "Null for a stage still open when the game was voided",
    ),
  },
  {
    additionalProperties: false,
    description: "When a betting stage took bets: every bet at it was placed within this time",
  },
);

export const GameRecord = Type.Object(
  {
    tableId: Type.Integer({ minimum: 1 }),
    gameId: Type.String(),
    version: Type.Integer({ minimum: 2, description: "The table's version whose change finished the game" }),
    cursor: Type.String({
      pattern: GAME_CURSOR_PATTERN.source,
      description: "`<tableId>:<version>`: pass it as `after` to resume an export after this game",
    }),
    outcome: Type.Union([Type.Literal("SETTLED"), Type.Literal("VOID")], {
      description: "SETTLED at the river; VOID when the last player left mid-game (every bet refunded)",
    }),
    numberOfHands: Type.Integer({ minimum: 2 }),
    hands: Type.Array(Hand, { description: "In hand order, each as dealt (first card, then second)" }),
    board: Type.Array(Card, { maxItems: 5, description: "Flop, turn and river in order; a void game's cards so far" }),
    handOdds: Type.Array(HandOdds, { description: "Every stage the game reached, stage by stage, in hand order" }),
    winningHands: Type.Array(Type.Integer({ minimum: 0 }), {
      description: "Hands that won at the river (ties: several)",
    }),
    bets: Type.Array(GameRecordBet, { description: "In the order they were placed" }),
    stakes: amount("Sum of the stakes"),
    payouts: amount("Sum paid on winning bets"),
    refunds: amount("Sum refunded (a void game's stakes)"),
    houseResult: Type.Number({ description: "stakes - payouts - refunds, in units: negative when the house lost" }),
    roundingRemainderCents: Type.Object(
      { numerator: Type.Integer({ minimum: 0 }), denominator: Type.Integer({ minimum: 1 }) },
      {
        additionalProperties: false,
        description:
          "The fractions of a cent that rounding payouts down kept for the house, exactly (numerator / denominator cents)",
      },
    ),
    seedCommitment: seedHex("SHA-256 of the server seed, shown from the game's start, before any client seed or bet"),
    serverSeed: seedHex(
      "The seed the deck was derived from (a void game's too): verify the deck with docs/provably-fair.md or npm run verify",
    ),
    clientSeed: nullable(clientSeed("The client seed"), "The client seed mixed into the deck; null when none"),
    targetRtp: targetRtp({
      description: "The target return to player every stage was priced at (npm run verify checks the odds at it)",
    }),
    dealtBy: playerId(
      "Who dealt the game: the player whose advance dealt the hole cards, mixing in its client seed if it sent one, or an ADMIN",
    ),
    stages: Type.Array(GameStage, {
      minItems: 1,
      description:
        "Each betting stage the game reached (the hole's at least), in order, with when it took bets (npm run verify " +
        "checks every bet's time against its stage's)",
    }),
    dealtAt: time("When the hole cards were dealt"),
    firstBetAt: nullable(time("When the first bet was placed"), "Null when nobody bet"),
    finishedAt: time("When the game was settled or voided"),
  },
  { additionalProperties: false },
);

export type GameRecordBody = Static<typeof GameRecord>;

const GameRecordsEnd = Type.Object(
  {
    end: Type.Literal(true),
    games: Type.Integer({ minimum: 0, description: "The number of game lines before it" }),
  },
  { additionalProperties: false, description: "The last line of a complete export" },
);

const GameRecordsError = Type.Object(
  { error: Type.String() },
  { additionalProperties: false, description: "Why an export broke off; the connection is then cut" },
);

// The record by reference: the document describes it once, as GameRecord (registered by the tables
// part, whose GET /api/tables/{tableId}/games/{gameId} answers one).
const GameRecordLine = Type.Union(
  [Type.Unsafe<GameRecordBody>({ $ref: "#/components/schemas/GameRecord" }), GameRecordsEnd, GameRecordsError],
  {
    description: "One line of GET /api/admin/games",
  },
);

const LINES = [
  "JSON Lines (`application/x-ndjson`): one JSON value per line, each matching the schema GameRecordLine,",
  "streamed as the games are read. One line per finished game (settled at the river, or void): tables in",
  "table id order, each table's games in the order they were played, each game once. A complete export",
  'ends with the line `{"end":true,"games":N}`, N the number of game lines. A stream that ends without',
  "that line is truncated (the table service or the gateway failed, or the gateway stopped): a line",
  "`{ error }` may come before the connection is cut. Resume with `after` set to the last record's `cursor`.",
  "A game finished while the export runs may be left for the next one.",
].join(" ");

/** The test vector of docs/provably-fair.md, played: hand 2 (KhTs, a full house) wins. Odds at RTP 0.97. */
export const EXAMPLE_RECORD: GameRecordBody = {
  tableId: 1,
  gameId: "T1-1",
  version: 9,
  cursor: "1:9",
  outcome: "SETTLED",
  numberOfHands: 4,
  hands: ["3d9s", "5c4d", "KhTs", "2c3c"],
  board: ["Kc", "5h", "Td", "Ks", "Tc"],
  handOdds: [
    [0, 0, "IN_PLAY_BETTING_STAGE_ACTIVE", 14.6367, 2.4835, 6.2],
    [1, 0, "IN_PLAY_BETTING_STAGE_ACTIVE", 23.2192, 0.4675, 4.2],
    [2, 0, "IN_PLAY_FAVOURITE", 45.6359, 0.4675, 2.1],
    [3, 0, "IN_PLAY_BETTING_STAGE_ACTIVE", 14.0248, 2.4835, 6.4],
    [0, 1, "IN_PLAY_BETTING_STAGE_ACTIVE", 2.1951, 0.122, 43],
    [1, 1, "IN_PLAY_BETTING_STAGE_ACTIVE", 9.0244, 0, 10.7],
    [2, 1, "IN_PLAY_FAVOURITE", 82.1951, 0, 1.2],
    [3, 1, "IN_PLAY_BETTING_STAGE_ACTIVE", 6.4634, 0.122, 14.9],
    [0, 2, "DEAD_CANNOT_WIN", 0, 0, 0],
    [1, 2, "DEAD_CANNOT_WIN", 0, 0, 0],
    [2, 2, "IN_PLAY_FAVOURITE", 100, 0, 1],
    [3, 2, "DEAD_CANNOT_WIN", 0, 0, 0],
    [0, -1, "LOSER", 0, 0, 0],
    [1, -1, "LOSER", 0, 0, 0],
    [2, -1, "WINNER", 100, 0, 1],
    [3, -1, "LOSER", 0, 0, 0],
  ].map(([handIndex, bettingStage, handStatus, winPercentage, drawPercentage, odds]) => ({
    handIndex,
    bettingStage,
    handStatus,
    winPercentage,
    drawPercentage,
    odds,
  })) as GameRecordBody["handOdds"],
  winningHands: [2],
  bets: [
    {
      playerId: "alice",
      seatIndex: 1,
      handIndex: 1,
      bettingStage: 0,
      betAmount: 5,
      recordedOdds: 4.2,
      placedAt: "2026-11-23T12:00:04.120Z",
      returned: 0,
      paidTo: "NONE",
    },
    {
      playerId: "bob",
      seatIndex: 2,
      handIndex: 2,
      bettingStage: 1,
      betAmount: 10,
      recordedOdds: 1.2,
      placedAt: "2026-11-23T12:00:09.870Z",
      returned: 12,
      paidTo: "SEAT",
    },
  ],
  stakes: 15,
  payouts: 12,
  refunds: 0,
  houseResult: 3,
  roundingRemainderCents: { numerator: 0, denominator: 10 },
  seedCommitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
  serverSeed: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
  clientSeed: null,
  targetRtp: 0.97,
  dealtBy: "alice",
  stages: [
    { bettingStage: 0, openedAt: "2026-11-23T12:00:01.002Z", closedAt: "2026-11-23T12:00:06.480Z" },
    { bettingStage: 1, openedAt: "2026-11-23T12:00:06.530Z", closedAt: "2026-11-23T12:00:10.020Z" },
    { bettingStage: 2, openedAt: "2026-11-23T12:00:10.061Z", closedAt: "2026-11-23T12:00:15.270Z" },
  ],
  dealtAt: "2026-11-23T12:00:01.002Z",
  firstBetAt: "2026-11-23T12:00:04.120Z",
  finishedAt: "2026-11-23T12:00:15.310Z",
};

const EXAMPLE_GAME_LINES = `${JSON.stringify(EXAMPLE_RECORD)}\n${JSON.stringify({ end: true, games: 1 })}\n`;

const timeParameter = (name: string, description: string) => ({
  name,
  in: "query",
  required: false,
  description,
  schema: { type: "string", format: "date-time" },
});

export const gameRecordsApi = apiPart(
  "admin",
  { GameRecordLine },
  {
    exportGames: {
      method: "get",
      path: "/api/admin/games",
      summary:
        "ADMIN only (403 otherwise): every finished game (cards, odds of every stage, bets, payouts, times, the deck's seed) as JSON Lines, streamed",
      parameters: [
        {
          name: "tableId",
          in: "query",
          required: false,
          description: "Only this table's games",
          schema: int32AtLeast(1),
        },
        timeParameter("finishedAfter", "Only games finished at or after this time (RFC 3339)"),
        timeParameter("finishedBefore", "Only games finished before this time (RFC 3339)"),
        {
          name: "after",
          in: "query",
          required: false,
          description: "Only games after this one: a record's `cursor` (resumes a broken export)",
          schema: { type: "string", pattern: GAME_CURSOR_PATTERN.source },
        },
      ],
      // Not JSON: `responses` describes the answers in full (the lines, then every error).
      ok: "GameRecordLine",
      example: { ok: EXAMPLE_GAME_LINES },
      responses: {
        200: {
          description: LINES,
          headers: STREAM_HEADERS,
          content: {
            [GAME_RECORDS_MEDIA_TYPE]: {
              schema: { $ref: "#/components/schemas/GameRecordLine" },
              example: EXAMPLE_GAME_LINES,
            },
          },
        },
        400: errorResponse(400),
        401: errorResponse(401),
        403: errorResponse(403),
        429: errorResponse(429),
        503: errorResponse(503),
      },
    },
  },
);
