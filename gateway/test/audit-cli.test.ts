// `npm run audit` against a fake gateway: exit 0 only for a clean report, 1 for mismatch or pending,
// 2 when no audit can be had (unreachable, refused, a service down, not a report, no token).
import { MovementKind } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import test from "ava";
import { jwtVerify, importJWK } from "jose";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runAuditCli } from "../src/audit/cli.js";
import { reconcile } from "../src/audit/reconcile.js";
import { DEV_AUDIENCE, DEV_ISSUER, loadOrCreateDevKey } from "../src/auth/dev-issuer.js";
import type { AuditReportBody } from "../src/contract/audit.js";

function report(kind: "clean" | "pending" | "mismatch"): AuditReportBody {
  const welcome = 100_000;
  const debit = kind === "clean" ? 0 : 2_500;
  return reconcile({
    wallet: {
      accounts: 1,
      entries: 2,
      refusedEntries: 0,
      totals: {
        balancesCents: welcome - debit,
        welcomeCreditsCents: welcome,
        depositsCents: 0,
        withdrawalsCents: 0,
        debitsCents: debit,
        creditsCents: 0,
      },
      reasonTotals: [
        { kind: MovementKind.MOVEMENT_KIND_WELCOME, reason: "welcome", count: 1, amountCents: welcome },
        ...(debit ? [{ kind: MovementKind.MOVEMENT_KIND_DEBIT, reason: "sit", count: 1, amountCents: debit }] : []),
      ],
      conserved: true,
      issues: [],
      clean: true,
    },
    table: {
      tables: [],
      openTransfers:
        kind === "pending"
          ? [
              {
                transferId: "t1",
                kind: 1,
                playerId: "alice",
                tableId: 2,
                amountCents: debit,
                createdAt: "2026-11-22T00:00:00Z",
              },
            ]
          : [],
      games: 0,
      conserved: true,
    },
  });
}

interface FakeGateway {
  url: string;
  port: number;
  requests: IncomingMessage[];
  close(): Promise<void>;
}

async function fakeGateway(
  answer: (req: IncomingMessage) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>,
): Promise<FakeGateway> {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer(async (req, res) => {
    requests.push(req);
    const { status, body } = await answer(req);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function run(env: Record<string, string | undefined>, args: string[] = []) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAuditCli(env, args, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

test("clean: exit 0 and the summary; the token and the path as given", async (t) => {
  const gateway = await fakeGateway(() => ({ status: 200, body: report("clean") }));
  t.teardown(() => gateway.close());
  const { code, out, err } = await run({ AUDIT_URL: `${gateway.url}/`, AUDIT_TOKEN: "tok-1" });
  t.is(code, 0);
  t.is(err, "");
  t.regex(out, /^Money audit of .*: CLEAN/);
  t.regex(out, /= held\s+1,000\.00/);
  t.is(gateway.requests[0]!.url, "/api/admin/audit");
  t.is(gateway.requests[0]!.headers.authorization, "Bearer tok-1");
});

test("pending and mismatch: exit 1, with what is found", async (t) => {
  for (const kind of ["pending", "mismatch"] as const) {
    const gateway = await fakeGateway(() => ({ status: 200, body: report(kind) }));
    const { code, out } = await run({ AUDIT_URL: `${gateway.url}/api/admin/audit`, AUDIT_TOKEN: "tok" });
    t.is(code, 1, kind);
    t.regex(
      out,
      kind === "pending"
        ? /PENDING[\s\S]*Open transfers \(1\)\n {2}SIT 25\.00 for alice/
        : /MISMATCH[\s\S]*Mismatches \(2\)/,
    );
    t.is(gateway.requests[0]!.url, "/api/admin/audit");
    await gateway.close();
  }
});

test("--json prints the report itself", async (t) => {
  const clean = report("clean");
  const gateway = await fakeGateway(() => ({ status: 200, body: clean }));
  t.teardown(() => gateway.close());
  const { code, out } = await run({ AUDIT_URL: gateway.url, AUDIT_TOKEN: "tok" }, ["--json"]);
  t.is(code, 0);
  t.deepEqual(JSON.parse(out), JSON.parse(JSON.stringify(clean)));
  t.is((await run({ AUDIT_URL: gateway.url, AUDIT_TOKEN: "tok" }, ["--yaml"])).code, 2);
});

test("no audit: exit 2 for refusals, a service down, and answers that are not a report", async (t) => {
  const cases: Array<[number, unknown, RegExp]> = [
    [
      401,
      { error: "Authorization header is invalid" },
      /answered 401: Authorization header is invalid \(an ADMIN token/,
    ],
    [403, { error: "the audit is for an ADMIN" }, /answered 403: the audit is for an ADMIN/],
    [503, { error: "table service unavailable" }, /answered 503: table service unavailable \(a service is down\)/],
    [500, "<html>oops</html>", /answered 500: <html>oops<\/html>/],
    [200, { status: "clean" }, /did not answer with an audit report/],
    [200, "not json", /did not answer with an audit report/],
  ];
  for (const [status, body, message] of cases) {
    const gateway = await fakeGateway(() => ({ status, body }));
    const { code, out, err } = await run({ AUDIT_URL: gateway.url, AUDIT_TOKEN: "tok" });
    t.is(code, 2, `${status} ${JSON.stringify(body)}`);
    t.is(out, "");
    t.regex(err, message);
    await gateway.close();
  }
});

test("no audit: exit 2 when nothing listens, PORT naming the gateway when AUDIT_URL is unset", async (t) => {
  const gateway = await fakeGateway(() => ({ status: 200, body: report("clean") }));
  const { port } = gateway;
  t.is((await run({ PORT: String(port), AUDIT_TOKEN: "tok" })).code, 0);
  await gateway.close();
  const { code, err } = await run({ PORT: String(port), AUDIT_TOKEN: "tok" });
  t.is(code, 2);
  t.regex(err, new RegExp(`cannot reach the stack at http://127\\.0\\.0\\.1:${port}: ECONNREFUSED`));
  t.regex((await run({ AUDIT_URL: "not a url", AUDIT_TOKEN: "tok" })).err, /AUDIT_URL is not a URL/);
});

test("without AUDIT_TOKEN: a short-lived ADMIN token of the development issuer under DATA_DIR", async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), "audit-cli-"));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const key = await loadOrCreateDevKey(dataDir);
  const publicKey = await importJWK(key.publicJwk, "ES256");
  const gateway = await fakeGateway(async (req) => {
    const token = req.headers.authorization!.replace(/^Bearer /, "");
    const { payload } = await jwtVerify(token, publicKey, { issuer: DEV_ISSUER, audience: DEV_AUDIENCE });
    t.is(payload.role, "ADMIN");
    t.true(payload.exp! - payload.iat! <= 300);
    return { status: 200, body: report("clean") };
  });
  t.teardown(() => gateway.close());
  t.is((await run({ AUDIT_URL: gateway.url, DATA_DIR: dataDir })).code, 0);
  t.is(gateway.requests.length, 1);
});

test("without AUDIT_TOKEN: exit 2, creating nothing, when DATA_DIR has no key or a real identity provider is set", async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), "audit-cli-"));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const gateway = await fakeGateway(() => ({ status: 200, body: report("clean") }));
  t.teardown(() => gateway.close());
  const noKey = await run({ AUDIT_URL: gateway.url, DATA_DIR: dataDir });
  t.is(noKey.code, 2);
  t.regex(noKey.err, /no development issuer key under .*: run with the stack's DATA_DIR, or set AUDIT_TOKEN/);
  t.deepEqual(await readdir(dataDir), []);
  const remote = await run({ AUDIT_URL: gateway.url, AUTH_JWKS_URL: "https://idp.example/jwks" });
  t.is(remote.code, 2);
  t.regex(remote.err, /AUTH_JWKS_URL is set: set AUDIT_TOKEN/);
  t.is(gateway.requests.length, 0);
});

test("the command itself exits with those codes", async (t) => {
  const cli = fileURLToPath(new URL("../src/audit-cli.ts", import.meta.url));
  const exitCode = (env: Record<string, string>) =>
    new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ["--import=tsx/esm", cli], {
        env: { PATH: process.env.PATH ?? "", ...env },
        stdio: "ignore",
      });
      child.on("exit", (code) => resolve(code));
    });
  for (const [kind, expected] of [
    ["clean", 0],
    ["pending", 1],
  ] as const) {
    const gateway = await fakeGateway(() => ({ status: 200, body: report(kind) }));
    t.is(await exitCode({ AUDIT_URL: gateway.url, AUDIT_TOKEN: "tok" }), expected, kind);
    await gateway.close();
  }
  t.is(await exitCode({ AUDIT_URL: "http://127.0.0.1:1", AUDIT_TOKEN: "tok" }), 2);
});
