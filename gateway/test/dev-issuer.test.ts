import test from "ava";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DEV_AUDIENCE, DEV_ISSUER, devKeyPath, loadOrCreateDevKey } from "../src/auth/dev-issuer.js";
import { createTokenVerifier, localKeys } from "../src/auth/token-verifier.js";

const run = promisify(execFile);
const TOKEN_CLI = fileURLToPath(new URL("../src/token.ts", import.meta.url));

async function tempDataDir(t: import("ava").ExecutionContext) {
  const dir = await mkdtemp(join(tmpdir(), "gateway-dev-issuer-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, "data");
}

/** Runs the token command as `npm run token` would, with tsx loading the TypeScript source. */
function tokenCommand(args: string[], env: Record<string, string>) {
  const { AUTH_JWKS_URL: _jwks, AUTH_ISSUER: _issuer, AUTH_AUDIENCE: _audience, ...inherited } = process.env;
  return run(process.execPath, ["--import=tsx/esm", TOKEN_CLI, ...args], { env: { ...inherited, ...env } });
}

test("the key is created once, private, and racing callers all get the same one", async (t) => {
  const dataDir = await tempDataDir(t);
  const keys = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateDevKey(dataDir)));
  for (const key of keys) t.deepEqual(key, keys[0]);
  t.is((await stat(devKeyPath(dataDir))).mode & 0o777, 0o600);
  t.is((await stat(join(dataDir, "dev-issuer"))).mode & 0o777, 0o700);
  t.deepEqual(await readdir(join(dataDir, "dev-issuer")), ["es256-private.jwk.json"], "no temporary files left");
  t.deepEqual(await loadOrCreateDevKey(dataDir), keys[0], "read back on the next start");
  t.is(keys[0]!.publicJwk.d, undefined, "the public half has no private part");
});

test("npm run token prints only a token the gateway accepts", async (t) => {
  const dataDir = await tempDataDir(t);
  const { stdout, stderr } = await tokenCommand(
    ["alice", "--role", "ADMIN", "--email", "alice@example.com", "--name", "Alice", "--ttl", "120"],
    {
      DATA_DIR: dataDir,
    },
  );
  t.is(stderr, "");
  t.regex(stdout, /^[\w-]+\.[\w-]+\.[\w-]+\n$/);
  const verify = createTokenVerifier({
    keys: localKeys((await loadOrCreateDevKey(dataDir)).publicJwk),
    issuer: DEV_ISSUER,
    audience: DEV_AUDIENCE,
  });
  t.deepEqual(await verify(stdout.trim()), {
    playerId: "alice",
    username: "alice@example.com",
    displayName: "Alice",
    role: "ADMIN",
  });
  const payload = JSON.parse(Buffer.from(stdout.split(".")[1]!, "base64url").toString()) as {
    exp: number;
    iat: number;
  };
  t.is(payload.exp - payload.iat, 120);
});

test("the token command honours AUTH_ISSUER and AUTH_AUDIENCE", async (t) => {
  const dataDir = await tempDataDir(t);
  const { stdout } = await tokenCommand(["bob"], { DATA_DIR: dataDir, AUTH_ISSUER: "my-iss", AUTH_AUDIENCE: "my-aud" });
  const keys = localKeys((await loadOrCreateDevKey(dataDir)).publicJwk);
  t.like(await createTokenVerifier({ keys, issuer: "my-iss", audience: "my-aud" })(stdout.trim()), {
    playerId: "bob",
    role: "BASIC_USER",
  });
  await t.throwsAsync(createTokenVerifier({ keys, issuer: DEV_ISSUER, audience: DEV_AUDIENCE })(stdout.trim()));
});

test("the token command refuses to run against a real identity provider, and refuses bad arguments", async (t) => {
  const dataDir = await tempDataDir(t);
  const real = await t.throwsAsync(
    tokenCommand(["alice"], { DATA_DIR: dataDir, AUTH_JWKS_URL: "https://idp.example.com/jwks" }),
  );
  t.like(real, { code: 1, stdout: "" });
  t.regex((real as unknown as { stderr: string }).stderr, /AUTH_JWKS_URL is set/);
  for (const args of [
    [],
    ["a", "b"],
    ["alice", "--role", "ROOT"],
    ["alice", "--ttl", "0"],
    ["alice", "--ttl", "1.5"],
    ["alice", "--ttl", "999999"],
    ["alice", "--colour"],
  ]) {
    const error = await t.throwsAsync(tokenCommand(args, { DATA_DIR: dataDir }));
    t.like(error, { code: 2, stdout: "" }, args.join(" "));
  }
});
