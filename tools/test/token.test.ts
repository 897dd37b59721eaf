// `npm run token`: what it prints is a token the gateway accepts, with the claims asked for.
import { DEV_AUDIENCE, DEV_ISSUER, loadOrCreateDevKey } from "@pokerodds/common/dev-issuer";
import { createTokenVerifier, localKeys } from "@pokerodds/gateway/auth/token-verifier";
import test from "ava";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const TOKEN_CLI = fileURLToPath(new URL("../src/token.ts", import.meta.url));

async function tempDataDir(t: import("ava").ExecutionContext) {
  const dir = await mkdtemp(join(tmpdir(), "tools-token-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, "data");
}

/** Runs the token command as `npm run token` would, with tsx loading the TypeScript source. */
function tokenCommand(args: string[], env: Record<string, string>) {
  const { AUTH_JWKS_URL: _jwks, AUTH_ISSUER: _issuer, AUTH_AUDIENCE: _audience, ...inherited } = process.env;
  return run(process.execPath, ["--import=tsx/esm", TOKEN_CLI, ...args], { env: { ...inherited, ...env } });
}

test("npm run token prints only a token the gateway accepts", async (t) => {
  const dataDir = await tempDataDir(t);
  await loadOrCreateDevKey(dataDir); // as the stack makes it on its first start
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
  const payload = JSON.parse(Buffer.from(stdout.split(".")[1]!, "base64url").toString()) as {
    exp: number;
    iat: number;
  };
  t.deepEqual(await verify(stdout.trim()), {
    playerId: "alice",
    username: "alice@example.com",
    displayName: "Alice",
    role: "ADMIN",
    // Accepted until exp and the gateway's 30 s of clock tolerance.
    acceptedUntilMs: (payload.exp + 30) * 1000,
  });
  t.is(payload.exp - payload.iat, 120);
});

test("without a key under DATA_DIR the token command makes one and says so; the next run says nothing", async (t) => {
  const dataDir = await tempDataDir(t);
  const first = await tokenCommand(["carol"], { DATA_DIR: dataDir });
  t.regex(
    first.stderr,
    /^no development issuer key was under .*: made one; a stack already running on another DATA_DIR refuses this token\n$/,
  );
  t.regex(first.stdout, /^[\w-]+\.[\w-]+\.[\w-]+\n$/);
  t.is((await tokenCommand(["carol"], { DATA_DIR: dataDir })).stderr, "");
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
