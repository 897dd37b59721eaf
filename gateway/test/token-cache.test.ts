// A verified token is remembered until it expires (for five minutes at most), so its signature is
// checked once; a token that failed, or has expired since, is checked (and refused) every time. A key
// the identity provider withdraws opens the API for ten minutes at most, remembered tokens included.
import test from "ava";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  cachedTokenVerifier,
  createTokenVerifier,
  remoteKeys,
  type TokenVerifier,
} from "../src/auth/token-verifier.js";
import { AUDIENCE, ISSUER, customToken, newKey, verifierFor } from "./helpers/tokens.js";

function counting(verify: TokenVerifier) {
  const counted = { calls: 0, verify: (token: string) => (counted.calls++, verify(token)) };
  return counted;
}

test("the same valid token is verified once, and answers the same identity", async (t) => {
  const key = await newKey();
  const inner = counting(verifierFor(key));
  const verify = cachedTokenVerifier(inner.verify);
  const now = Math.floor(Date.now() / 1000);
  const token = await customToken(key, { sub: "alice", iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 600 });
  const first = await verify(token);
  t.deepEqual(await verify(token), first);
  t.is(first.playerId, "alice");
  t.is(inner.calls, 1);
});

test("a cached verdict ends at the token's expiry: then the token is checked again and refused", async (t) => {
  const key = await newKey();
  const inner = counting(verifierFor(key));
  let clock = Date.now();
  const verify = cachedTokenVerifier(inner.verify, () => clock);
  const now = Math.floor(clock / 1000);
  const token = await customToken(key, { sub: "bob", iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 60 });
  await verify(token);
  clock += 61_000;
  // The inner verifier uses the real clock, for which the token is still valid: it is asked again.
  await verify(token);
  t.is(inner.calls, 2);
});

test("a cached verdict ends after five minutes, even for a long-lived token: a withdrawn key stops working", async (t) => {
  const key = await newKey();
  const inner = counting(verifierFor(key));
  let clock = Date.now();
  const verify = cachedTokenVerifier(inner.verify, () => clock);
  const now = Math.floor(clock / 1000);
  const token = await customToken(key, { sub: "carol", iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 3600 });
  await verify(token);
  clock += 299_000;
  await verify(token);
  t.is(inner.calls, 1, "within five minutes, the remembered verdict");
  clock += 2_000;
  await verify(token);
  t.is(inner.calls, 2, "after them, the signature is checked against the key set again");
});

test.serial(
  "a key the provider withdraws opens the API for ten minutes at most, tokens checked just before the key set expires included",
  async (t) => {
    const key = await newKey();
    let published = [key.publicJwk];
    const jwks = createServer((_req, res) =>
      res.setHeader("content-type", "application/json").end(JSON.stringify({ keys: published })),
    );
    await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
    t.teardown(() => jwks.close());
    const url = new URL(`http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`);
    // jose's key set ages by Date.now, as the verdicts do.
    const realNow = Date.now.bind(Date);
    let offsetMs = 0;
    Date.now = () => realNow() + offsetMs;
    t.teardown(() => (Date.now = realNow));
    const verify = cachedTokenVerifier(
      createTokenVerifier({ keys: remoteKeys(url), issuer: ISSUER, audience: AUDIENCE }),
    );
    const now = Math.floor(realNow() / 1000);
    const tokenOf = (sub: string) => customToken(key, { sub, iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 7200 });
    await verify(await tokenOf("first")); // the key set fetched at 0
    published = []; // withdrawn at once
    const late = await tokenOf("late");
    offsetMs = 299_000; // checked against the key set still trusted
    t.is((await verify(late)).playerId, "late");
    offsetMs = 601_000; // remembered no longer: checked against the key set fetched again
    await t.throwsAsync(verify(late), { message: /signing key is unknown/ });
  },
);

test("a refused token is never remembered", async (t) => {
  const key = await newKey();
  const other = await newKey();
  const inner = counting(verifierFor(key));
  const verify = cachedTokenVerifier(inner.verify);
  const now = Math.floor(Date.now() / 1000);
  const forged = await customToken(other, { sub: "mallory", iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 600 });
  await t.throwsAsync(verify(forged));
  await t.throwsAsync(verify(forged));
  t.is(inner.calls, 2);
});
