// Bad input on every route of the game, through the whole stack: each is answered with the 4xx of
// decisions.md and an { error } body, never a 5xx, and never moves money: the account (profile) and
// the seat (state) of the player sending it are the same afterwards.
import test, { type ExecutionContext } from "ava";
import fc from "fast-check";
import {
  Api,
  cents,
  errorOf,
  show,
  WELCOME_CENTS,
  type Player,
  type Reply,
  type RequestOptions,
} from "../helpers/api.js";
import { expectAck, expectError } from "../helpers/expect.js";
import { expectMoneyConserved } from "../helpers/money.js";
import { stackPerFile } from "../helpers/stack.js";

const file = stackPerFile(test);
let api: Api;
let victim: Player;
let other: Player;
let admin: Player;
/** Every player welcomed here, for the final books. */
const everyone: Player[] = [];
const TABLE = 1;
let seatId: number;

test.before(async () => {
  const stack = await file.ready;
  api = new Api(stack.url, stack.dataDir);
  [victim, other, admin] = await Promise.all([api.player("victim"), api.player("other"), api.player("boss", "ADMIN")]);
  for (const player of [victim, other, admin]) await player.profile();
  everyone.push(victim, other, admin);
  const sat = await victim.sit(TABLE, 100);
  if (sat.body.acknowledgement !== "ACK") throw new Error(show(sat));
  seatId = sat.body.seatId;
  // At the hole, so that a well-formed bet would be accepted: only the bad part can refuse it.
  const hole = await victim.advance(TABLE);
  if (hole.body.gameState !== "STATUS_HOLE") throw new Error(show(hole));
});

/** The victim's account and seat, in cents, and the bets at the table. */
async function snapshot() {
  const state = await victim.readState(TABLE);
  return {
    account: await victim.balance(),
    seat: state.seats.find((s) => s.playerId === victim.id)?.seatBalance,
    bets: state.bets.length,
    gameState: state.gameState,
  };
}

interface Case {
  what: string;
  method: "GET" | "POST";
  path: string;
  options?: RequestOptions;
  /** Sent by this player (the victim by default); null for no token. */
  as?: Player | null;
  status: number;
}

/** Sends every case, checks each answer, and that nothing moved. */
async function expectRefusals(t: ExecutionContext, cases: Case[]): Promise<void> {
  const before = await snapshot();
  for (const c of cases) {
    const token = c.as === null ? null : (c.as ?? victim).token;
    const reply: Reply = await api.request(token, c.method, c.path, c.options);
    t.true(reply.status < 500, `never a 5xx: ${c.what}: ${show(reply)}`);
    expectError(t, reply, c.status);
    if (reply.status !== c.status) t.log(`${c.what}: ${show(reply)}`);
  }
  t.deepEqual(await snapshot(), before, "nothing moved");
  t.log(`${cases.length} refusals checked`);
}

const json = (body: unknown): RequestOptions => ({ body });
const raw = (rawBody: string, contentType?: string): RequestOptions => ({ rawBody, contentType });

/** Amount values that are not money (decisions.md: finite, > 0, at most 2 decimals, at most 1e9). */
const BAD_AMOUNTS: [string, string][] = [
  ["three decimals", "1.234"],
  ["three decimals that round to a cent", "10.001"],
  ["a float sum", "0.30000000000000004"],
  ["negative", "-5"],
  ["zero", "0"],
  ["negative zero", "-0"],
  ["over 1,000,000,000", "1000000000.01"],
  ["huge", "1e15"],
  ["overflowing to Infinity", "1e309"],
  ["a string", '"10"'],
  ["a numeric string with decimals", '"10.50"'],
  ["a boolean", "true"],
  ["null", "null"],
  ["an object", '{"value":10}'],
  ["an array", "[10]"],
];

/** Bodies that are not the request object at all. */
const BAD_BODIES: [string, RequestOptions][] = [
  ["malformed JSON", raw('{"x": 10')],
  ["a trailing comma", raw('{"x": 10,}')],
  ["single quotes", raw("{'x': 10}")],
  ["an array", raw("[]")],
  ["null", raw("null")],
  ["a bare number", raw("10")],
  ["a string", raw('"hello"')],
];

/** tableIds that are not an integer >= 1 in plain digits: 400. */
const BAD_TABLE_IDS = ["0", "-1", "abc", "1.5", "01", "+1", "1e1", "0x1", "%201", "1%20", "NaN", "Infinity"];
/** Well-formed ids of tables that do not exist: 404. */
const UNKNOWN_TABLE_IDS = ["999", "21", "1000", "1999", "2147483647", "2147483648", "99999999999999999999"];

function moneyRouteCases(route: "sit" | "topup" | "bet", field: string, valid: Record<string, unknown>): Case[] {
  const path = `/api/tables/${TABLE}/${route}`;
  const withValue = (value: string) => {
    const others = Object.entries(valid)
      .filter(([name]) => name !== field)
      .map(([name, v]) => `${JSON.stringify(name)}:${JSON.stringify(v)}`);
    return raw(`{${[...others, `${JSON.stringify(field)}:${value}`].join(",")}}`);
  };
  return [
    ...BAD_AMOUNTS.map(([what, value]): Case => ({
      what: `${route}: ${field} ${what}`,
      method: "POST",
      path,
      options: withValue(value),
      status: 400,
    })),
    ...BAD_BODIES.map(([what, options]): Case => ({
      what: `${route}: ${what}`,
      method: "POST",
      path,
      options,
      status: 400,
    })),
    { what: `${route}: no body`, method: "POST", path, status: 400 },
    { what: `${route}: empty object`, method: "POST", path, options: json({}), status: 400 },
    {
      what: `${route}: ${field} missing`,
      method: "POST",
      path,
      options: json({ ...valid, [field]: undefined }),
      status: 400,
    },
    { what: `${route}: an unknown property`, method: "POST", path, options: json({ ...valid, extra: 1 }), status: 400 },
    {
      what: `${route}: a misspelt field`,
      method: "POST",
      path,
      options: json({ ...valid, [field]: undefined, [`${field}s`]: 1 }),
      status: 400,
    },
    {
      what: `${route}: playerId a number`,
      method: "POST",
      path,
      options: json({ ...valid, playerId: 7 }),
      status: 400,
    },
    { what: `${route}: playerId empty`, method: "POST", path, options: json({ ...valid, playerId: "" }), status: 400 },
    {
      what: `${route}: for another player`,
      method: "POST",
      path,
      options: json({ ...valid, playerId: "other" }),
      status: 403,
    },
    {
      what: `${route}: not JSON`,
      method: "POST",
      path,
      options: raw("buyInAmount=10", "application/x-www-form-urlencoded"),
      status: 415,
    },
    {
      what: `${route}: too large`,
      method: "POST",
      path,
      options: raw(JSON.stringify({ ...valid, pad: "x".repeat(70_000) })),
      status: 413,
    },
    { what: `${route}: no token`, method: "POST", path, options: json(valid), as: null, status: 401 },
    {
      what: `${route}: a bad token`,
      method: "POST",
      path,
      options: { body: valid, headers: { authorization: "Bearer not.a.token" } },
      as: null,
      status: 401,
    },
    {
      what: `${route}: an Idempotency-Key with a space`,
      method: "POST",
      path,
      options: { body: valid, key: "a b" },
      status: 400,
    },
    {
      what: `${route}: an Idempotency-Key too long`,
      method: "POST",
      path,
      options: { body: valid, key: "k".repeat(129) },
      status: 400,
    },
    ...BAD_TABLE_IDS.map((id): Case => ({
      what: `${route}: tableId ${id}`,
      method: "POST",
      path: `/api/tables/${id}/${route}`,
      options: json(valid),
      status: 400,
    })),
    ...UNKNOWN_TABLE_IDS.map((id): Case => ({
      what: `${route}: unknown table ${id}`,
      method: "POST",
      path: `/api/tables/${id}/${route}`,
      options: json(valid),
      status: 404,
    })),
  ];
}

test.serial("sit: bad amounts, bodies, tableIds, tokens and keys are refused; nothing moves", async (t) => {
  // `other` is not seated: a valid sit would move money, so each refusal is what keeps it still.
  const before = await other.balance();
  await expectRefusals(
    t,
    moneyRouteCases("sit", "buyInAmount", { buyInAmount: 10 }).map((c) => ({
      ...c,
      as: c.as === null ? null : other,
      ...(c.what.endsWith("for another player") ? { options: json({ buyInAmount: 10, playerId: "victim" }) } : {}),
    })),
  );
  t.is(await other.balance(), before);
  t.deepEqual(
    (await other.readState(TABLE)).seats.map((s) => s.playerId),
    ["victim"],
    "no seat was taken",
  );
});

test.serial("topup: bad amounts, bodies, tableIds, tokens and keys are refused; nothing moves", async (t) => {
  await expectRefusals(t, moneyRouteCases("topup", "amount", { amount: 10 }));
});

test.serial(
  "bet: bad amounts, seats, hands, bodies, tableIds, tokens and keys are refused; nothing moves",
  async (t) => {
    const valid = { seatIndex: seatId, handIndex: 0, betAmount: 1 };
    const path = `/api/tables/${TABLE}/bet`;
    const badIndex = (field: "seatIndex" | "handIndex", value: string): Case => ({
      what: `bet: ${field} ${value}`,
      method: "POST",
      path,
      options: raw(JSON.stringify({ ...valid, [field]: "@" }).replace('"@"', value)),
      status: 400,
    });
    const indexValues = ["-1", "1.5", '"0"', "null", "true", "2147483648", "9007199254740993", "1e400"];
    await expectRefusals(t, [
      ...moneyRouteCases("bet", "betAmount", valid),
      ...indexValues.map((value) => badIndex("seatIndex", value)),
      ...indexValues.map((value) => badIndex("handIndex", value)),
      {
        // A hand a game may have, but not this table's 4-hand games: the table's state.
        what: "bet: handIndex 4 of 4 hands",
        method: "POST",
        path,
        options: json({ ...valid, handIndex: 4 }),
        status: 409,
      },
      {
        what: "bet: handIndex 6, beyond any game's hands",
        method: "POST",
        path,
        options: json({ ...valid, handIndex: 6 }),
        status: 400,
      },
      {
        what: "bet: seatIndex missing",
        method: "POST",
        path,
        options: json({ handIndex: 0, betAmount: 1 }),
        status: 400,
      },
      {
        what: "bet: handIndex missing",
        method: "POST",
        path,
        options: json({ seatIndex: seatId, betAmount: 1 }),
        status: 400,
      },
    ]);
  },
);

test.serial(
  "leave takes no body, advance none but from; bad tableIds and tokens are refused; nothing moves",
  async (t) => {
    const cases: Case[] = [];
    for (const route of ["leave", "advance"]) {
      const path = `/api/tables/${TABLE}/${route}`;
      cases.push(
        ...BAD_BODIES.map(([what, options]): Case => ({
          what: `${route}: ${what}`,
          method: "POST",
          path,
          options,
          status: 400,
        })),
        { what: `${route}: a playerId`, method: "POST", path, options: json({ playerId: "victim" }), status: 400 },
        { what: `${route}: an amount`, method: "POST", path, options: json({ amount: 10 }), status: 400 },
        { what: `${route}: no token`, method: "POST", path, as: null, status: 401 },
        ...BAD_TABLE_IDS.map((id): Case => ({
          what: `${route}: tableId ${id}`,
          method: "POST",
          path: `/api/tables/${id}/${route}`,
          status: 400,
        })),
        ...UNKNOWN_TABLE_IDS.map((id): Case => ({
          what: `${route}: unknown table ${id}`,
          method: "POST",
          path: `/api/tables/${id}/${route}`,
          status: 404,
        })),
      );
    }
    cases.push({
      what: "leave: an Idempotency-Key with a space",
      method: "POST",
      path: `/api/tables/${TABLE}/leave`,
      options: { key: "a b" },
      status: 400,
    });
    await expectRefusals(t, cases);
  },
);

test.serial("state, profile and the rest: bad ids, unknown routes and tokens are refused", async (t) => {
  await expectRefusals(t, [
    ...BAD_TABLE_IDS.map((id): Case => ({
      what: `state: tableId ${id}`,
      method: "GET",
      path: `/api/tables/${id}/state`,
      status: 400,
    })),
    ...UNKNOWN_TABLE_IDS.map((id): Case => ({
      what: `state: unknown table ${id}`,
      method: "GET",
      path: `/api/tables/${id}/state`,
      status: 404,
    })),
    { what: "state: no token", method: "GET", path: `/api/tables/${TABLE}/state`, as: null, status: 401 },
    { what: "profile: another player's", method: "GET", path: "/api/players/other", status: 403 },
    { what: "profile: another spelling of one's own id", method: "GET", path: "/api/players/Victim", status: 403 },
    { what: "profile: an id of 300 characters", method: "GET", path: `/api/players/${"v".repeat(300)}`, status: 400 },
    { what: "profile: no token", method: "GET", path: "/api/players/victim", as: null, status: 401 },
    {
      what: "profile: a malformed Authorization header",
      method: "GET",
      path: "/api/players/victim",
      options: { headers: { authorization: "Basic dmljdGlt" } },
      as: null,
      status: 401,
    },
    { what: "audit: a player who is not an ADMIN", method: "GET", path: "/api/admin/audit", status: 403 },
    { what: "audit: no token", method: "GET", path: "/api/admin/audit", as: null, status: 401 },
    {
      what: "an unknown route",
      method: "POST",
      path: `/api/tables/${TABLE}/cashout`,
      options: json({ amount: 10 }),
      status: 404,
    },
    { what: "sit by GET", method: "GET", path: `/api/tables/${TABLE}/sit`, status: 405 },
    { what: "deal: malformed JSON", method: "POST", path: "/api/deal", options: raw('{"numberOfHands":'), status: 400 },
    { what: "deal: a string", method: "POST", path: "/api/deal", options: json({ numberOfHands: "4" }), status: 400 },
    {
      what: "bulk: a targetRtp of 1",
      method: "POST",
      path: "/api/games/bulk",
      options: json({ targetRtp: 1 }),
      status: 400,
    },
    {
      what: "bulk: 201 games",
      method: "POST",
      path: "/api/games/bulk",
      options: json({ numberOfGames: 201 }),
      status: 400,
    },
  ]);
});

test.serial("well-formed requests that cannot be honoured move nothing either", async (t) => {
  const before = await snapshot();
  // The largest amount there is: a NACK, not an error, and nothing moves.
  expectAck(t, await victim.topup(TABLE, 1_000_000_000), "NACK");
  expectAck(t, await victim.bet(TABLE, { seatIndex: seatId, handIndex: 0, betAmount: 1_000_000_000 }), "NACK");
  expectAck(t, await other.sit(TABLE, 1_000_000_000), "NACK");
  // The same key again with another amount: 422, not a second movement.
  expectAck(t, await victim.topup(TABLE, 1, "reused-key"));
  expectError(t, await victim.topup(TABLE, 2, "reused-key"), 422);
  const after = await snapshot();
  t.deepEqual(after, { ...before, account: before.account - 100, seat: (before.seat ?? 0) + 1 });
  t.is(await other.balance(), 100_000);
});

test.serial(
  "an ADMIN acting for a player who never signed in, and a player acting before the first profile read",
  async (t) => {
    const ghostSit = await admin.request("POST", `/api/tables/2/sit`, { body: { buyInAmount: 10, playerId: "ghost" } });
    const ack = (ghostSit.body as { acknowledgement?: string } | undefined)?.acknowledgement;
    t.true(ghostSit.status === 404 || (ghostSit.status === 200 && ack === "NACK"), `no such player: ${show(ghostSit)}`);
    t.deepEqual((await admin.readState(2)).seats, [], "no one sits for a player with no account");

    const newcomer = await api.player("newcomer");
    everyone.push(newcomer);
    const early = await newcomer.sit(3, 10);
    t.true(early.status < 500, show(early));
    const seat = (await newcomer.readState(3)).seats.find((s) => s.playerId === "newcomer");
    const account = await newcomer.balance();
    t.is(account + cents(seat?.seatBalance ?? 0), 100_000, `no money appears or vanishes: ${show(early)}`);
    t.log(`for a player with no account: ${show(ghostSit)}; before the first profile read: ${show(early)}`);
  },
);

test.serial("generated requests on every route (fast-check): never a 5xx, every refusal an { error }", async (t) => {
  const fuzzer = await api.player("fuzzer");
  await fuzzer.profile();
  everyone.push(fuzzer);
  // Mostly near misses of a valid request (the route's own fields, odd values), some of them valid,
  // so that refusals are tried from every state a sit, bet or advance can lead to.
  const amount = fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: -2, max: 300 }) },
    { weight: 1, arbitrary: fc.double({ min: -1, max: 300 }) },
    { weight: 1, arbitrary: fc.constantFrom(0.01, 0.005, -0, 1e9, 1e21, "5", "", null, [], {}) },
  );
  const index = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: -1, max: 8 }) },
    { weight: 1, arbitrary: fc.constantFrom(1.5, "1", null, true) },
  );
  const fieldsOf = {
    sit: fc.record({ buyInAmount: amount }, { requiredKeys: [] }),
    topup: fc.record({ amount }, { requiredKeys: [] }),
    bet: fc.record({ seatIndex: index, handIndex: index, betAmount: amount }, { requiredKeys: [] }),
    deal: fc.record({ numberOfHands: index }, { requiredKeys: [] }),
    bulk: fc.record(
      { numberOfGames: fc.integer({ min: -1, max: 5 }), numberOfHands: index, targetRtp: amount },
      { requiredKeys: [] },
    ),
  } as const;
  const anyBody = fc.jsonValue({ maxDepth: 2 });
  // Tables 1-3 (the books below cover them), or ids that cannot hold money: malformed, out of
  // range, someone else's personal table.
  const tableId = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("1", "2", "3") },
    { weight: 1, arbitrary: fc.constantFrom("0", "-1", "1.5", "abc", "1e3", "0x1", "01", "9999999999", "%20", "1001") },
    // Never a number in disguise (" 5", "+7"): a valid public table outside 1-3 would escape the books.
    {
      weight: 1,
      arbitrary: fc
        .string({ maxLength: 6 })
        .filter((id) => !/^[\s+]*\d+\s*$/.test(id))
        .map(encodeURIComponent),
    },
  );
  const routes = ["sit", "topup", "bet", "leave", "advance", "state", "player", "deal", "bulk"] as const;
  const request = fc.constantFrom(...routes).chain((route) =>
    fc.record({
      route: fc.constant(route),
      tableId,
      body: fc.oneof(
        { weight: 3, arbitrary: route in fieldsOf ? fieldsOf[route as keyof typeof fieldsOf] : fc.constant(undefined) },
        { weight: 1, arbitrary: anyBody },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
      raw: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
      ),
      key: fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
      ),
    }),
  );
  const statuses = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(request, async ({ route, tableId, body, raw, key }) => {
      const [method, path] =
        route === "state"
          ? ["GET", `/api/tables/${tableId}/state`]
          : route === "player"
            ? ["GET", `/api/players/${tableId}`]
            : route === "deal" || route === "bulk"
              ? ["POST", route === "deal" ? "/api/deal" : "/api/games/bulk"]
              : ["POST", `/api/tables/${tableId}/${route}`];
      // fetch sends no body with a GET.
      const options: RequestOptions = method === "GET" ? {} : raw !== undefined ? { rawBody: raw } : { body };
      if (key !== undefined && key.trim() !== "") options.key = key;
      const reply = await api.request(fuzzer.token, method, path, options);
      const outcome = `${route} ${reply.status}`;
      statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
      if (reply.status >= 500) return false;
      return reply.status < 400 || typeof errorOf(reply) === "string";
    }),
    { numRuns: 400 },
  );
  t.log(Object.fromEntries([...statuses].sort()));
  t.deepEqual(api.serverErrors.map(show), []);
});

test.serial("before the first profile read: leave is a success with 0, sit a NACK, topup a 409", async (t) => {
  // No profile read, so no account yet (the read opens it with the welcome credit): no money.
  const newcomer = await api.player("newcomer-before-profile");
  const left = expectAck(t, await newcomer.leave(TABLE, "newcomer-leave-1"));
  t.deepEqual(left, { acknowledgement: "ACK", creditsReturned: 0, newAccountBalance: 0 });
  const sat = expectAck(t, await newcomer.sit(TABLE, 10), "NACK");
  t.is(sat.message, "insufficient account balance");
  expectError(t, await newcomer.topup(TABLE, 10), 409);
  t.true((await newcomer.state(TABLE)).body.seats.every((s) => s.playerId !== newcomer.id));
  // The first profile read opens the account; from then on the player sits as anyone does.
  everyone.push(newcomer);
  t.is(await newcomer.balance(), WELCOME_CENTS);
  expectAck(t, await newcomer.sit(TABLE, 10));
  const leftNow = expectAck(t, await newcomer.leave(TABLE));
  t.deepEqual(leftNow, { acknowledgement: "ACK", creditsReturned: 10, newAccountBalance: WELCOME_CENTS / 100 });
  // The first leave's key still answers what it answered then.
  t.deepEqual(expectAck(t, await newcomer.leave(TABLE, "newcomer-leave-1")), left);
});

test.serial(
  "a token's subject of 129 to 256 characters plays everywhere; a longer one is a 400 naming playerId",
  async (t) => {
    // One limit for the edge, the wallet and the table (common/src/limits.ts); names are shortened.
    for (const length of [129, 256]) {
      const long = await api.player(`${"x".repeat(length - 4)}-${length}`.slice(-length).padStart(length, "y"));
      t.is(long.id.length, length);
      everyone.push(long);
      t.is(await long.balance(), WELCOME_CENTS);
      expectAck(t, await long.sit(TABLE, 5));
      expectAck(t, await long.topup(TABLE, 1));
      t.true((await long.readState(TABLE)).seats.some((s) => s.playerId === long.id));
      t.deepEqual(expectAck(t, await long.leave(TABLE)), {
        acknowledgement: "ACK",
        creditsReturned: 6,
        newAccountBalance: WELCOME_CENTS / 100,
      });
    }
    const tooLong = await api.player("z".repeat(257));
    for (const reply of [await tooLong.profile(), await tooLong.sit(TABLE, 5), await tooLong.leave(TABLE)]) {
      expectError(t, reply, 400);
      t.is(errorOf(reply), "the token's subject (playerId) must be at most 256 characters", show(reply));
    }
  },
);

test.serial("no reply in this file was a 5xx or showed a negative balance; every cent is where it was", async (t) => {
  t.deepEqual(api.serverErrors.map(show), []);
  t.deepEqual(api.negativeBalances, []);
  await expectMoneyConserved(t, api, everyone, [1, 2, 3], admin, { everyone: true });
});
