import test from "ava";
import { gzipSync } from "node:zlib";
import { HandStatus, type GenerateBulkResponse } from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import type { ServerStream } from "@pokerodds/common";
import { post, startApp, streamOf, type TestApp } from "./helpers/app.js";
import { bulkResponse, COMMITMENT, dealResponse, SEED } from "./helpers/fixtures.js";
import { assertMatchesSchema, type SchemaName } from "./helpers/schemas.js";

// `invalid` only ever receives invalid requests, so its odds service must never be called.
let app: TestApp;
let invalid: TestApp;
test.before(async () => {
  [app, invalid] = await Promise.all([startApp(), startApp()]);
});
test.after.always(() => Promise.all([app.close(), invalid.close()]));

async function assertBadRequest(
  t: import("ava").ExecutionContext,
  path: string,
  body: unknown,
  message: string | RegExp,
) {
  const response = await post(invalid, path, body);
  const json = (await response.json()) as { error: string };
  t.is(response.status, 400, `${path} ${JSON.stringify(body)}`);
  if (typeof message === "string") t.is(json.error, message);
  else t.regex(json.error, message);
  t.deepEqual(Object.keys(json), ["error"]);
  t.is(invalid.odds.calls.length, 0, "an invalid request never reaches the service");
}

const HANDS_2_TO_6 = "numberOfHands must be an integer from 2 to 6";

test("deal: numberOfHands outside 2..6 or not an integer is a 400", async (t) => {
  // Raw JSON text, so -0, 1e309 (Infinity) and 2^53 + 1 reach the parser as a client would send them.
  for (const value of [
    "1",
    "7",
    "64",
    "2.5",
    '"4"',
    "null",
    "-0",
    "true",
    "0",
    "-4",
    "1e309",
    "9007199254740993",
    "[4]",
    '{"n":4}',
  ]) {
    await assertBadRequest(t, "/api/deal", `{"numberOfHands":${value}}`, HANDS_2_TO_6);
  }
});

test("deal and bulk: unknown properties, non-objects and malformed JSON are 400s", async (t) => {
  for (const path of ["/api/deal", "/api/games/bulk"]) {
    await assertBadRequest(t, path, { numberOfHands: 3, extra: 1 }, 'unknown property "extra"');
    await assertBadRequest(t, path, [], "request body must be a JSON object");
    await assertBadRequest(t, path, [{ numberOfHands: 3 }], "request body must be a JSON object");
    await assertBadRequest(t, path, "null", "request body must be a JSON object");
    await assertBadRequest(t, path, "3", "request body must be a JSON object");
    await assertBadRequest(t, path, '"x"', "request body must be a JSON object");
    await assertBadRequest(t, path, '{"numberOfHands":', "request body is not valid JSON");
    await assertBadRequest(t, path, "{numberOfHands: 3}", "request body is not valid JSON");
    await assertBadRequest(t, path, "{'numberOfHands': 3}", "request body is not valid JSON");
  }
});

test("bulk: every field outside its limits is a 400", async (t) => {
  for (const numberOfGames of [0, 201, 1.5, -1, "50", null, true]) {
    await assertBadRequest(t, "/api/games/bulk", { numberOfGames }, "numberOfGames must be an integer from 1 to 200");
  }
  for (const numberOfHands of [2, 5, 3.5, "3", null, 0]) {
    await assertBadRequest(t, "/api/games/bulk", { numberOfHands }, "numberOfHands must be 3 or 4");
  }
  for (const targetRtp of [0, 1, -0.1, 1.5, "0.97", null, false]) {
    await assertBadRequest(
      t,
      "/api/games/bulk",
      { targetRtp },
      "targetRtp must be a number greater than 0 and less than 1",
    );
  }
  await assertBadRequest(
    t,
    "/api/games/bulk",
    '{"targetRtp":1e309}',
    "targetRtp must be a number greater than 0 and less than 1",
  );
  await assertBadRequest(
    t,
    "/api/games/bulk",
    '{"targetRtp":-0}',
    "targetRtp must be a number greater than 0 and less than 1",
  );
});

test("a body over 64 KiB is a 413; a body that is not JSON is a 415", async (t) => {
  const huge = JSON.stringify({ numberOfHands: 4, padding: "x".repeat(2 * 1024 * 1024) });
  for (const path of ["/api/deal", "/api/games/bulk"]) {
    const response = await post(app, path, huge);
    t.is(response.status, 413);
    t.deepEqual(await response.json(), { error: "request body must be at most 64 KiB" });
    const form = await post(app, path, "numberOfHands=4", { "content-type": "application/x-www-form-urlencoded" });
    t.is(form.status, 415);
    t.is(typeof ((await form.json()) as { error: unknown }).error, "string");
    const text = await fetch(app.url + path, {
      method: "POST",
      headers: { authorization: `Bearer ${app.token}` },
      body: '{"numberOfHands":4}',
    });
    t.is(text.status, 415, "fetch sends a string as text/plain");
  }
  const justUnder = JSON.stringify({ numberOfHands: 4 }) + " ".repeat(64 * 1024 - 20);
  t.is((await post(app, "/api/deal", justUnder)).status, 200);
});

test("a compressed body or one in another charset than UTF-8 is a 415: the size limit counts what is read", async (t) => {
  // 10 MB of empty gzip members inflate to nothing: read whole, they would pass a limit on inflated bytes.
  const empty = gzipSync(Buffer.alloc(0));
  const bomb = Buffer.concat([...Array.from({ length: 10_000 }, () => empty), gzipSync('{"numberOfHands":3}')]);
  const compressed = await fetch(app.url + "/api/deal", {
    method: "POST",
    headers: { authorization: `Bearer ${app.token}`, "content-type": "application/json", "content-encoding": "gzip" },
    body: bomb,
  });
  t.is(compressed.status, 415);
  t.deepEqual(await compressed.json(), { error: "request body must not be compressed (Content-Encoding)" });
  for (const charset of ["utf-7", "utf-16le", "UTF-32", "latin1", '"utf-16"']) {
    const response = await post(app, "/api/deal", '{"numberOfHands":3}', {
      "content-type": `application/json; charset=${charset}`,
    });
    t.is(response.status, 415, charset);
    t.deepEqual(await response.json(), { error: "request body must be UTF-8 JSON" });
  }
  for (const charset of ["utf-8", "UTF-8", '"utf-8"']) {
    const response = await post(app, "/api/deal", '{"numberOfHands":3}', {
      "content-type": `application/json; charset=${charset}`,
    });
    t.is(response.status, 200, charset);
  }
});

test("an unknown route is a 404 with an error body, with or without a token; paths are exact", async (t) => {
  for (const [method, path] of [
    ["GET", "/api/nope"],
    ["GET", "/"],
    ["POST", "/API/DEAL"],
    ["GET", "/API/TABLES"],
    ["POST", "/api/deal/"],
    ["GET", "/api/tables/"],
  ] as const) {
    for (const headers of [{} as Record<string, string>, { authorization: `Bearer ${app.token}` }]) {
      const response = await fetch(app.url + path, { method, headers });
      t.is(response.status, 404, `${method} ${path}`);
      t.regex(response.headers.get("content-type") ?? "", /^application\/json/);
      t.deepEqual(await response.json(), { error: `no such endpoint: ${method} ${path}` });
    }
  }
});

test("a known path with a wrong method is a 405 with Allow and an error body, with or without a token", async (t) => {
  for (const [method, path, allow] of [
    ["GET", "/api/deal", "POST"],
    ["POST", "/api/health", "GET, HEAD"],
    ["DELETE", "/api/games/bulk", "POST"],
    ["PUT", "/api/tables/1/sit", "POST"],
    ["POST", "/api/tables/1/state", "GET, HEAD"],
  ] as const) {
    for (const headers of [{} as Record<string, string>, { authorization: `Bearer ${app.token}` }]) {
      const response = await fetch(app.url + path, { method, headers });
      t.is(response.status, 405, `${method} ${path}`);
      t.is(response.headers.get("allow"), allow);
      t.regex(response.headers.get("content-type") ?? "", /^application\/json/);
      t.deepEqual(await response.json(), { error: `method ${method} is not allowed here; allowed: ${allow}` });
    }
  }
});

test.serial("deal: absent body or field means 4 hands; the result is mapped to the spec's JSON", async (t) => {
  for (const body of [undefined, {}, "", { numberOfHands: 4 }]) {
    app.odds.calls.length = 0;
    const response = await post(app, "/api/deal", body, body === "" ? { "content-type": "application/json" } : {});
    t.is(response.status, 200);
    // No game id: the odds service names a stand-alone deal itself.
    t.deepEqual(app.odds.calls[0]?.request, { numberOfHands: 4 });
    const json = (await response.json()) as { hands: string[]; handOdds: unknown[]; remainingDeck: string[] };
    t.is(json.hands.length, 4);
    t.is(json.remainingDeck.length, 44);
  }
  const response = await post(app, "/api/deal", { numberOfHands: 2 });
  const expected = dealResponse(2);
  t.deepEqual(await response.json(), {
    hands: expected.hands,
    handOdds: [
      {
        handIndex: 0,
        bettingStage: 0,
        handStatus: "IN_PLAY_FAVOURITE",
        winPercentage: 40.5,
        drawPercentage: 1.25,
        odds: 2.3,
      },
      {
        handIndex: 1,
        bettingStage: 0,
        handStatus: "IN_PLAY_BETTING_STAGE_ACTIVE",
        winPercentage: 19.8,
        drawPercentage: 1.25,
        odds: 4.9,
      },
    ],
    remainingDeck: expected.remainingDeck,
    gameId: "DEAL-1",
    serverSeed: SEED,
    seedCommitment: COMMITMENT,
  });
  t.deepEqual(app.odds.calls.at(-1)?.options?.deadlineMs, 5000);
});

test.serial(
  "bulk: absent body means 50 games of 3 hands at 0.97; the result is mapped to the spec's JSON",
  async (t) => {
    app.odds.calls.length = 0;
    const response = await post(app, "/api/games/bulk");
    t.is(response.status, 200);
    t.deepEqual(app.odds.calls[0]?.request, { numberOfGames: 50, numberOfHands: 3, targetRtp: 0.97 });
    t.is(app.odds.calls[0]?.options?.deadlineMs, 30_000);
    const json = (await response.json()) as { games: unknown[]; numberOfGames: number };
    t.is(json.games.length, 50);
    t.is(json.numberOfGames, 50);

    const partial = await post(app, "/api/games/bulk", { numberOfHands: 4, targetRtp: 0.9 });
    t.deepEqual(app.odds.calls.at(-1)?.request, { numberOfGames: 50, numberOfHands: 4, targetRtp: 0.9 });
    t.is(partial.status, 200);

    const one = (await (
      await post(app, "/api/games/bulk", { numberOfGames: 1, numberOfHands: 3, targetRtp: 0.95 })
    ).json()) as Record<string, unknown>;
    const source = bulkResponse(1, 3).games[0]!;
    t.like(one, { numberOfGames: 1, numberOfHands: 3, targetRtp: 0.95, generatedAt: "2026-01-02T03:04:05.000Z" });
    const game = (one.games as Record<string, unknown>[])[0]!;
    t.like(game, { gameId: "BULK-0001", numberOfHands: 3, numberOfBettingStages: 3, hands: source.hands });
    t.deepEqual([game.bc1, game.bc2, game.bc3, game.bc4, game.bc5], source.board);
    const stages = game.handStageInfoList as Record<string, unknown>[];
    t.is(stages.length, 12);
    t.like(stages[0], {
      handIndex: 0,
      bettingStage: 0,
      bestFiveCards: null,
      handDescShort: null,
      handDescLong: null,
      statusIsFavourite: true,
    });
    t.like(stages[11], {
      handIndex: 2,
      bettingStage: -1,
      bestFiveCards: "Ah Kh Qh Jh Th",
      handDescShort: "Royal flush",
    });
    t.deepEqual(Object.keys(stages[0]!).sort(), [
      "actualRtp",
      "bestFiveCards",
      "bettingStage",
      "handDescLong",
      "handDescShort",
      "handIndex",
      "oddsActual",
      "oddsMargin",
      "oddsRounded",
      "percentDraw",
      "percentWin",
      "percentWinOrDraw",
      "roundingRake",
      "statusBestRtp",
      "statusCantLose",
      "statusIsFavourite",
      "statusIsWinner",
    ]);
  },
);

test.serial("responses match the OpenAPI document's schemas", async (t) => {
  const check = async (path: string, body: unknown, schema: SchemaName) =>
    assertMatchesSchema(t, schema, await (await post(app, path, body)).json());
  for (const numberOfHands of [2, 4, 6]) await check("/api/deal", { numberOfHands }, "DealResult");
  for (const numberOfHands of [3, 4])
    await check("/api/games/bulk", { numberOfGames: 3, numberOfHands }, "BulkResponse");
});

test.serial("the request id is echoed and passed to the service; an untrusted one is replaced", async (t) => {
  const mine = await post(app, "/api/deal", undefined, { "x-request-id": "req-42.a:b" });
  t.is(mine.headers.get("x-request-id"), "req-42.a:b");
  t.is(app.odds.calls.at(-1)?.options?.requestId, "req-42.a:b");
  for (const bad of ["x".repeat(129), "has space", "semi;colon", "é"]) {
    const response = await post(app, "/api/deal", undefined, { "x-request-id": bad });
    const id = response.headers.get("x-request-id") ?? "";
    t.regex(id, /^[0-9a-f-]{36}$/);
    t.is(app.odds.calls.at(-1)?.options?.requestId, id);
  }
  const none = await post(app, "/api/deal");
  t.regex(none.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
});

test("a reply that breaks the contract is a 500 that hides the details", async (t) => {
  const broken = await startApp({
    odds: {
      deal: async () => ({
        ...dealResponse(4),
        handOdds: [{ ...dealResponse(4).handOdds[0]!, handStatus: HandStatus.HAND_STATUS_UNSPECIFIED }],
      }),
      generateBulk: () =>
        streamOf(async () => [{ ...bulkResponse(1, 3), games: [{ ...bulkResponse(1, 3).games[0]!, board: ["Ah"] }] }]),
    },
  });
  t.teardown(() => broken.close());
  for (const path of ["/api/deal", "/api/games/bulk"]) {
    const response = await post(broken, path);
    t.is(response.status, 500);
    t.deepEqual(await response.json(), { error: "internal error" });
  }
});

test("an odds service that streams more games than asked is cut off at the first one too many: a 500", async (t) => {
  let sent = 0;
  let cancelled = false;
  const endless: ServerStream<GenerateBulkResponse> = {
    accepted: Promise.resolve(),
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          sent += 1;
          yield { ...bulkResponse(1, 3), games: bulkResponse(1, 3).games };
        }
      } finally {
        cancelled = true;
      }
    },
  };
  const flooded = await startApp({ odds: { generateBulk: () => endless } });
  t.teardown(() => flooded.close());
  const response = await post(flooded, "/api/games/bulk", { numberOfGames: 10, numberOfHands: 3 });
  t.is(response.status, 500);
  t.deepEqual(await response.json(), { error: "internal error" });
  t.is(sent, 11, "no piece read past the eleventh game");
  t.true(cancelled, "the stream was given up");
});

test("headers: no x-powered-by, no caching", async (t) => {
  const response = await post(app, "/api/deal");
  t.is(response.headers.get("x-powered-by"), null);
  t.is(response.headers.get("cache-control"), "no-store");
});

test("a query parameter the operation does not declare is a 400 naming it, on every route but health", async (t) => {
  await assertBadRequest(
    t,
    "/api/deal?numberOfHands=6",
    { numberOfHands: 3 },
    'unknown query parameter "numberOfHands"; this operation takes none',
  );
  for (const path of ["/api/tables?page=2", "/api/tables/1/state?v=1", "/api/openapi.json?x"]) {
    const response = await fetch(invalid.url + path, { headers: { authorization: `Bearer ${invalid.token}` } });
    t.is(response.status, 400, path);
    t.regex(((await response.json()) as { error: string }).error, /^unknown query parameter "(page|v|x)"/, path);
  }
  const export_ = await fetch(invalid.url + "/api/admin/games?table=1", {
    headers: { authorization: `Bearer ${await invalid.tokenFor("admin-1", "ADMIN")}` },
  });
  t.deepEqual(await export_.json(), {
    error: 'unknown query parameter "table"; it takes tableId, finishedAfter, finishedBefore, after',
  });
  t.is(invalid.backendCalls(), 0, "no refused request reached a service");
  t.is((await fetch(invalid.url + "/api/health?probe=1")).status, 200, "a probe is never refused");
});
