// The local development issuer's key (the token command, which signs with it, is tools/src/token.ts).
import test from "ava";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devKeyPath, loadOrCreateDevKey } from "../src/auth/dev-issuer.js";

async function tempDataDir(t: import("ava").ExecutionContext) {
  const dir = await mkdtemp(join(tmpdir(), "gateway-dev-issuer-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, "data");
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
