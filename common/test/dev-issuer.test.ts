// The local development issuer's key (the token command, which signs with it, is tools/src/token.ts).
import test from "ava";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeJwt } from "jose";
import { devKeyPath, loadOrCreateDevKey, signDevToken } from "../src/dev-issuer.js";

async function tempDataDir(t: import("ava").ExecutionContext) {
  const dir = await mkdtemp(join(tmpdir(), "dev-issuer-"));
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

// Serial, so no other test runs while the global clock is replaced.
test.serial("a token lives exactly its TTL even when the clock crosses a second while it is signed", async (t) => {
  const key = await loadOrCreateDevKey(await tempDataDir(t));
  const RealDate = globalThis.Date;
  let readings = 0;
  // Every reading of the clock is a whole second after the one before it.
  const tickingNow = () => RealDate.UTC(2026, 0, 1) + 1000 * readings++;
  class TickingDate extends RealDate {
    constructor() {
      super(tickingNow()); // jose reads the clock only as `new Date()`
    }
    static override now = tickingNow;
  }
  globalThis.Date = TickingDate as DateConstructor;
  try {
    const token = await signDevToken(key, { playerId: "p", ttlSeconds: 300, issuer: "i", audience: "a" });
    const { iat, exp } = decodeJwt(token);
    t.is(exp! - iat!, 300);
  } finally {
    globalThis.Date = RealDate;
  }
});
