// GET /api/admin/audit with fake wallet and table services: who may ask (401 without a token, 403
// unless ADMIN), what reaches the services (caller, deadline, request id, the table read on both sides
// of the wallet), the report (valid against the OpenAPI document, clean or not) and 503 when a service
// is down.
import { status } from "@grpc/grpc-js";
import type { CallOptions } from "@pokerodds/common";
import {
  GameState,
  TransferKind,
  type AuditResponse as TableAuditResponse,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import {
  MovementKind,
  Role,
  type AuditResponse as WalletAuditResponse,
} from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { AUDIT_DEADLINE_MS, readAudit } from "@pokerodds/audit";
import test from "ava";
import { createApp } from "../src/app.js";
import { openApiDocument } from "@pokerodds/api/document";
import { startHttpServer } from "../src/http-server.js";
import type { Role as ApiRole } from "@pokerodds/api/players";
import { fakeOdds, fakeTable, fakeWallet, serving, silentLogger } from "./helpers/app.js";
import { until } from "../../test/helpers/poll.js";
import { grpcError } from "./helpers/fixtures.js";
import { assertMatchesSchema } from "./helpers/schemas.js";
import { newKey, validToken, verifierFor } from "./helpers/tokens.js";

/** Two players, one seated at table 3 with 250.00, 10.00 staked; settled. */
function walletAudit(): WalletAuditResponse {
  return {
    accounts: 2,
    entries: 4,
    refusedEntries: 0,
    totals: {
      balancesCents: 175_000,
      welcomeCreditsCents: 200_000,
      depositsCents: 0,
      withdrawalsCents: 0,
      debitsCents: 30_000,
      creditsCents: 5_000,
    },
    reasonTotals: [
      { kind: MovementKind.MOVEMENT_KIND_CREDIT, reason: "sit-refund", count: 1, amountCents: 5_000 },
      { kind: MovementKind.MOVEMENT_KIND_DEBIT, reason: "sit", count: 2, amountCents: 30_000 },
      { kind: MovementKind.MOVEMENT_KIND_WELCOME, reason: "welcome", count: 2, amountCents: 200_000 },
    ],
    conserved: true,
    issues: [],
    issueCount: 0,
    clean: true,
  };
}

/** The table side; with `leave`, that leave open (the tables moving money while the wallet is read). */
function tableAudit(leave?: number): TableAuditResponse {
  const money = {
    seatsCents: 24_000,
    openStakesCents: 1_000,
    outboxCents: 0,
    deliveredCents: 0,
    houseResultCents: 0,
    creditedCents: 25_000,
  };
  return {
    tables: [
      {
        tableId: 3,
        version: 5,
        gameId: "T3-1",
        gameState: GameState.GAME_STATE_STATUS_HOLE,
        money,
        pendingCredits: [],
        conserved: true,
        negativeSeats: 0,
      },
    ],
    totals: money,
    openTransfers:
      leave === undefined
        ? []
        : [
            {
              transferId: `leave-${leave}`,
              kind: TransferKind.TRANSFER_KIND_LEAVE,
              playerId: "p1",
              tableId: 3,
              amountCents: 0,
              createdAt: "2026-12-01T00:00:00.000Z",
            },
          ],
    games: 0,
    conserved: true,
  };
}

interface AuditApp {
  url: string;
  tokenFor(playerId: string, role?: ApiRole): Promise<string>;
  calls: { service: "wallet" | "table"; request: unknown; options: CallOptions | undefined }[];
  close(): Promise<void>;
}

async function startAuditApp(
  answers: {
    wallet?: (call: number) => Promise<WalletAuditResponse>;
    table?: (call: number) => Promise<TableAuditResponse>;
  } = {},
): Promise<AuditApp> {
  const key = await newKey();
  const calls: AuditApp["calls"] = [];
  let walletCalls = 0;
  let tableCalls = 0;
  const wallet = {
    ...fakeWallet(),
    audit: async (request: object, options?: CallOptions) => {
      calls.push({ service: "wallet" as const, request, options });
      return (answers.wallet ?? (async () => walletAudit()))(walletCalls++);
    },
  };
  const table = {
    ...fakeTable(),
    audit: async (request: object, options?: CallOptions) => {
      calls.push({ service: "table" as const, request, options });
      return (answers.table ?? (async () => tableAudit()))(tableCalls++);
    },
  };
  const app = createApp({
    logger: silentLogger(),
    verifyToken: verifierFor(key),
    health: { odds: serving, wallet: serving, table: serving },
    odds: fakeOdds(),
    wallet,
    table,
  });
  const server = await startHttpServer(app, { port: 0, host: "127.0.0.1" });
  return {
    url: `http://127.0.0.1:${server.port}`,
    tokenFor: (playerId, role) => validToken(key, playerId, role),
    calls,
    close: () => server.close(1000),
  };
}

const getAudit = (app: AuditApp, token?: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/api/admin/audit`, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });

test("401 without a token, 401 with a bad one; no service is asked", async (t) => {
  const app = await startAuditApp();
  t.teardown(() => app.close());
  const none = await getAudit(app);
  t.is(none.status, 401);
  t.is(none.headers.get("www-authenticate"), "Bearer");
  assertMatchesSchema(t, "ErrorBody", await none.json());
  const bad = await getAudit(app, "not.a.token");
  t.is(bad.status, 401);
  t.deepEqual(app.calls, []);
});

test("403 for every role but ADMIN; no service is asked", async (t) => {
  const app = await startAuditApp();
  t.teardown(() => app.close());
  for (const role of ["BASIC_USER", "PAYING_USER", "ANON_USER", undefined] as const) {
    const response = await getAudit(app, await app.tokenFor("player-1", role));
    t.is(response.status, 403, String(role));
    t.deepEqual(await response.json(), { error: "the audit is for an ADMIN" });
  }
  t.deepEqual(app.calls, []);
});

test("ADMIN: 200 with a clean report, valid against the OpenAPI document; table, wallet, table with the caller and the audit's deadline", async (t) => {
  const app = await startAuditApp();
  t.teardown(() => app.close());
  const response = await getAudit(app, await app.tokenFor("boss", "ADMIN"), { "x-request-id": "audit-1" });
  t.is(response.status, 200);
  t.is(response.headers.get("cache-control"), "no-store");
  const json = await response.json();
  assertMatchesSchema(t, "AuditReport", json);
  t.like(json, {
    status: "clean",
    clean: true,
    settled: true,
    snapshot: { consistent: true, readings: 1 },
    mismatches: [],
    unsettled: [],
    identity: { heldCents: 200_000, fundedCents: 200_000, differenceCents: 0, holds: true },
    tables: { tableCount: 1, totals: { creditedCents: 25_000 } },
  });
  t.deepEqual(
    app.calls.map((c) => c.service),
    ["table", "wallet", "table"],
  );
  t.deepEqual(app.calls[0]!.request, { caller: { playerId: "boss", role: Role.ROLE_ADMIN } });
  t.deepEqual(app.calls[1]!.request, {});
  for (const call of app.calls) {
    t.is(call.options?.requestId, "audit-1");
    t.true(call.options!.deadlineMs! <= AUDIT_DEADLINE_MS && call.options!.deadlineMs! > AUDIT_DEADLINE_MS - 5_000);
  }
});

test("an ADMIN who stops waiting cancels the audit's calls (the services stop reading)", async (t) => {
  const app = await startAuditApp({ wallet: () => new Promise(() => {}) });
  t.teardown(() => app.close());
  const token = await app.tokenFor("boss", "ADMIN");
  const stopWaiting = new AbortController();
  const answered = fetch(`${app.url}/api/admin/audit`, {
    headers: { authorization: `Bearer ${token}` },
    signal: stopWaiting.signal,
  }).then(
    () => true,
    () => false,
  );
  // The wallet is asked after the table's reading (a fixed timeout lost that race on a busy machine).
  const walletCall = () => app.calls.find((call) => call.service === "wallet");
  await until("the audit asks the wallet", () => walletCall() !== undefined);
  stopWaiting.abort();
  t.false(await answered);
  // Never, were it not cancelled: the deadline only leaves a busy machine room.
  await until("the wallet call's signal aborts", () => walletCall()?.options?.signal?.aborted === true);
});

test("a mismatch is still a 200: the body says what is wrong", async (t) => {
  const app = await startAuditApp({
    wallet: async () => {
      const audit = walletAudit();
      audit.totals!.balancesCents += 1;
      return audit;
    },
  });
  t.teardown(() => app.close());
  const response = await getAudit(app, await app.tokenFor("boss", "ADMIN"));
  t.is(response.status, 200);
  const json = await response.json();
  assertMatchesSchema(t, "AuditReport", json);
  t.like(json, { status: "mismatch", clean: false });
  t.deepEqual(
    (json as { mismatches: { check: string }[] }).mismatches.map((m) => m.check),
    ["wallet-identity", "conservation"],
  );
});

test("tables changing between readings: read again, up to 3 readings, then pending and not conclusive", async (t) => {
  let leave = 1;
  const app = await startAuditApp({ table: async () => tableAudit(leave++) });
  t.teardown(() => app.close());
  const json = (await (await getAudit(app, await app.tokenFor("boss", "ADMIN"))).json()) as {
    status: string;
    snapshot: { consistent: boolean; readings: number };
    unsettled: { check: string }[];
  };
  assertMatchesSchema(t, "AuditReport", json);
  t.like(json, { status: "pending", snapshot: { consistent: false, readings: 3 } });
  t.true(json.unsettled.some((f) => f.check === "snapshot"));
  t.deepEqual(
    app.calls.map((c) => c.service),
    ["table", "wallet", "table", "wallet", "table", "wallet", "table"],
  );
});

test("tables that settle down after one change: the second reading is consistent and clean", async (t) => {
  const app = await startAuditApp({ table: async (call) => tableAudit(call === 0 ? 1 : undefined) });
  t.teardown(() => app.close());
  const json = await (await getAudit(app, await app.tokenFor("boss", "ADMIN"))).json();
  t.like(json, { status: "clean", snapshot: { consistent: true, readings: 2 } });
});

test("503 when either service is unavailable or too slow", async (t) => {
  for (const [service, code] of [
    ["wallet", status.UNAVAILABLE],
    ["table", status.UNAVAILABLE],
    ["wallet", status.DEADLINE_EXCEEDED],
  ] as const) {
    const failing = async (): Promise<never> => {
      throw grpcError(code, "connection refused");
    };
    const app = await startAuditApp({ [service]: failing });
    const response = await getAudit(app, await app.tokenFor("boss", "ADMIN"));
    t.is(response.status, 503, `${service} ${code}`);
    t.deepEqual(await response.json(), { error: `${service} service unavailable` });
    await app.close();
  }
});

test("readAudit stops early when the deadline is half gone, and passes the time left", async (t) => {
  const deadlines: number[] = [];
  let leave = 1;
  const input = await readAudit(
    {
      wallet: async (deadlineMs) => {
        deadlines.push(deadlineMs);
        await new Promise((resolve) => setTimeout(resolve, 60));
        return walletAudit();
      },
      table: async (deadlineMs) => {
        deadlines.push(deadlineMs);
        return tableAudit(leave++);
      },
    },
    { deadlineMs: 100 },
  );
  t.like(input, { consistent: false, readings: 1 });
  t.is(deadlines.length, 3);
  t.true(deadlines[2]! <= 40);
});

test("the OpenAPI document: ADMIN audit with 200, 400 (an unknown query parameter), 401, 403, 502 and 503", (t) => {
  type Operation = {
    operationId: string;
    tags: string[];
    responses: { 200: { content: Record<string, { schema: unknown }> } };
  };
  const operation = openApiDocument().paths["/api/admin/audit"]?.get as Operation;
  t.is(operation.operationId, "getAudit");
  t.deepEqual(operation.tags, ["admin"]);
  t.deepEqual(Object.keys(operation.responses), ["200", "400", "401", "403", "429", "502", "503"]);
  t.deepEqual(Object.keys(operation.responses[200].content), ["application/json"]);
  t.deepEqual(operation.responses[200].content["application/json"]!.schema, {
    $ref: "#/components/schemas/AuditReport",
  });
});
