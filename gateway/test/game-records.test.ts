// GET /api/admin/games against an ExportGames the test drives: JSON Lines framing (each game as the
// contract's record, then the trailer), lines written as they come, ADMIN only, the query's filters
// passed on or refused with 400 before any call, refusals before the first line as JSON answers, a
// failure after it as a last `{ error }` line and a cut connection (no trailer), an interrupted stream
// resumed after the last game sent (no gap, no repeat), and closing the connection cancelling the call.
// And GET /api/tables/{tableId}/games/{gameId}, one game's record as a player reads it (GetGame).
import { status } from "@grpc/grpc-js";
import { HandStatus } from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import {
  GameOutcome,
  PaidTo,
  type ExportGamesRequest,
  type ExportGamesResponse,
  type FinishedGame,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { Role } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import test, { type ExecutionContext } from "ava";
import { openLines, type LineStream } from "../../test/helpers/ndjson.js";
import { until } from "../../test/helpers/poll.js";
import type { GameRecordsApi } from "../src/services.js";
import { get, startApp, type TestApp } from "./helpers/app.js";
import { FakeServerStream, serviceError } from "./helpers/fake-stream.js";
import { assertMatchesSchema } from "./helpers/schemas.js";

/** One ExportGames call as the gateway made it; the test answers for the table service. */
class FakeExport extends FakeServerStream<ExportGamesRequest, ExportGamesResponse> {
  push(...games: FinishedGame[]): this {
    return this.send(...games.map((game) => ({ game })));
  }
}

function fakeRecords(respond: (call: FakeExport, index: number) => void = (call) => void call.end()) {
  const calls: FakeExport[] = [];
  const api: GameRecordsApi = {
    exportGames: (request, options) => {
      const call = new FakeExport(request, options);
      calls.push(call);
      respond(call, calls.length - 1);
      return call;
    },
  };
  return { api, calls };
}

const T = Date.UTC(2026, 10, 23, 12, 0, 0);

/** A settled game of table `tableId` at `version`: hand 2 wins, one losing and one winning bet. */
function game(tableId: number, version: number, over: Partial<FinishedGame> = {}): FinishedGame {
  const panel = (handIndex: number, bettingStage: number, won: boolean) => ({
    handIndex,
    bettingStage,
    handStatus: won ? HandStatus.HAND_STATUS_WINNER : HandStatus.HAND_STATUS_LOSER,
    winPercentage: won ? 100 : 0,
    drawPercentage: 0,
    oddsTenths: won ? 10 : 0,
  });
  return {
    tableId,
    version,
    gameId: `T${tableId}-${version}`,
    outcome: GameOutcome.GAME_OUTCOME_SETTLED,
    numberOfHands: 2,
    hands: ["AhKd", "7c7s"],
    board: ["Kh", "7d", "2h", "9c", "3s"],
    handOdds: [panel(0, -1, false), panel(1, -1, true)],
    winningHands: [1],
    bets: [
      {
        playerId: "alice",
        seatId: 1,
        handIndex: 0,
        bettingStage: 0,
        betAmountCents: 500,
        recordedOddsTenths: 29,
        placedAtMs: T + 2_000,
        returnedCents: 0,
        paidTo: PaidTo.PAID_TO_NONE,
      },
      {
        playerId: "bob",
        seatId: 2,
        handIndex: 1,
        bettingStage: 1,
        betAmountCents: 1_000,
        recordedOddsTenths: 13,
        placedAtMs: T + 3_000,
        returnedCents: 1_300,
        paidTo: PaidTo.PAID_TO_SEAT,
      },
    ],
    stakesCents: 1_500,
    payoutsCents: 1_300,
    refundsCents: 0,
    houseResultCents: 200,
    roundingNumerator: 0,
    roundingDenominator: 10,
    seedCommitment: "c".repeat(64),
    serverSeed: "5".repeat(64),
    clientSeed: "",
    targetRtp: 0.95,
    dealtBy: "alice",
    stages: [
      { bettingStage: 0, openedAtMs: T + 1_000, closedAtMs: T + 2_500 },
      { bettingStage: 1, openedAtMs: T + 2_600, closedAtMs: T + 4_000 },
      { bettingStage: 2, openedAtMs: T + 4_100, closedAtMs: T + 8_000 },
    ],
    dealtAtMs: T + 1_000,
    firstBetAtMs: T + 2_000,
    finishedAtMs: T + 9_000,
    ...over,
  };
}

async function withApp(t: ExecutionContext, records: ReturnType<typeof fakeRecords>): Promise<TestApp> {
  const app = await startApp({ gameRecords: records.api });
  t.teardown(() => app.close());
  return app;
}

const adminToken = (app: TestApp) => app.tokenFor("root", "ADMIN");

async function open(app: TestApp, query = "", token?: string | null): Promise<LineStream> {
  return openLines(`${app.url}/api/admin/games${query}`, token === undefined ? await adminToken(app) : token, {
    headers: { "x-request-id": "export-1" },
  });
}

test("framing: each game one line (a record of the contract), then the trailer; the headers", async (t) => {
  const records = fakeRecords((call) => void call.push(game(3, 12), game(3, 20)).end());
  const app = await withApp(t, records);
  const stream = await open(app);
  t.is(stream.status, 200);
  t.is(stream.headers.get("content-type"), "application/x-ndjson");
  t.is(stream.headers.get("cache-control"), "no-store");
  t.is(stream.headers.get("x-accel-buffering"), "no");
  t.is(stream.headers.get("x-request-id"), "export-1");
  t.deepEqual(await stream.done, { cut: false });
  t.is(stream.lines.length, 3);
  for (const line of stream.lines) assertMatchesSchema(t, "GameRecordLine", line);
  t.deepEqual(stream.lines[2], { end: true, games: 2 });
  t.deepEqual(stream.lines[0], {
    tableId: 3,
    gameId: "T3-12",
    version: 12,
    cursor: "3:12",
    outcome: "SETTLED",
    numberOfHands: 2,
    hands: ["AhKd", "7c7s"],
    board: ["Kh", "7d", "2h", "9c", "3s"],
    handOdds: [
      { handIndex: 0, bettingStage: -1, handStatus: "LOSER", winPercentage: 0, drawPercentage: 0, odds: 0 },
      { handIndex: 1, bettingStage: -1, handStatus: "WINNER", winPercentage: 100, drawPercentage: 0, odds: 1 },
    ],
    winningHands: [1],
    bets: [
      {
        playerId: "alice",
        seatIndex: 1,
        handIndex: 0,
        bettingStage: 0,
        betAmount: 5,
        recordedOdds: 2.9,
        placedAt: "2026-11-23T12:00:02.000Z",
        returned: 0,
        paidTo: "NONE",
      },
      {
        playerId: "bob",
        seatIndex: 2,
        handIndex: 1,
        bettingStage: 1,
        betAmount: 10,
        recordedOdds: 1.3,
        placedAt: "2026-11-23T12:00:03.000Z",
        returned: 13,
        paidTo: "SEAT",
      },
    ],
    stakes: 15,
    payouts: 13,
    refunds: 0,
    houseResult: 2,
    roundingRemainderCents: { numerator: 0, denominator: 10 },
    seedCommitment: "c".repeat(64),
    serverSeed: "5".repeat(64),
    clientSeed: null,
    targetRtp: 0.95,
    dealtBy: "alice",
    stages: [
      { bettingStage: 0, openedAt: "2026-11-23T12:00:01.000Z", closedAt: "2026-11-23T12:00:02.500Z" },
      { bettingStage: 1, openedAt: "2026-11-23T12:00:02.600Z", closedAt: "2026-11-23T12:00:04.000Z" },
      { bettingStage: 2, openedAt: "2026-11-23T12:00:04.100Z", closedAt: "2026-11-23T12:00:08.000Z" },
    ],
    dealtAt: "2026-11-23T12:00:01.000Z",
    firstBetAt: "2026-11-23T12:00:02.000Z",
    finishedAt: "2026-11-23T12:00:09.000Z",
  });
  const [call] = records.calls;
  t.like(call!.request, {
    caller: { playerId: "root", role: Role.ROLE_ADMIN },
    tableId: 0,
    afterTableId: 0,
    afterVersion: 0,
  });
  t.is(call!.request.finishedAfterMs, undefined);
  t.is(call!.options.requestId, "export-1");
});

test("a void game, a house loss and a game without bets keep to the contract; a void game shows its seed", async (t) => {
  const voided = game(4, 7, {
    outcome: GameOutcome.GAME_OUTCOME_VOID,
    stages: [{ bettingStage: 0, openedAtMs: T + 1_000 }],
    board: [],
    handOdds: [],
    winningHands: [],
    bets: [],
    stakesCents: 0,
    payoutsCents: 0,
    houseResultCents: -1_234,
    firstBetAtMs: 0,
  });
  const app = await withApp(
    t,
    fakeRecords((call) => void call.push(voided).end()),
  );
  const stream = await open(app);
  await stream.done;
  assertMatchesSchema(t, "GameRecordLine", stream.lines[0]);
  t.like(stream.lines[0], {
    outcome: "VOID",
    board: [],
    houseResult: -12.34,
    firstBetAt: null,
    seedCommitment: "c".repeat(64),
    serverSeed: "5".repeat(64),
    stages: [{ bettingStage: 0, openedAt: "2026-11-23T12:00:01.000Z", closedAt: null }],
  });
});

test("stage times a replica whose clock ran ahead stored out of order are shown as stored, not a failure for good", async (t) => {
  // Replicas' clocks more than 5 s apart: the flop opened (as one replica timed it) before the hole
  // closed (as another did). The record says so and npm run verify reports it; before, every read
  // of the game was a 500 and the export stopped at it each time.
  const skewed = game(4, 7, {
    stages: [
      { bettingStage: 0, openedAtMs: T + 1_000, closedAtMs: T + 9_000 },
      { bettingStage: 1, openedAtMs: T + 3_000, closedAtMs: T + 2_000 },
      { bettingStage: 2, openedAtMs: T + 10_000, closedAtMs: T + 11_000 },
    ],
  });
  const app = await withApp(
    t,
    fakeRecords((call) => void call.push(skewed, game(4, 8)).end()),
  );
  const stream = await open(app);
  t.deepEqual(await stream.done, { cut: false });
  assertMatchesSchema(t, "GameRecordLine", stream.lines[0]);
  t.like(stream.lines[0], {
    gameId: "T4-7",
    stages: [
      { bettingStage: 0, openedAt: "2026-11-23T12:00:01.000Z", closedAt: "2026-11-23T12:00:09.000Z" },
      { bettingStage: 1, openedAt: "2026-11-23T12:00:03.000Z", closedAt: "2026-11-23T12:00:02.000Z" },
      { bettingStage: 2, openedAt: "2026-11-23T12:00:10.000Z", closedAt: "2026-11-23T12:00:11.000Z" },
    ],
  });
  t.like(stream.lines[1], { gameId: "T4-8" });
});

test("lines are written as the games come, not gathered first", async (t) => {
  const records = fakeRecords((call) => void call.push(game(1, 5)));
  const app = await withApp(t, records);
  const stream = await open(app);
  await until("the first game", () => stream.lines.length === 1);
  records.calls[0]!.push(game(1, 9));
  await until("the second game", () => stream.lines.length === 2);
  records.calls[0]!.end();
  await stream.done;
  t.deepEqual(stream.lines.at(-1), { end: true, games: 2 });
});

test("ADMIN only: 401 without a token, 403 for another role, before any call", async (t) => {
  const records = fakeRecords();
  const app = await withApp(t, records);
  const anonymous = await open(app, "", null);
  t.is(anonymous.status, 401);
  const player = await open(app, "", app.token);
  t.is(player.status, 403);
  t.deepEqual(player.body, { error: "the game export is for an ADMIN" });
  t.is(records.calls.length, 0);
});

test("filters: passed on as the service takes them; a bad, unknown or repeated one is a 400 before any call", async (t) => {
  const records = fakeRecords();
  const app = await withApp(t, records);
  const ok = await open(
    app,
    "?tableId=7&finishedAfter=2026-11-23T13:00:00%2B01:00&finishedBefore=2026-11-24T00:00:00.5Z&after=7:120",
  );
  await ok.done;
  t.is(ok.status, 200);
  t.like(records.calls[0]!.request, {
    tableId: 7,
    finishedAfterMs: T,
    finishedBeforeMs: Date.UTC(2026, 10, 24, 0, 0, 0, 500),
    afterTableId: 7,
    afterVersion: 120,
  });
  // A cursor past every table means after every game.
  await (
    await open(app, "?after=9999999999:1")
  ).done;
  t.like(records.calls[1]!.request, { afterTableId: 2 ** 31 - 1, afterVersion: Number.MAX_SAFE_INTEGER });
  // A leap second, at 23:59 UTC only, counts as the next second's start; years before 100 stay as they are.
  const leap = await open(app, "?finishedAfter=2027-01-01T00:59:60%2B01:00&finishedBefore=0099-03-01T00:00:00Z");
  await leap.done;
  t.like(records.calls[2]!.request, {
    finishedAfterMs: Date.UTC(2027, 0, 1),
    finishedBeforeMs: new Date("0099-03-01T00:00:00Z").getTime(),
  });
  // Games finish on whole milliseconds: a finer bound counts as the next millisecond, for both filters
  // (a game at .004 is before .0041, not at or after it); zeros beyond the third digit change nothing.
  const fine = await open(
    app,
    "?finishedAfter=2026-11-23T12:00:00.0041Z&finishedBefore=2026-11-23T12:00:00.999000001Z",
  );
  await fine.done;
  t.like(records.calls[3]!.request, {
    finishedAfterMs: Date.UTC(2026, 10, 23, 12, 0, 0, 5),
    finishedBeforeMs: Date.UTC(2026, 10, 23, 12, 0, 1),
  });
  const exact = await open(app, "?finishedAfter=2026-11-23T12:00:00.004000Z");
  await exact.done;
  t.like(records.calls[4]!.request, { finishedAfterMs: Date.UTC(2026, 10, 23, 12, 0, 0, 4) });
  const bad = [
    "?tableId=0",
    "?tableId=07",
    "?tableId=abc",
    "?tableId=2147483648",
    "?tableId=1&tableId=2",
    "?table=1",
    "?finishedAfter=yesterday",
    "?finishedAfter=2026-02-29T00:00:00Z",
    "?finishedBefore=2026-11-23T24:00:00Z",
    "?finishedBefore=2026-11-23T12:00:60Z",
    "?finishedBefore=2026-11-23 12:00:00Z",
    "?after=3",
    "?after=3:0",
    "?after=-3:4",
  ];
  for (const query of bad) {
    const refused = await open(app, query);
    t.is(refused.status, 400, query);
    t.is(typeof (refused.body as { error?: unknown }).error, "string", query);
  }
  t.is(records.calls.length, 5);
});

test("refusals before the first line are JSON answers: 403, and 503 when the table service stays away", async (t) => {
  const denied = await withApp(
    t,
    fakeRecords((call) => void call.fail(status.PERMISSION_DENIED, "the game export is for an ADMIN")),
  );
  const refused = await open(denied);
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { error: "the game export is for an ADMIN" });
  const away = fakeRecords((call) => void call.fail(status.UNAVAILABLE));
  const gone = await open(await withApp(t, away));
  t.is(gone.status, 503);
  t.deepEqual(gone.body, { error: "table service unavailable" });
  t.is(away.calls.length, 6, "tried again while the service might be restarting");
});

test("a failure after the first line: a last { error } line, the connection cut, no trailer", async (t) => {
  const records = fakeRecords((call) => void call.push(game(2, 4)).fail(status.INTERNAL, "boom"));
  const app = await withApp(t, records);
  const stream = await open(app);
  t.is(stream.status, 200);
  t.deepEqual(await stream.done, { cut: true });
  t.is(stream.lines.length, 2);
  t.like(stream.lines[0], { gameId: "T2-4" });
  t.deepEqual(stream.lines[1], { error: "internal error" });
  assertMatchesSchema(t, "GameRecordLine", stream.lines[1]);

  // A game the contract does not allow ends it the same way: an unknown outcome, a game without its seed,
  // its target RTP, its stages or its dealer.
  for (const wrong of [
    { outcome: GameOutcome.GAME_OUTCOME_UNSPECIFIED },
    { serverSeed: "" },
    { seedCommitment: "" },
    { targetRtp: 0 },
    { targetRtp: 1 },
    { targetRtp: Number.NaN },
    { stages: [] },
    { stages: [{ bettingStage: 1, openedAtMs: T, closedAtMs: T }] },
    { stages: [{ bettingStage: 0, openedAtMs: 0 }] },
    {
      stages: [
        { bettingStage: 0, openedAtMs: T },
        { bettingStage: 1, openedAtMs: T + 1, closedAtMs: T + 2 },
      ],
    },
    { finishedAtMs: 9e15 },
    { dealtBy: "ali\u0000ce" },
    { dealtBy: " " },
    { dealtBy: "" },
  ]) {
    const broken = fakeRecords((call) => void call.push(game(2, 4, wrong)).end());
    const cut = await open(await withApp(t, broken));
    t.deepEqual(await cut.done, { cut: true }, JSON.stringify(wrong));
    t.deepEqual(cut.lines, [{ error: "internal error" }], JSON.stringify(wrong));
  }
});

test("an interrupted stream is resumed after the last game sent: no gap, no repeat", async (t) => {
  const records = fakeRecords((call, index) => {
    if (index === 0) call.push(game(1, 5), game(3, 8)).fail(status.UNAVAILABLE, "replica gone");
    // The new call starts after the cursor; a replica repeating a game is not believed.
    else call.push(game(3, 8), game(3, 15), game(6, 4)).end();
  });
  const app = await withApp(t, records);
  const stream = await open(app, "?tableId=3&finishedAfter=2026-11-23T12:00:00Z");
  t.deepEqual(await stream.done, { cut: false });
  t.deepEqual(
    stream.lines.map((line) => (line as { cursor?: string }).cursor ?? line),
    ["1:5", "3:8", "3:15", "6:4", { end: true, games: 4 }],
  );
  t.like(records.calls[1]!.request, { tableId: 3, finishedAfterMs: T, afterTableId: 3, afterVersion: 8 });
});

test("closing the connection cancels the ExportGames call", async (t) => {
  const records = fakeRecords((call) => void call.push(game(1, 5)));
  const app = await withApp(t, records);
  const stream = await open(app);
  await until("the first game", () => stream.lines.length === 1);
  t.false(records.calls[0]!.cancelled);
  stream.close();
  await until("the call cancelled", () => records.calls[0]!.cancelled);
  t.pass();
});

test("one game: GetGame for the token's player, answered as the export's record of it", async (t) => {
  const app = await startApp({ table: { getGame: async () => ({ game: game(3, 12, { gameId: "T3-7" }) }) } });
  t.teardown(() => app.close());
  const response = await get(app, "/api/tables/3/games/T3-7");
  t.is(response.status, 200);
  const record = await response.json();
  assertMatchesSchema(t, "GameRecord", record);
  t.like(record, { tableId: 3, gameId: "T3-7", outcome: "SETTLED", serverSeed: "5".repeat(64), clientSeed: null });
  t.deepEqual(app.table.calls.at(-1)?.request, {
    caller: { playerId: "player-1", role: Role.ROLE_BASIC_USER },
    tableId: 3,
    gameId: "T3-7",
  });
});

test("one game: the service's refusals as answers; an id of another form (404), a bad table or no token refused before any call", async (t) => {
  const refusals = [
    serviceError(status.NOT_FOUND, "table 3 has no finished game T3-9"),
    serviceError(status.PERMISSION_DENIED, "not yours"),
  ];
  const app = await startApp({
    table: {
      getGame: async () => {
        throw refusals.shift();
      },
    },
  });
  t.teardown(() => app.close());
  const missing = await get(app, "/api/tables/3/games/T3-9");
  t.is(missing.status, 404);
  t.deepEqual(await missing.json(), { error: "table 3 has no finished game T3-9" });
  const forbidden = await get(app, "/api/tables/1001/games/T1001-1");
  t.is(forbidden.status, 403);
  t.deepEqual(await forbidden.json(), { error: "not yours" });
  const calls = app.table.calls.length;
  for (const [path, status] of [
    ["/api/tables/3/games/T3%201", 404],
    ["/api/tables/3/games/ZzR.j%7C%EF%BF%BDJ", 404],
    [`/api/tables/3/games/${"T".repeat(129)}`, 404],
    ["/api/tables/03/games/T3-1", 400],
    ["/api/tables/x/games/T3-1", 400],
  ] as const) {
    const response = await get(app, path);
    t.is(response.status, status, path);
    t.truthy(((await response.json()) as { error?: string }).error, path);
  }
  t.is((await fetch(`${app.url}/api/tables/3/games/T3-1`)).status, 401);
  t.is(app.table.calls.length, calls, "no call for a refused request");
});
