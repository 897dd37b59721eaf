// The local development issuer: one ES256 key pair under <DATA_DIR>/dev-issuer/, shared by the
// gateway (which verifies, and signs the web client's development sign-in) and the tools (`npm run
// token`, the operator CLIs' admin token), which sign. Whoever runs first creates it.
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { randomUUID } from "node:crypto";
import { privateDirectory } from "./private-directory.js";
import { link, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Role } from "./roles.js";

const DEV_ALGORITHM = "ES256";
export const DEV_ISSUER = "pokerodds-dev";
export const DEV_AUDIENCE = "pokerodds-api";

export interface DevKey {
  privateJwk: JWK;
  publicJwk: JWK;
}

export function devKeyPath(dataDir: string): string {
  return join(dataDir, "dev-issuer", "es256-private.jwk.json");
}

/** Reads the key pair, creating it first if absent; concurrent callers all end with the same key. */
export async function loadOrCreateDevKey(dataDir: string): Promise<DevKey> {
  const path = devKeyPath(dataDir);
  // Checked before the key is read: a key another user left there would sign for any player.
  await privateDirectory(join(dataDir, "dev-issuer"));
  const existing = await readKey(path);
  if (existing) return existing;
  const temporary = `${path}.${randomUUID()}.tmp`;
  await writeFile(temporary, JSON.stringify(await newPrivateJwk()), { mode: 0o600, flag: "wx" });
  try {
    // link() never replaces an existing file, unlike rename(): the first writer wins, whole.
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await unlink(temporary);
  }
  const created = await readKey(path);
  if (!created) throw new Error(`development key ${path} vanished`);
  return created;
}

async function newPrivateJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(DEV_ALGORITHM, { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: DEV_ALGORITHM, use: "sig" };
}

async function readKey(path: string): Promise<DevKey | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const privateJwk = JSON.parse(text) as JWK;
  if (privateJwk.kty !== "EC" || privateJwk.crv !== "P-256" || !privateJwk.d || !privateJwk.kid) {
    throw new Error(`${path} is not an ES256 private key; delete it to get a new one`);
  }
  const { kty, crv, x, y, kid, alg, use } = privateJwk;
  return { privateJwk, publicJwk: { kty, crv, x, y, kid, alg, use } };
}

interface DevTokenClaims {
  playerId: string;
  role?: Role;
  email?: string;
  name?: string;
  ttlSeconds: number;
  issuer: string;
  audience: string;
}

export async function signDevToken(key: DevKey, claims: DevTokenClaims): Promise<string> {
  const payload: Record<string, string> = {};
  if (claims.email) payload.email = claims.email;
  if (claims.name) payload.name = claims.name;
  if (claims.role) payload.role = claims.role;
  // One reading of the clock: two would give a token one second longer than asked for whenever a
  // second boundary falls between them.
  const issuedAt = Math.floor(Date.now() / 1000);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: DEV_ALGORITHM, typ: "JWT", kid: key.privateJwk.kid })
    .setSubject(claims.playerId)
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + claims.ttlSeconds)
    .sign(await importJWK(key.privateJwk, DEV_ALGORITHM));
}
