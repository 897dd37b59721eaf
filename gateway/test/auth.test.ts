import test from "ava";
import { exportSPKI, importJWK, SignJWT, UnsecuredJWT, type CryptoKey } from "jose";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createTokenVerifier, remoteKeys } from "../src/auth/token-verifier.js";
import { post, startApp, type TestApp } from "./helpers/app.js";
import { AUDIENCE, customToken, ISSUER, newKey, validToken, verifierFor } from "./helpers/tokens.js";

const key = await newKey();
const otherKey = await newKey();
const now = () => Math.floor(Date.now() / 1000);
const claims = () => ({ sub: "player-1", iss: ISSUER, aud: AUDIENCE, iat: now(), exp: now() + 600 });

let app: TestApp;
test.before(async () => {
  app = await startApp({ verifyToken: verifierFor(key) });
});
test.after.always(() => app.close());

async function assertUnauthorized(t: import("ava").ExecutionContext, authorization: string | undefined) {
  const response = await fetch(`${app.url}/api/deal`, {
    method: "POST",
    headers: authorization === undefined ? {} : { authorization },
  });
  t.is(response.status, 401);
  t.regex(response.headers.get("www-authenticate") ?? "", /^Bearer\b/);
  const body = (await response.json()) as { error?: unknown };
  t.is(typeof body.error, "string");
  t.regex(String(body.error), /^Authorization header is (missing|invalid)/);
  t.is(app.odds.calls.length, 0, "nothing reached the odds service");
  return String(body.error);
}

test.serial("a valid token passes", async (t) => {
  const response = await post(app, "/api/deal", undefined, { authorization: `Bearer ${await validToken(key)}` });
  t.is(response.status, 200);
  app.odds.calls.length = 0;
});

test.serial("missing Authorization header", async (t) => {
  t.is(await assertUnauthorized(t, undefined), "Authorization header is missing");
});

test.serial("not a Bearer header, or not a JWT", async (t) => {
  const token = await validToken(key);
  for (const header of [
    `Basic ${token}`,
    token,
    "Bearer",
    "Bearer ",
    "Bearer not-a-jwt",
    "Bearer a.b.c",
    "Bearer e30.e30.e30",
    "Bearer ..",
    `Bearer ${token}.x`,
    `Bearer ${token.slice(0, -4)}`,
  ]) {
    await assertUnauthorized(t, header);
  }
});

test.serial(
  "two Authorization headers, even two valid tokens: Node would read the first, a proxy may read the last",
  async (t) => {
    const { request } = await import("node:http");
    const { port } = new URL(app.url);
    const mine = `Bearer ${await validToken(key)}`;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const sent = request(
        { host: "127.0.0.1", port, path: "/api/deal", method: "POST", headers: { Authorization: [mine, mine] } },
        (response) => {
          let body = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (body += chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      sent.on("error", reject);
      sent.end();
    });
    t.deepEqual(answer, {
      status: 401,
      body: JSON.stringify({ error: "Authorization header is invalid: sent more than once" }),
    });
    t.is(app.odds.calls.length, 0, "nothing reached the odds service");
  },
);

test.serial("signed by another key", async (t) => {
  t.regex(await assertUnauthorized(t, `Bearer ${await validToken(otherKey)}`), /signing key is unknown/);
  // Same kid as the trusted key, other key material: the signature check refuses it.
  const forged = await new SignJWT(claims())
    .setProtectedHeader({ alg: "ES256", kid: key.privateJwk.kid! })
    .sign(otherKey.privateKey);
  t.regex(await assertUnauthorized(t, `Bearer ${forged}`), /signature is invalid/);
});

test.serial("expired", async (t) => {
  const token = await customToken(key, { ...claims(), iat: now() - 7200, exp: now() - 3600 });
  t.regex(await assertUnauthorized(t, `Bearer ${token}`), /expired/);
});

test.serial("expired by more than the clock tolerance, but not by less", async (t) => {
  await assertUnauthorized(t, `Bearer ${await customToken(key, { ...claims(), exp: now() - 45 })}`);
  const response = await post(app, "/api/deal", undefined, {
    authorization: `Bearer ${await customToken(key, { ...claims(), exp: now() - 10 })}`,
  });
  t.is(response.status, 200);
  app.odds.calls.length = 0;
});

test.serial("not valid yet (future nbf)", async (t) => {
  t.regex(await assertUnauthorized(t, `Bearer ${await customToken(key, { ...claims(), nbf: now() + 120 })}`), /"nbf"/);
});

test.serial("issued in the future", async (t) => {
  await assertUnauthorized(t, `Bearer ${await customToken(key, { ...claims(), iat: now() + 3600 })}`);
});

test.serial("wrong issuer, wrong or missing audience", async (t) => {
  t.regex(
    await assertUnauthorized(t, `Bearer ${await customToken(key, { ...claims(), iss: "someone-else" })}`),
    /"iss"/,
  );
  t.regex(
    await assertUnauthorized(t, `Bearer ${await customToken(key, { ...claims(), aud: "another-api" })}`),
    /"aud"/,
  );
  const { aud: _aud, ...noAudience } = claims();
  await assertUnauthorized(t, `Bearer ${await customToken(key, noAudience)}`);
});

test("tokens signed with Ed25519 pass, under either of its names", async (t) => {
  for (const alg of ["EdDSA", "Ed25519"] as const) {
    const edKey = await newKey(alg);
    const identity = await verifierFor(edKey)(await customToken(edKey, claims()));
    t.is(identity.playerId, "player-1", alg);
  }
});

test.serial("alg none", async (t) => {
  const unsecured = new UnsecuredJWT(claims()).encode();
  t.regex(await assertUnauthorized(t, `Bearer ${unsecured}`), /algorithm is not allowed/);
});

test.serial("HS256 signed with the public key as the secret", async (t) => {
  const pem = new TextEncoder().encode(await exportSPKI((await importJWK(key.publicJwk, "ES256")) as CryptoKey));
  const jwkSecret = new TextEncoder().encode(JSON.stringify(key.publicJwk));
  for (const secret of [pem, jwkSecret]) {
    const token = await new SignJWT(claims())
      .setProtectedHeader({ alg: "HS256", kid: key.privateJwk.kid! })
      .sign(secret);
    t.regex(await assertUnauthorized(t, `Bearer ${token}`), /algorithm is not allowed/);
  }
});

test.serial("no exp, no sub, empty sub", async (t) => {
  const { exp: _exp, ...noExp } = claims();
  t.regex(await assertUnauthorized(t, `Bearer ${await customToken(key, noExp)}`), /"exp"/);
  const { sub: _sub, ...noSub } = claims();
  t.regex(await assertUnauthorized(t, `Bearer ${await customToken(key, noSub)}`), /"sub"/);
  await assertUnauthorized(t, `Bearer ${await customToken(key, { ...claims(), sub: "" })}`);
});

test.serial("public endpoints need no token", async (t) => {
  t.is((await fetch(`${app.url}/api/health`)).status, 200);
  t.is((await fetch(`${app.url}/api/openapi.json`)).status, 200);
});

test("claims map to the identity; an unknown role is BASIC_USER", async (t) => {
  const verify = verifierFor(key);
  const times = claims();
  // Accepted until exp plus the 30 s of clock tolerance (an event stream ends then).
  const acceptedUntilMs = (times.exp + 30) * 1000;
  t.deepEqual(await verify(await customToken(key, { ...times, email: "a@b.io", name: "Ann", role: "ADMIN" })), {
    playerId: "player-1",
    username: "a@b.io",
    displayName: "Ann",
    role: "ADMIN",
    acceptedUntilMs,
  });
  t.is((await verify(await customToken(key, { ...claims(), role: "ROOT" }))).role, "BASIC_USER");
  t.deepEqual(await verify(await customToken(key, times)), {
    playerId: "player-1",
    username: "player-1",
    displayName: "player-1",
    role: "BASIC_USER",
    acceptedUntilMs,
  });
  // A day after iat at most, whatever exp says.
  const longLived = { ...times, exp: times.iat + 2 * 86_400 };
  t.is((await verify(await customToken(key, longLived))).acceptedUntilMs, (times.iat + 86_400 + 30) * 1000);
  // The display name is shown to every player at a table; the e-mail only to its player.
  const withoutName = await verify(await customToken(key, { ...claims(), email: "carol@private.example" }));
  t.deepEqual([withoutName.username, withoutName.displayName], ["carol@private.example", "player-1"]);
  const named = await verify(
    await customToken(key, { ...claims(), email: "c@p.example", preferred_username: "carol" }),
  );
  t.is(named.displayName, "carol");
  const emailAsName = { ...claims(), email: "c@p.example", preferred_username: "c@p.example" };
  t.is((await verify(await customToken(key, emailAsName))).displayName, "player-1");
  // Some providers fill `name` with the e-mail; a look-alike "@" and a blank name count as none too.
  for (const [name, shown] of [
    ["carol@private.example", "carol"],
    ["carol＠private.example", "carol"],
    ["carol﹫private.example", "carol"],
    ["   ", "carol"],
    // Characters that show nothing are as blank: a seat named so would show no name at all.
    ["\u200b\u200b", "carol"],
    ["\u3164", "carol"],
    ["\u2800 \ufe0f", "carol"],
    // Judged as stored: direction controls become spaces, and a long name keeps its start alone.
    ["\u202e\u2066\u2069", "carol"],
    [`${" ".repeat(200)}Alice`, "carol"],
  ] as const) {
    const token = await customToken(key, {
      ...claims(),
      email: "carol@private.example",
      name,
      preferred_username: "carol",
    });
    t.is((await verify(token)).displayName, shown, name);
  }
  const lookalike = { ...claims(), preferred_username: "carol＠private.example" };
  t.is((await verify(await customToken(key, lookalike))).displayName, "player-1");
});

test("a remote JWKS verifies, and a JWKS that cannot be fetched is a 503, not a 401", async (t) => {
  const rsa = await newKey("RS256");
  const jwks = createServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ keys: [rsa.publicJwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
  const jwksUrl = new URL(`http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`);
  const remote = await startApp({
    verifyToken: createTokenVerifier({ keys: remoteKeys(jwksUrl), issuer: ISSUER, audience: AUDIENCE }),
  });
  const down = await startApp({
    verifyToken: createTokenVerifier({
      keys: remoteKeys(new URL("http://127.0.0.1:1/jwks.json")),
      issuer: ISSUER,
      audience: AUDIENCE,
    }),
  });
  t.teardown(async () => {
    await remote.close();
    await down.close();
    jwks.close();
  });

  const token = await customToken(rsa, claims(), "RS256");
  t.is((await post(remote, "/api/deal", undefined, { authorization: `Bearer ${token}` })).status, 200);
  const unknownKid = await post(remote, "/api/deal", undefined, { authorization: `Bearer ${await validToken(key)}` });
  t.is(unknownKid.status, 401);

  const response = await post(down, "/api/deal", undefined, { authorization: `Bearer ${token}` });
  t.is(response.status, 503);
  t.deepEqual(await response.json(), { error: "identity provider unavailable" });
});
