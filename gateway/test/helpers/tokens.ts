import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from "jose";
import { signDevToken, type DevKey } from "@pokerodds/common/dev-issuer";
import type { Role } from "@pokerodds/api/players";
import { createTokenVerifier, localKeys } from "../../src/auth/token-verifier.js";

export const ISSUER = "test-issuer";
export const AUDIENCE = "test-audience";

export async function newKey(
  alg: "ES256" | "RS256" | "EdDSA" | "Ed25519" = "ES256",
): Promise<DevKey & { privateKey: CryptoKey }> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  const privateJwk: JWK = { ...jwk, kid, alg, use: "sig" };
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = privateJwk;
  return { privateJwk, publicJwk, privateKey };
}

export function verifierFor(key: DevKey) {
  return createTokenVerifier({ keys: localKeys(key.publicJwk), issuer: ISSUER, audience: AUDIENCE });
}

export function validToken(key: DevKey, playerId = "player-1", role?: Role) {
  return signDevToken(key, {
    playerId,
    role,
    ttlSeconds: 600,
    issuer: ISSUER,
    audience: AUDIENCE,
    email: "p1@example.com",
    name: "P One",
  });
}

/** A token with exactly these claims and header, signed by key; for the cases signDevToken would not make. */
export function customToken(
  key: { privateKey: CryptoKey; privateJwk: JWK },
  claims: JWTPayload,
  alg = key.privateJwk.alg ?? "ES256",
) {
  return new SignJWT(claims).setProtectedHeader({ alg, kid: key.privateJwk.kid! }).sign(key.privateKey);
}
