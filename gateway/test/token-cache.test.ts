// A verified token is remembered until it expires (for ten minutes at most, the key set's age), so its
// signature is checked once; a token that failed, or has expired since, is checked (and refused) every time.
import test from "ava";
import { cachedTokenVerifier, type TokenVerifier } from "../src/auth/token-verifier.js";
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

test("a cached verdict ends when the key set is fetched again, even for a long-lived token: a withdrawn key stops working", async (t) => {
  const key = await newKey();
  const inner = counting(verifierFor(key));
  let clock = Date.now();
  const verify = cachedTokenVerifier(inner.verify, () => clock);
  const now = Math.floor(clock / 1000);
  const token = await customToken(key, { sub: "carol", iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 3600 });
  await verify(token);
  clock += 599_000;
  await verify(token);
  t.is(inner.calls, 1, "within the key set's ten minutes, the remembered verdict");
  clock += 2_000;
  await verify(token);
  t.is(inner.calls, 2, "after them, the signature is checked against the key set again");
});

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
