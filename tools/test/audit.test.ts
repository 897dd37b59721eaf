// `npm run audit`'s entry point: the development issuer's short-lived ADMIN token when AUDIT_TOKEN is
// unset, and the exit codes of the command itself. The command's logic: audit/test/cli.test.ts.
import { runAuditCli } from "@pokerodds/audit/cli";
import { DEV_AUDIENCE, DEV_ISSUER, loadOrCreateDevKey } from "@pokerodds/common/dev-issuer";
import test from "ava";
import { importJWK, jwtVerify } from "jose";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fakeGateway, report } from "../../audit/test/helpers/fake-gateway.js";
import { devAdminToken } from "../src/dev-admin-token.js";

async function run(env: Record<string, string | undefined>) {
  const err: string[] = [];
  const io = { out: () => {}, err: (text: string) => err.push(text) };
  const code = await runAuditCli(env, [], io, devAdminToken);
  return { code, err: err.join("\n") };
}

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
  const cli = fileURLToPath(new URL("../src/audit.ts", import.meta.url));
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
