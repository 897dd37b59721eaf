// Every input the gateway refuses, on every table route: the answer is the 4xx of decisions.md with
// an `{ error }` body, and no backend is ever called, so no balance can change.
import test, { type ExecutionContext } from "ava";
import { PATH_NOT_DECODABLE } from "../src/http/errors.js";
import { startApp, type TestApp } from "./helpers/app.js";

// `invalid` only ever receives refused requests: any backend call on it fails the test.
let invalid: TestApp;
test.before(async () => {
  invalid = await startApp();
});
test.after.always(() => invalid.close());

interface Route {
  name: string;
  method: "GET" | "POST";
  path: (tableId: string) => string;
  /** A body the route accepts. */
  body?: Record<string, unknown>;
}

const SIT: Route = { name: "sit", method: "POST", path: (id) => `/api/tables/${id}/sit`, body: { buyInAmount: 50 } };
const TOPUP: Route = { name: "topup", method: "POST", path: (id) => `/api/tables/${id}/topup`, body: { amount: 25 } };
const BET: Route = {
  name: "bet",
  method: "POST",
  path: (id) => `/api/tables/${id}/bet`,
  body: { seatIndex: 2, handIndex: 1, betAmount: 10 },
};
const LEAVE: Route = { name: "leave", method: "POST", path: (id) => `/api/tables/${id}/leave` };
const ADVANCE: Route = { name: "advance", method: "POST", path: (id) => `/api/tables/${id}/advance` };
const STATE: Route = { name: "state", method: "GET", path: (id) => `/api/tables/${id}/state` };
const TABLE_ROUTES = [SIT, TOPUP, BET, LEAVE, ADVANCE, STATE];
const MONEY_ROUTES: [Route, string][] = [
  [SIT, "buyInAmount"],
  [TOPUP, "amount"],
  [BET, "betAmount"],
];
const BODY_ROUTES = [SIT, TOPUP, BET];
const KEYED_ROUTES = [SIT, TOPUP, BET, LEAVE];

interface Send {
  tableId?: string;
  /** A string is sent as raw JSON text. */
  body?: unknown;
  headers?: Record<string, string>;
  token?: string | null;
}

function send(route: Route, { tableId = "7", body = route.body, headers = {}, token }: Send = {}) {
  const auth: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token ?? invalid.token}` };
  const hasBody = route.method === "POST" && body !== undefined;
  return fetch(invalid.url + route.path(tableId), {
    method: route.method,
    headers: { ...auth, ...(hasBody ? { "content-type": "application/json" } : {}), ...headers },
    body: hasBody ? (typeof body === "string" ? body : JSON.stringify(body)) : undefined,
  });
}

async function assertRefused(
  t: ExecutionContext,
  response: Response,
  status: number,
  error: string | RegExp,
  what: string,
) {
  const json = (await response.json()) as { error: unknown };
  t.is(response.status, status, what);
  t.deepEqual(Object.keys(json), ["error"], what);
  if (typeof error === "string") t.is(json.error, error, what);
  else t.regex(String(json.error), error, what);
  t.is(invalid.backendCalls(), 0, `${what}: no backend was called`);
}

const TABLE_ID_RULE = "tableId must be an integer of at least 1, in plain decimal digits";

test("a path whose %-escapes do not decode is a 400 that says so, on every table route", async (t) => {
  for (const route of TABLE_ROUTES) {
    for (const tableId of ["%zz", "%E0", "1%"]) {
      await assertRefused(t, await send(route, { tableId }), 400, PATH_NOT_DECODABLE, `${route.name} ${tableId}`);
    }
  }
});

test("a tableId that is not an integer >= 1 in plain digits is a 400 on every table route", async (t) => {
  const refused = ["0", "-1", "abc", "1.5", "1e3", "01", "007", "+1", "0x10", "%201", "1%20", "%EF%BC%91", "Infinity"];
  for (const route of TABLE_ROUTES) {
    for (const tableId of refused) {
      await assertRefused(t, await send(route, { tableId }), 400, TABLE_ID_RULE, `${route.name} ${tableId}`);
    }
  }
});

test("a tableId beyond any table (int32) is the table service's 404, without asking it", async (t) => {
  for (const route of TABLE_ROUTES) {
    for (const tableId of ["2147483648", "99999999999999999999999"]) {
      await assertRefused(t, await send(route, { tableId }), 404, `no table ${tableId}`, `${route.name} ${tableId}`);
    }
  }
});

test("no token or a bad one is a 401 on every route but the lobby", async (t) => {
  for (const route of TABLE_ROUTES) {
    const missing = await send(route, { token: null });
    await assertRefused(t, missing, 401, "Authorization header is missing", route.name);
    t.is(missing.headers.get("www-authenticate"), "Bearer");
    await assertRefused(t, await send(route, { token: "a.b.c" }), 401, /^Authorization header is invalid/, route.name);
  }
  const player = await fetch(`${invalid.url}/api/players/player-1`);
  await assertRefused(t, player, 401, "Authorization header is missing", "players");
});

test("the token is checked before the tableId", async (t) => {
  await assertRefused(t, await send(SIT, { tableId: "abc", token: null }), 401, /missing/, "sit");
});

const MONEY_RULE = "must be a number greater than 0 and at most 1,000,000,000 with at most 2 decimal places";

test("amounts: zero, negative, 3 decimals, too large, non-finite and non-numbers are 400s", async (t) => {
  // Raw JSON text, as a client would send it: -0, 1e309 (Infinity) and 2^53 + 1 reach the parser intact.
  const refused = [
    "0",
    "-0",
    "0.0",
    "-5",
    "-0.01",
    "1.234",
    "0.001",
    "10.005",
    "1000000000.01",
    "1e10",
    "1e309",
    "-1e309",
    "9007199254740993",
    '"10"',
    '"10.00"',
    "null",
    "true",
    "[10]",
    '{"units":10}',
  ];
  for (const [route, field] of MONEY_ROUTES) {
    for (const amount of refused) {
      const body = JSON.stringify({ ...route.body, [field]: "<amount>" }).replace('"<amount>"', amount);
      await assertRefused(t, await send(route, { body }), 400, `${field} ${MONEY_RULE}`, `${route.name} ${amount}`);
    }
    const { [field]: _omitted, ...missing } = route.body!;
    await assertRefused(t, await send(route, { body: missing }), 400, `${field} is required`, route.name);
  }
});

test("NaN and Infinity are not JSON", async (t) => {
  for (const [route, field] of MONEY_ROUTES) {
    for (const amount of ["NaN", "Infinity", "0x10", "1_000", ".5", "5."]) {
      const body = JSON.stringify({ ...route.body, [field]: "<amount>" }).replace('"<amount>"', amount);
      await assertRefused(t, await send(route, { body }), 400, "request body is not valid JSON", amount);
    }
  }
});

test("malformed JSON, non-objects, an absent body and unknown properties are 400s", async (t) => {
  for (const route of BODY_ROUTES) {
    for (const text of ['{"amount":', "{amount: 10}", "{'amount': 10}", '{"a":1}}', "\u00ff"]) {
      await assertRefused(t, await send(route, { body: text }), 400, "request body is not valid JSON", route.name);
    }
    for (const text of ["[]", "null", "3", '"x"', "true"]) {
      await assertRefused(t, await send(route, { body: text }), 400, "request body must be a JSON object", text);
    }
    const absent = await fetch(invalid.url + route.path("7"), {
      method: "POST",
      headers: { authorization: `Bearer ${invalid.token}` },
    });
    await assertRefused(t, absent, 400, "request body must be a JSON object", `${route.name} without a body`);
    for (const extra of ["seat", "tableId", "__proto__", "constructor"]) {
      const body = `{${JSON.stringify(extra)}:1,${JSON.stringify(route.body).slice(1)}`;
      await assertRefused(t, await send(route, { body }), 400, `unknown property "${extra}"`, extra);
    }
  }
});

test("a body naming a field twice is refused, whichever value comes first", async (t) => {
  for (const [route, field] of MONEY_ROUTES) {
    const once = JSON.stringify(route.body);
    // Also spelled with an escape: JSON.parse reads both as one name and keeps the last value.
    for (const spelling of [JSON.stringify(field), `"\\u00${field.charCodeAt(0).toString(16)}${field.slice(1)}"`]) {
      const body = `{${spelling}:900,${once.slice(1)}`;
      await assertRefused(
        t,
        await send(route, { body }),
        400,
        `request body has the field "${field}" more than once`,
        body,
      );
    }
  }
  const nested = '{"buyInAmount":50,"x":{"a":1,"a":2}}';
  await assertRefused(
    t,
    await send(SIT, { body: nested }),
    400,
    'request body has the field "a" more than once',
    nested,
  );
});

test("leave takes no body and advance no more than from: an empty object at most", async (t) => {
  for (const route of [LEAVE, ADVANCE]) {
    await assertRefused(
      t,
      await send(route, { body: { playerId: "player-2" } }),
      400,
      'unknown property "playerId"',
      route.name,
    );
    await assertRefused(t, await send(route, { body: { x: 1 } }), 400, 'unknown property "x"', route.name);
    await assertRefused(t, await send(route, { body: "[]" }), 400, "request body must be a JSON object", route.name);
    await assertRefused(t, await send(route, { body: "null" }), 400, "request body must be a JSON object", route.name);
    await assertRefused(t, await send(route, { body: "{" }), 400, "request body is not valid JSON", route.name);
  }
});

test("advance's from names a game and a state a table is in, or is a 400", async (t) => {
  const from = (value: unknown) => send(ADVANCE, { body: { from: value } });
  const STATES = "one of STATUS_SETUP, STATUS_START, STATUS_HOLE, STATUS_FLOP, STATUS_TURN, STATUS_RIVER";
  for (const gameState of ["UNCHANGED", "STATUS_FLOP_CARD1", "status_hole", 3, null]) {
    await assertRefused(
      t,
      await from({ gameId: "T7-1", gameState }),
      400,
      `from.gameState must be ${STATES}`,
      `${gameState}`,
    );
  }
  const ID_RULE = "from.gameId must be 1 to 128 visible ASCII characters";
  for (const gameId of ["", "T7 1", "x".repeat(129), "T7-\u00e9", 7, null]) {
    await assertRefused(t, await from({ gameId, gameState: "STATUS_HOLE" }), 400, ID_RULE, String(gameId));
  }
  await assertRefused(t, await from({ gameId: "T7-1" }), 400, "from.gameState is required", "no state");
  await assertRefused(t, await from({ gameState: "STATUS_HOLE" }), 400, "from.gameId is required", "no game");
  await assertRefused(
    t,
    await from({ gameId: "T7-1", gameState: "STATUS_HOLE", stage: 0 }),
    400,
    'unknown property "from.stage"',
    "more than a game and a state",
  );
  await assertRefused(t, await from("T7-1:STATUS_HOLE"), 400, "from must be a JSON object", "a string");
});

test("a bet's at names a game and a betting stage, or is a 400", async (t) => {
  const at = (value: unknown) => send(BET, { body: { ...BET.body, at: value } });
  for (const bettingStage of [-1, 3, 0.5, "1", null]) {
    const what = `stage ${String(bettingStage)}`;
    await assertRefused(
      t,
      await at({ gameId: "T7-1", bettingStage }),
      400,
      "at.bettingStage must be one of 0, 1, 2",
      what,
    );
  }
  for (const gameId of ["", "T7 1", "x".repeat(129), 7]) {
    const rule = "at.gameId must be 1 to 128 visible ASCII characters";
    await assertRefused(t, await at({ gameId, bettingStage: 1 }), 400, rule, String(gameId));
  }
  await assertRefused(t, await at({ gameId: "T7-1" }), 400, "at.bettingStage is required", "no stage");
  await assertRefused(
    t,
    await at({ bettingStage: 1, gameId: "T7-1", odds: 3.4 }),
    400,
    'unknown property "at.odds"',
    "odds",
  );
});

test("playerId, seatIndex and handIndex of the wrong type or range are 400s", async (t) => {
  const PLAYER_RULE = "playerId must be a string of 1 to 256 characters, not only blanks, without control characters";
  for (const route of BODY_ROUTES) {
    for (const playerId of ["", "x".repeat(257), 5, null, ["player-1"]]) {
      await assertRefused(t, await send(route, { body: { ...route.body, playerId } }), 400, PLAYER_RULE, route.name);
    }
  }
  for (const field of ["seatIndex", "handIndex"]) {
    for (const value of [-1, 1.5, "0", null, true, 2 ** 31, 1e21]) {
      const body = { ...BET.body, [field]: value };
      await assertRefused(
        t,
        await send(BET, { body }),
        400,
        // Any game has at most 6 hands; a seat number is the table service's to check.
        `${field} must be an integer from 0 to ${field === "handIndex" ? 5 : 2147483647}`,
        `${field} ${value}`,
      );
    }
    const { [field]: _omitted, ...missing } = BET.body!;
    await assertRefused(t, await send(BET, { body: missing }), 400, `${field} is required`, field);
  }
});

test("a body that is not JSON is a 415; one over 64 KiB is a 413", async (t) => {
  for (const route of [...BODY_ROUTES, LEAVE, ADVANCE]) {
    const form = await send(route, {
      body: "amount=5",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await assertRefused(t, form, 415, "request body must be JSON (Content-Type: application/json)", route.name);
    const huge = JSON.stringify({ ...route.body, padding: "x".repeat(70 * 1024) });
    await assertRefused(t, await send(route, { body: huge }), 413, "request body must be at most 64 KiB", route.name);
  }
});

const KEY_RULE = "Idempotency-Key must be 1 to 128 visible ASCII characters without spaces";

test("an Idempotency-Key that is empty, too long, or has spaces or other characters is a 400", async (t) => {
  for (const route of KEYED_ROUTES) {
    for (const key of ["", "k".repeat(129), "has space", "tab\there", "caf\u00e9"]) {
      const response = await send(route, { headers: { "idempotency-key": key } });
      await assertRefused(t, response, 400, KEY_RULE, `${route.name} ${JSON.stringify(key)}`);
    }
    // Sent twice, Node joins the values with ", ": refused, not read as one key.
    const twice = new Headers({ authorization: `Bearer ${invalid.token}`, "content-type": "application/json" });
    twice.append("idempotency-key", "a");
    twice.append("idempotency-key", "b");
    const response = await fetch(invalid.url + route.path("7"), {
      method: "POST",
      headers: twice,
      body: route.body ? JSON.stringify(route.body) : undefined,
    });
    await assertRefused(t, response, 400, KEY_RULE, `${route.name} with two keys`);
  }
});

const ACTING_RULE = "playerId must be the token's subject unless the caller is an ADMIN";

test("acting for another player without the ADMIN role is a 403", async (t) => {
  for (const role of [undefined, "BASIC_USER", "PAYING_USER", "ANON_USER"] as const) {
    const token = await invalid.tokenFor("player-1", role);
    for (const route of BODY_ROUTES) {
      for (const playerId of ["player-2", "PLAYER-1", "player-1 ", "admin"]) {
        const response = await send(route, { body: { ...route.body, playerId }, token });
        await assertRefused(t, response, 403, ACTING_RULE, `${role} ${route.name} ${playerId}`);
      }
    }
    const profile = await fetch(`${invalid.url}/api/players/player-2`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await assertRefused(t, profile, 403, ACTING_RULE, `${role} reads player-2`);
  }
});

test("a playerId path parameter longer than 256 characters is a 400", async (t) => {
  const response = await fetch(`${invalid.url}/api/players/${"x".repeat(257)}`, {
    headers: { authorization: `Bearer ${await invalid.tokenFor("player-1", "ADMIN")}` },
  });
  await assertRefused(
    t,
    response,
    400,
    "playerId must be a string of 1 to 256 characters, not only blanks, without control characters",
    "players",
  );
});
