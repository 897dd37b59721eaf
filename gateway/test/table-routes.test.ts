// The table routes with a fake table service: what reaches the service (caller, cents, key, deadline)
// and what the client gets back (the spec's fields, in units, valid against the OpenAPI document).
import { status } from "@grpc/grpc-js";
import { GameState } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { Role } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import test from "ava";
import fc from "fast-check";
import { get, post, startApp, type TestApp } from "./helpers/app.js";
import { MOVE_OUTCOME_UNKNOWN } from "../src/http/errors.js";
import { COMMITMENT, grpcError, tableState } from "./helpers/fixtures.js";
import { MAX_REPORTED_CENTS } from "@pokerodds/api/money";
import { assertMatchesSchema } from "./helpers/schemas.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PLAYER_1 = { playerId: "player-1", role: Role.ROLE_BASIC_USER };

let app: TestApp;
test.before(async () => {
  app = await startApp();
});
test.after.always(() => app.close());

const lastCall = () => app.table.calls.at(-1);

test.serial("sit: buy-in in cents for the caller, with a fresh key; seat balance back in units", async (t) => {
  const response = await post(app, "/api/tables/7/sit", { buyInAmount: 50.25 }, { "x-request-id": "sit-1" });
  t.is(response.status, 200);
  const json = await response.json();
  t.deepEqual(json, { acknowledgement: "ACK", seatId: 2, seatBalance: 50.25 });
  assertMatchesSchema(t, "SitResponse", json);
  const call = lastCall()!;
  t.is(call.method, "sit");
  const { idempotencyKey, ...request } = call.request as { idempotencyKey: string };
  t.deepEqual(request, { caller: PLAYER_1, tableId: 7, buyInCents: 5025 });
  t.regex(idempotencyKey, UUID);
  t.deepEqual(call.options, { deadlineMs: 10_000, requestId: "sit-1" });
});

test.serial("topup and bet: amounts in cents, indexes as sent, replies in units", async (t) => {
  const topUp = await post(app, "/api/tables/7/topup", { playerId: "player-1", amount: 0.07 });
  const topUpJson = await topUp.json();
  t.deepEqual(topUpJson, { acknowledgement: "ACK", newSeatBalance: 75.5, newAccountBalance: 924.5 });
  assertMatchesSchema(t, "TopUpResponse", topUpJson);
  t.like(lastCall(), { method: "topUp", request: { caller: PLAYER_1, tableId: 7, amountCents: 7 } });
  t.is(lastCall()?.options?.deadlineMs, 10_000);

  const bet = await post(app, "/api/tables/7/bet", { seatIndex: 2, handIndex: 3, betAmount: 1_000_000_000 });
  const betJson = await bet.json();
  t.deepEqual(betJson, {
    acknowledgement: "ACK",
    message: "bet placed: handIndex 3 at odds 2.5 (hole)",
    updatedSeatBalance: 40.25,
  });
  assertMatchesSchema(t, "BetResponse", betJson);
  t.like(lastCall(), {
    method: "bet",
    request: { caller: PLAYER_1, tableId: 7, seatIndex: 2, handIndex: 3, betAmountCents: 100_000_000_000 },
  });
  t.is(lastCall()?.options?.deadlineMs, 10_000);
  t.false("at" in (lastCall()!.request as object), "no stage named: none sent");

  const at = { gameId: "T7-3", bettingStage: 2 };
  await post(app, "/api/tables/7/bet", { seatIndex: 2, handIndex: 3, betAmount: 1, at });
  t.like(lastCall(), { method: "bet", request: { seatIndex: 2, handIndex: 3, betAmountCents: 100, at } });
});

test.serial("leave: for the token's subject, with a key; an empty object is accepted as no body", async (t) => {
  for (const body of [undefined, {}]) {
    const response = await post(app, "/api/tables/2147483647/leave", body);
    const json = await response.json();
    t.deepEqual(json, { acknowledgement: "ACK", creditsReturned: 40.25, newAccountBalance: 999.99 });
    assertMatchesSchema(t, "LeaveResponse", json);
    const { idempotencyKey, ...request } = lastCall()!.request as { idempotencyKey: string };
    t.deepEqual(request, { caller: PLAYER_1, tableId: 2_147_483_647 });
    t.regex(idempotencyKey, UUID);
    t.is(lastCall()?.options?.deadlineMs, 10_000);
  }
});

const STATE_AT_FLOP = {
  tableId: 7,
  gameId: "T7-3",
  gameState: "STATUS_FLOP",
  bettingStage: 1,
  bettingOpen: true,
  numberOfHands: 4,
  numberOfSeats: 6,
  jackpotValue: 0,
  hands: ["2c2d", "2h2s", "3c3d", "3h3s"],
  flopCard1: "Qc",
  flopCard2: "Qd",
  flopCard3: "Qh",
  turnCard: null,
  riverCard: null,
  seats: [{ seatId: 2, playerId: "player-1", playerName: "P One", seatBalance: 40.25, avatarImageUrl: "/a/1.png" }],
  bets: [{ playerId: "player-1", bettingStage: 0, seatIndex: 2, handIndex: 1, betAmount: 10.01, recordedOdds: 4.9 }],
  // Provably fair: the deck's commitment before the river, no seed yet.
  seedCommitment: COMMITMENT,
  serverSeed: null,
  clientSeed: null,
  targetRtp: 0.97,
};

test.serial("advance and state: the game state in the spec's fields, validated by the document", async (t) => {
  const advanced = await post(app, "/api/tables/7/advance", undefined, { "x-request-id": "adv-1" });
  t.is(advanced.status, 200);
  const json = (await advanced.json()) as Record<string, unknown>;
  t.like(json, STATE_AT_FLOP);
  t.deepEqual(Object.keys(json).sort(), [...Object.keys(STATE_AT_FLOP), "handOdds"].sort());
  t.deepEqual((json.handOdds as unknown[])[5], {
    handIndex: 1,
    bettingStage: 1,
    handStatus: "IN_PLAY_BETTING_STAGE_ACTIVE",
    winPercentage: 19.8,
    drawPercentage: 1.25,
    odds: 4.9,
  });
  assertMatchesSchema(t, "TableGameState", json);
  t.deepEqual(lastCall(), {
    method: "advance",
    request: { caller: PLAYER_1, tableId: 7 },
    options: { deadlineMs: 15_000, requestId: "adv-1" },
  });

  const fromSeen = { from: { gameId: "T7-3", gameState: "STATUS_HOLE" } };
  t.is((await post(app, "/api/tables/7/advance", fromSeen)).status, 200);
  t.deepEqual(lastCall()?.request, {
    caller: PLAYER_1,
    tableId: 7,
    from: { gameId: "T7-3", gameState: GameState.GAME_STATE_STATUS_HOLE },
  });

  // A client seed is passed on as it is; one outside the contract's alphabet or length is a 400.
  const seeded = { clientSeed: "3f9c2a61d07b4e85-a1c6_f0d29b87e354" };
  t.is((await post(app, "/api/tables/7/advance", seeded)).status, 200);
  t.deepEqual(lastCall()?.request, { caller: PLAYER_1, tableId: 7, clientSeed: seeded.clientSeed });
  for (const clientSeed of ["", "x".repeat(65), "a b", "é", 42]) {
    const refused = await post(app, "/api/tables/7/advance", { clientSeed });
    t.is(refused.status, 400, String(clientSeed));
    t.regex(((await refused.json()) as { error: string }).error, /clientSeed/);
  }

  const state = await get(app, "/api/tables/7/state");
  t.deepEqual(await state.json(), json);
  t.deepEqual(lastCall()?.request, { caller: PLAYER_1, tableId: 7 });
  t.is(lastCall()?.options?.deadlineMs, 3_000);
});

test("the state before the deal has null hands and cards; later boards fill turn and river", async (t) => {
  const boards: [GameState, number, string[], Record<string, unknown>][] = [
    [GameState.GAME_STATE_STATUS_START, -1, [], { gameState: "STATUS_START", hands: null, flopCard1: null }],
    [GameState.GAME_STATE_STATUS_SETUP, -1, [], { gameState: "STATUS_SETUP", hands: null, riverCard: null }],
    [GameState.GAME_STATE_STATUS_TURN, 2, ["Ah", "Kh", "Qh", "Jh"], { turnCard: "Jh", riverCard: null }],
    [GameState.GAME_STATE_STATUS_RIVER, -1, ["Ah", "Kh", "Qh", "Jh", "Th"], { flopCard3: "Qh", riverCard: "Th" }],
  ];
  for (const [gameState, bettingStage, board, expected] of boards) {
    const hands = board.length === 0 ? [] : tableState().hands;
    const server = await startApp({
      table: { getState: async () => ({ state: tableState({ gameState, bettingStage, board, hands }), version: 1 }) },
    });
    try {
      const json = await (await get(server, "/api/tables/7/state")).json();
      t.like(json, expected);
      assertMatchesSchema(t, "TableGameState", json);
    } finally {
      await server.close();
    }
  }
});

test("state and advance name the table's version of their state in Table-Version; a reply without one is a 500", async (t) => {
  for (const version of [1, 42, 0]) {
    const server = await startApp({
      table: {
        getState: async () => ({ state: tableState(), version }),
        advance: async () => ({ state: tableState(), version }),
      },
    });
    try {
      for (const answer of [await get(server, "/api/tables/7/state"), await post(server, "/api/tables/7/advance")]) {
        if (version === 0) {
          t.is(answer.status, 500, answer.url);
          t.is(answer.headers.get("table-version"), null);
        } else {
          t.is(answer.status, 200, answer.url);
          t.is(answer.headers.get("table-version"), String(version));
        }
      }
    } finally {
      await server.close();
    }
  }
});

test("a NACK is a 200 with the service's message", async (t) => {
  const server = await startApp({
    table: {
      sit: async () => ({
        acknowledged: false,
        message: "insufficient account balance",
        seatId: 0,
        seatBalanceCents: 0,
      }),
      topUp: async () => ({
        acknowledged: false,
        message: "insufficient account balance",
        newSeatBalanceCents: 1000,
        newAccountBalanceCents: 5,
      }),
      bet: async () => ({ acknowledged: false, message: "insufficient seat balance", updatedSeatBalanceCents: 99 }),
    },
  });
  t.teardown(() => server.close());
  const cases = [
    ["sit", { buyInAmount: 5000 }, "SitResponse", { seatId: 0, seatBalance: 0 }, "insufficient account balance"],
    [
      "topup",
      { amount: 10 },
      "TopUpResponse",
      { newSeatBalance: 10, newAccountBalance: 0.05 },
      "insufficient account balance",
    ],
    [
      "bet",
      { seatIndex: 0, handIndex: 0, betAmount: 1 },
      "BetResponse",
      { updatedSeatBalance: 0.99 },
      "insufficient seat balance",
    ],
  ] as const;
  for (const [path, body, schema, fields, message] of cases) {
    const response = await post(server, `/api/tables/3/${path}`, body);
    t.is(response.status, 200, path);
    const json = await response.json();
    t.deepEqual(json, { acknowledgement: "NACK", message, ...fields }, path);
    assertMatchesSchema(t, schema, json);
  }
});

test("an ADMIN acts for another player: the service gets that player with the ADMIN role", async (t) => {
  const server = await startApp();
  t.teardown(() => server.close());
  const admin = { authorization: `Bearer ${await server.tokenFor("admin-1", "ADMIN")}` };
  for (const [path, body] of [
    ["sit", { playerId: "player-2", buyInAmount: 1 }],
    ["topup", { playerId: "player-2", amount: 1 }],
    ["bet", { playerId: "player-2", seatIndex: 0, handIndex: 0, betAmount: 1 }],
  ] as const) {
    t.is((await post(server, `/api/tables/7/${path}`, body, admin)).status, 200);
    t.like(server.table.calls.at(-1)?.request, { caller: { playerId: "player-2", role: Role.ROLE_ADMIN } });
  }
  // Without a playerId, the ADMIN acts for itself.
  await post(server, "/api/tables/7/sit", { buyInAmount: 1 }, admin);
  t.like(server.table.calls.at(-1)?.request, { caller: { playerId: "admin-1", role: Role.ROLE_ADMIN } });
  await post(server, "/api/tables/7/advance", undefined, admin);
  t.like(server.table.calls.at(-1)?.request, { caller: { playerId: "admin-1", role: Role.ROLE_ADMIN } });
});

test.serial("Idempotency-Key: passed on verbatim; a fresh UUID per request without one", async (t) => {
  for (const path of ["sit", "topup", "bet", "leave"]) {
    const body = { sit: { buyInAmount: 1 }, topup: { amount: 1 }, bet: { seatIndex: 0, handIndex: 0, betAmount: 1 } }[
      path
    ];
    for (const key of ["retry-1", "4a7c2f1e-0b7d-4c55-9a43-8e1f0c0b9d21", "a:b/c=d~!", "k".repeat(128)]) {
      await post(app, `/api/tables/7/${path}`, body, { "idempotency-key": key });
      t.like(lastCall()?.request, { idempotencyKey: key }, `${path} ${key}`);
    }
    await post(app, `/api/tables/7/${path}`, body);
    const first = (lastCall()?.request as { idempotencyKey: string }).idempotencyKey;
    await post(app, `/api/tables/7/${path}`, body);
    const second = (lastCall()?.request as { idempotencyKey: string }).idempotencyKey;
    t.regex(first, UUID);
    t.regex(second, UUID);
    t.not(first, second);
  }
  // Advance and state carry no key.
  await post(app, "/api/tables/7/advance", undefined, { "idempotency-key": "ignored" });
  t.false("idempotencyKey" in (lastCall()?.request as object));
});

// [gRPC status, HTTP status, error the client sees]
const TABLE_ERRORS: [status, number, string][] = [
  [status.NOT_FOUND, 404, "table 99 does not exist"],
  [status.INVALID_ARGUMENT, 400, "seatIndex 9 is beyond the table's 6 seats"],
  [status.PERMISSION_DENIED, 403, "only its owner may sit at table 1001"],
  [status.FAILED_PRECONDITION, 409, "bets are closed"],
  [status.ALREADY_EXISTS, 422, "idempotency key reused with a different request"],
  [status.UNAVAILABLE, 503, "table service unavailable"],
  [status.DEADLINE_EXCEEDED, 503, "table service unavailable"],
  [status.INTERNAL, 500, "internal error"],
];

test("the table service's refusals become their HTTP answers on every table route, a 503 with Retry-After", async (t) => {
  for (const [code, httpStatus, error] of TABLE_ERRORS) {
    const fail = async () => {
      throw grpcError(code, error);
    };
    const server = await startApp({
      table: { sit: fail, topUp: fail, bet: fail, leave: fail, advance: fail, getState: fail },
    });
    try {
      for (const [method, path, body] of [
        ["POST", "sit", { buyInAmount: 1 }],
        ["POST", "topup", { amount: 1 }],
        ["POST", "bet", { seatIndex: 9, handIndex: 0, betAmount: 1 }],
        ["POST", "leave", undefined],
        ["POST", "advance", undefined],
        ["GET", "state", undefined],
      ] as const) {
        const response =
          method === "GET"
            ? await get(server, `/api/tables/99/${path}`)
            : await post(server, `/api/tables/99/${path}`, body);
        t.is(response.status, httpStatus, `${status[code]} ${path}`);
        // A money move answered 5xx may still be made: the answer says so.
        const moneyMove = !["advance", "state"].includes(path);
        const expected = httpStatus >= 500 && moneyMove ? `${error}: ${MOVE_OUTCOME_UNKNOWN}` : error;
        t.deepEqual(await response.json(), { error: expected }, `${status[code]} ${path}`);
        // A 503 says when to try again, as a 429 does; a 500 of a money move too (its outcome is unknown).
        const retryAfter = httpStatus === 503 || (httpStatus === 500 && moneyMove) ? "1" : null;
        t.is(response.headers.get("retry-after"), retryAfter, `${status[code]} ${path}`);
      }
    } finally {
      await server.close();
    }
  }
});

test("a money move the table service did not answer is a 503 naming the key that learns its outcome", async (t) => {
  const keys: string[] = [];
  let answered = false;
  const bet = async (request: { idempotencyKey: string }) => {
    keys.push(request.idempotencyKey);
    if (!answered) throw grpcError(status.DEADLINE_EXCEEDED, "Deadline exceeded");
    return { acknowledged: true, message: "bet placed: handIndex 1 at odds 3.4 (flop)", updatedSeatBalanceCents: 400 };
  };
  const server = await startApp({ table: { bet } });
  try {
    const body = { seatIndex: 0, handIndex: 1, betAmount: 1 };
    const first = await post(server, "/api/tables/7/bet", body);
    t.is(first.status, 503);
    t.is(first.headers.get("retry-after"), "1");
    t.deepEqual(await first.json(), { error: `table service unavailable: ${MOVE_OUTCOME_UNKNOWN}` });
    const key = first.headers.get("idempotency-key");
    t.regex(key ?? "", UUID, "the gateway's own key, since the client sent none");
    t.is(keys[0], key ?? undefined);

    answered = true;
    const again = await post(server, "/api/tables/7/bet", body, { "idempotency-key": key! });
    t.is(again.status, 200);
    t.is(again.headers.get("idempotency-key"), key, "a key the client sent is named too");
    t.deepEqual(keys, [key, key], "the follow-up reached the service under the same key");
  } finally {
    await server.close();
  }
});

test("a reply that breaks the contract is a 500 that hides the details", async (t) => {
  const broken = [
    { getState: async () => ({ state: tableState({ board: ["Ah", "Kh"] }), version: 1 }) },
    { getState: async () => ({ state: tableState({ gameState: GameState.GAME_STATE_UNSPECIFIED }), version: 1 }) },
    { getState: async () => ({ state: tableState({ bettingStage: 3 }), version: 1 }) },
    { getState: async () => ({ state: undefined, version: 1 }) },
    { getState: async () => ({ state: tableState({ jackpotCents: -1 }), version: 1 }) },
    {
      getState: async () => ({
        state: tableState({ seats: [{ ...tableState().seats[0]!, seatBalanceCents: 0.5 }] }),
        version: 1,
      }),
    },
  ];
  for (const table of broken) {
    const server = await startApp({ table });
    try {
      const response = await get(server, "/api/tables/7/state");
      t.is(response.status, 500);
      t.deepEqual(await response.json(), { error: "internal error" });
    } finally {
      await server.close();
    }
  }
  const server = await startApp({
    table: {
      leave: async () => ({ acknowledged: false, creditsReturnedCents: 0, newAccountBalanceCents: 0 }),
      sit: async () => ({ acknowledged: true, message: "", seatId: 1, seatBalanceCents: 2 ** 53 }),
    },
  });
  t.teardown(() => server.close());
  t.is((await post(server, "/api/tables/7/leave")).status, 500);
  // The sit was made, and its reply broke the contract: the answer says the move may have been made.
  const sit = await post(server, "/api/tables/7/sit", { buyInAmount: 1 });
  t.is(sit.status, 500);
  t.deepEqual(await sit.json(), { error: `internal error: ${MOVE_OUTCOME_UNKNOWN}` });
  t.regex(sit.headers.get("idempotency-key") ?? "", UUID);
});

test("any amount the client sends reaches the service as its exact cents; any cents come back exactly", async (t) => {
  let seatBalanceCents = 0;
  const server = await startApp({
    table: { sit: async () => ({ acknowledged: true, message: "", seatId: 1, seatBalanceCents }) },
  });
  t.teardown(() => server.close());
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 100_000_000_000 }),
      fc.integer({ min: 0, max: MAX_REPORTED_CENTS }),
      async (cents, balance) => {
        seatBalanceCents = balance;
        const text = `{"buyInAmount":${(cents / 100).toFixed(2)}}`;
        const response = await post(server, "/api/tables/7/sit", text);
        const raw = await response.text();
        t.is(response.status, 200);
        t.like(server.table.calls.at(-1)?.request, { buyInCents: cents });
        const printed = /"seatBalance":([^,}]+)/.exec(raw)![1]!;
        t.regex(printed, /^\d+(\.\d{1,2})?$/, "at most 2 decimals on the wire");
        t.is(Math.round(Number(printed) * 100), balance);
      },
    ),
    { numRuns: 60 },
  );
});
