import { status } from "@grpc/grpc-js";
import {
  MovementKind,
  RefusalReason,
  Role,
  type LedgerEntry,
} from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import test from "ava";
import type { Role as RoleName } from "@pokerodds/api/players";
import { startApp, type AppOverrides, type TestApp } from "./helpers/app.js";
import { grpcError, OTHER_PLAYER, profileFrom } from "./helpers/fixtures.js";
import { assertMatchesSchema } from "./helpers/schemas.js";

async function read(app: TestApp, playerId: string, caller = "player-1", role?: RoleName) {
  const response = await fetch(`${app.url}/api/players/${encodeURIComponent(playerId)}`, {
    headers: { authorization: `Bearer ${await app.tokenFor(caller, role)}`, "x-request-id": "profile-1" },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function withApp(overrides: AppOverrides, run: (app: TestApp) => Promise<void>) {
  const app = await startApp(overrides);
  try {
    await run(app);
  } finally {
    await app.close();
  }
}

test("the caller's own profile comes from GetProfile with the token's claims", async (t) => {
  await withApp({}, async (app) => {
    const { status: code, body } = await read(app, "player-1");
    t.is(code, 200);
    t.deepEqual(body, {
      playerId: "player-1",
      username: "p1@example.com",
      displayName: "P One",
      accountBalance: 1000,
      avatarImageUrl: "/avatars/default.png",
      role: "BASIC_USER",
      isActive: true,
    });
    assertMatchesSchema(t, "PlayerProfile", body);
    t.deepEqual(app.wallet.calls, [
      {
        method: "getProfile",
        request: {
          claims: {
            playerId: "player-1",
            username: "p1@example.com",
            displayName: "P One",
            role: Role.ROLE_BASIC_USER,
          },
        },
        options: { deadlineMs: 10_000, requestId: "profile-1" },
      },
    ]);
  });
});

test("every role reads its own profile; the role travels in the claims", async (t) => {
  await withApp({}, async (app) => {
    for (const role of ["BASIC_USER", "PAYING_USER", "ANON_USER", "ADMIN"] as const) {
      const { status: code, body } = await read(app, "me", "me", role);
      t.is(code, 200);
      t.is(body.role, role);
      t.is(app.wallet.calls.at(-1)?.method, "getProfile");
    }
  });
});

test("an ADMIN reads another player with GetPlayer; an unknown player is a 404", async (t) => {
  await withApp({}, async (app) => {
    const { status: code, body } = await read(app, "player-2", "admin-1", "ADMIN");
    t.is(code, 200);
    t.deepEqual(body, {
      playerId: "player-2",
      username: "p2@example.com",
      displayName: "P Two",
      accountBalance: 1234.56,
      avatarImageUrl: "/avatars/p2.png",
      role: "PAYING_USER",
      isActive: true,
      personalTableId: 1001,
    });
    assertMatchesSchema(t, "PlayerProfile", body);
    t.deepEqual(app.wallet.calls.at(-1), {
      method: "getPlayer",
      request: { playerId: "player-2" },
      options: { deadlineMs: 3_000, requestId: "profile-1" },
    });

    const unknown = await read(app, "nobody", "admin-1", "ADMIN");
    t.deepEqual(unknown, { status: 404, body: { error: "player nobody does not exist" } });
  });
});

test("a role the wallet reports but the API does not know is UNSPECIFIED_DUE_TO_ERROR", async (t) => {
  for (const role of [Role.ROLE_UNSPECIFIED, Role.UNRECOGNIZED, 17 as Role]) {
    await withApp(
      { wallet: { getProfile: async (r) => ({ profile: { ...profileFrom(r.claims!), role } }) } },
      async (app) => {
        const { body } = await read(app, "player-1");
        t.is(body.role, "UNSPECIFIED_DUE_TO_ERROR");
        assertMatchesSchema(t, "PlayerProfile", body);
      },
    );
  }
});

test("wallet failures: unavailable is a 503; a broken reply is a 500", async (t) => {
  const unavailable = () => Promise.reject(grpcError(status.UNAVAILABLE, "connect ECONNREFUSED"));
  await withApp({ wallet: { getProfile: unavailable, getPlayer: unavailable } }, async (app) => {
    t.deepEqual(await read(app, "player-1"), { status: 503, body: { error: "wallet service unavailable" } });
    t.deepEqual(await read(app, "player-2", "admin-1", "ADMIN"), {
      status: 503,
      body: { error: "wallet service unavailable" },
    });
  });
  for (const profile of [undefined, { ...OTHER_PLAYER, accountBalanceCents: -1 }]) {
    await withApp({ wallet: { getProfile: async () => ({ profile }) } }, async (app) => {
      t.deepEqual(await read(app, "player-1"), { status: 500, body: { error: "internal error" } });
    });
  }
});

test("ids are compared exactly, after URL decoding", async (t) => {
  await withApp({}, async (app) => {
    t.is((await read(app, "a/b c", "a/b c")).status, 200);
    t.is(app.wallet.calls.at(-1)?.method, "getProfile");
    t.is((await read(app, "Player-1")).status, 403);
  });
});

async function seatsOf(app: TestApp, playerId: string, caller = "player-1", role?: RoleName) {
  const response = await fetch(`${app.url}/api/players/${encodeURIComponent(playerId)}/seats`, {
    headers: { authorization: `Bearer ${await app.tokenFor(caller, role)}`, "x-request-id": "seats-1" },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test("a player's seats come from ListSeats for the player, in units; an ADMIN reads anyone's, others get a 403", async (t) => {
  const seats = [
    { tableId: 3, seatId: 1, seatBalanceCents: 15_050 },
    { tableId: 1001, seatId: 2, seatBalanceCents: 1 },
  ];
  await withApp({ table: { listSeats: async () => ({ seats }) } }, async (app) => {
    const own = await seatsOf(app, "player-1");
    t.deepEqual(own, {
      status: 200,
      body: {
        seats: [
          { tableId: 3, seatId: 1, seatBalance: 150.5 },
          { tableId: 1001, seatId: 2, seatBalance: 0.01 },
        ],
      },
    });
    assertMatchesSchema(t, "PlayerSeats", own.body);
    t.deepEqual(app.table.calls.at(-1), {
      method: "listSeats",
      request: { caller: { playerId: "player-1", role: Role.ROLE_BASIC_USER } },
      options: { deadlineMs: 3_000, requestId: "seats-1" },
    });

    t.is((await seatsOf(app, "player-2", "admin-1", "ADMIN")).status, 200);
    t.deepEqual(app.table.calls.at(-1)?.request, { caller: { playerId: "player-2", role: Role.ROLE_ADMIN } });

    const calls = app.table.calls.length;
    t.deepEqual(await seatsOf(app, "player-2"), {
      status: 403,
      body: { error: "playerId must be the token's subject unless the caller is an ADMIN" },
    });
    t.is(app.table.calls.length, calls, "refused before the table service is asked");
  });
  await withApp(
    { table: { listSeats: async () => ({ seats: [{ ...seats[0]!, seatBalanceCents: -1 }] }) } },
    async (app) => {
      t.deepEqual(await seatsOf(app, "player-1"), { status: 500, body: { error: "internal error" } });
    },
  );
});

test("the account statement: ListLedger newest first for the player, in units, paged by before", async (t) => {
  const entry = (sequence: number, amountCents: number, reason: string, over: Partial<LedgerEntry> = {}) => ({
    entryId: `e${sequence}`,
    playerId: "player-1",
    sequence,
    amountCents,
    balanceAfterCents: 100_000 + amountCents,
    reason,
    reference: reason === "payout" ? "T3-17" : "tr-1",
    idempotencyKey: `k${sequence}`,
    createdAt: "2026-11-23T12:00:00.000Z",
    kind: amountCents < 0 ? MovementKind.MOVEMENT_KIND_DEBIT : MovementKind.MOVEMENT_KIND_CREDIT,
    applied: true,
    requestedCents: Math.abs(amountCents),
    refusalReason: RefusalReason.REFUSAL_REASON_UNSPECIFIED,
    ...over,
  });
  const refused = {
    kind: MovementKind.MOVEMENT_KIND_DEBIT,
    applied: false,
    requestedCents: 500_000,
    refusalReason: RefusalReason.REFUSAL_REASON_INSUFFICIENT_FUNDS,
  };
  const listLedger = async () => ({
    entries: [entry(3, 1_250, "payout", { tableId: 3 }), entry(2, 0, "sit", refused)],
    nextAfterSequence: 0,
    nextBeforeSequence: 2,
  });
  await withApp({ wallet: { listLedger } }, async (app) => {
    const response = await fetch(`${app.url}/api/players/player-1/ledger?before=9&limit=2`, {
      headers: { authorization: `Bearer ${app.token}` },
    });
    t.is(response.status, 200);
    const body = await response.json();
    assertMatchesSchema(t, "AccountStatement", body);
    t.deepEqual(body, {
      entries: [
        {
          sequence: 3,
          at: "2026-11-23T12:00:00.000Z",
          kind: "CREDIT",
          reason: "payout",
          amount: 12.5,
          balanceAfter: 1012.5,
          applied: true,
          requested: 12.5,
          refusal: null,
          reference: "T3-17",
          tableId: 3,
        },
        {
          sequence: 2,
          at: "2026-11-23T12:00:00.000Z",
          kind: "DEBIT",
          reason: "sit",
          amount: 0,
          balanceAfter: 1000,
          applied: false,
          requested: 5000,
          refusal: "INSUFFICIENT_FUNDS",
          reference: "tr-1",
          tableId: null,
        },
      ],
      nextBefore: 2,
    });
    t.deepEqual(app.wallet.calls.at(-1)?.request, {
      playerId: "player-1",
      afterSequence: 0,
      newestFirst: true,
      beforeSequence: 9,
      limit: 2,
    });
  });
});

test("the account statement: defaults, another player's for an ADMIN only, bad paging a 400 before any call", async (t) => {
  await withApp({}, async (app) => {
    const get = async (path: string, caller = "player-1", role?: RoleName) =>
      fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${await app.tokenFor(caller, role)}` } });
    t.deepEqual(await (await get("/api/players/player-1/ledger")).json(), { entries: [], nextBefore: null });
    t.like(app.wallet.calls.at(-1)?.request, { playerId: "player-1", limit: 20, newestFirst: true });
    t.false("beforeSequence" in (app.wallet.calls.at(-1)?.request as object));
    await get(`/api/players/player-1/ledger?before=${"9".repeat(30)}`);
    t.false("beforeSequence" in (app.wallet.calls.at(-1)?.request as object), "beyond any entry: from the newest");
    t.is((await get("/api/players/someone/ledger", "root", "ADMIN")).status, 200);
    t.like(app.wallet.calls.at(-1)?.request, { playerId: "someone" });
    const calls = app.wallet.calls.length;
    t.is((await get("/api/players/someone/ledger")).status, 403);
    for (const query of [
      "before=0",
      "before=-1",
      "before=01",
      "before=x",
      "limit=0",
      "limit=101",
      "limit=1&limit=2",
      "other=1",
    ]) {
      const response = await get(`/api/players/player-1/ledger?${query}`);
      t.is(response.status, 400, query);
      t.truthy(((await response.json()) as { error?: string }).error, query);
    }
    t.is((await fetch(`${app.url}/api/players/player-1/ledger`)).status, 401);
    t.is(app.wallet.calls.length, calls, "no call for a refused request");
  });
});

test("the account statement: no account yet is the wallet's 404", async (t) => {
  const listLedger = async () => {
    throw grpcError(status.NOT_FOUND, "no account for player player-1");
  };
  await withApp({ wallet: { listLedger } }, async (app) => {
    const response = await fetch(`${app.url}/api/players/player-1/ledger`, {
      headers: { authorization: `Bearer ${app.token}` },
    });
    t.is(response.status, 404);
    t.deepEqual(await response.json(), { error: "no account for player player-1" });
  });
});
