// A bearer token to the verified caller's identity: its signature, issuer, audience and times checked
// against the identity provider's keys, and its claims mapped as decisions.md says.
import { isRole, type Role } from "@pokerodds/api/players";
import { DISPLAY_NAME_MAX_LENGTH, fitText, isBlank, USERNAME_MAX_LENGTH } from "@pokerodds/common/limits";
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  jwtVerify,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from "jose";
import { createHash } from "node:crypto";
import { HttpError, unauthorized } from "../http/errors.js";

/**
 * Asymmetric signatures only: `none` and HMAC (whose secret a public key could pose as) are refused.
 * Ed25519 is EdDSA's newer, fully specified name (RFC 9864), which identity providers move to.
 */
const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

const CLOCK_TOLERANCE_S = 30;
// jose checks a future `iat` only with maxTokenAge; a day is longer than any access token lives.
const MAX_TOKEN_AGE_S = 86_400;

/** The verified caller, as decisions.md maps the token's claims. */
export interface Identity {
  playerId: string;
  username: string;
  displayName: string;
  role: Role;
  /**
   * When this gateway stops accepting the token (its end, tokenEndMs, plus the clock tolerance): what
   * outlives the request, an event stream, ends then too.
   */
  acceptedUntilMs: number;
}

/** Claims of a verified token; sub has been checked to be a non-empty string. */
function identityFromClaims(claims: JWTPayload & { sub: string }): Identity {
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  const username = text(claims.email) ?? text(claims.preferred_username) ?? claims.sub;
  // The display name is shown to every player at a table (a seat's playerName), the username only to
  // its player: `name`, else `preferred_username`, else the playerId, which the seat shows anyway;
  // never an e-mail address (some providers fill `name` with it), nor a blank (invisible characters too).
  const publicName = (value: unknown) => {
    const name = text(value);
    if (name === undefined || looksLikeEmail(name)) return undefined;
    // Judged as it is stored: controls become spaces, and a long name is cut to its start.
    return isBlank(fitText(name, DISPLAY_NAME_MAX_LENGTH)) ? undefined : name;
  };
  // Names are shown, not identifiers: shortened to what the wallet stores rather than refused.
  return {
    playerId: claims.sub,
    username: fitText(username, USERNAME_MAX_LENGTH),
    displayName: fitText(
      publicName(claims.name) ?? publicName(claims.preferred_username) ?? claims.sub,
      DISPLAY_NAME_MAX_LENGTH,
    ),
    role: isRole(claims.role) ? claims.role : "BASIC_USER",
    acceptedUntilMs: tokenEndMs(claims) + 1000 * CLOCK_TOLERANCE_S,
  };
}

/** When a token's own times end it: exp, or iat plus the maximum age if sooner. */
function tokenEndMs(claims: JWTPayload): number {
  const expMs = (claims.exp ?? 0) * 1000;
  return claims.iat === undefined ? expMs : Math.min(expMs, 1000 * (claims.iat + MAX_TOKEN_AGE_S));
}

/** An "@" in the name, also as a look-alike that NFKC folds into one (＠, ﹫). */
const looksLikeEmail = (name: string): boolean => name.normalize("NFKC").includes("@");

export type TokenVerifier = (token: string) => Promise<Identity>;

/** The key set could not be fetched: the identity provider's fault, not the token's. */
class KeySetUnavailableError extends Error {
  constructor(cause: unknown) {
    super("identity provider key set unavailable", { cause });
  }
}

// These come from matching the token's header against the key set, so the token is at fault.
const TOKEN_KEY_ERRORS = new Set(["ERR_JWKS_NO_MATCHING_KEY", "ERR_JWKS_MULTIPLE_MATCHING_KEYS"]);

/**
 * How long a key the identity provider withdraws may still open the API, for tokens already seen too:
 * the key set is trusted for half of it before it is fetched again, and a verified token's verdict is
 * remembered for the other half at most (cachedTokenVerifier). Each of them for the whole time let a
 * token first checked against a key set about to expire be remembered after it, for nearly twice it.
 */
const WITHDRAWN_KEY_OPENS_MS = 600_000;
const KEY_SET_MAX_AGE_MS = WITHDRAWN_KEY_OPENS_MS / 2;
const VERDICT_MAX_AGE_MS = WITHDRAWN_KEY_OPENS_MS / 2;

/** The identity provider's JWKS, cached by jose; a failed fetch becomes KeySetUnavailableError. */
export function remoteKeys(url: URL): JWTVerifyGetKey {
  const keySet = createRemoteJWKSet(url, { cacheMaxAge: KEY_SET_MAX_AGE_MS });
  return async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (error) {
      if (TOKEN_KEY_ERRORS.has((error as { code?: string }).code ?? "")) throw error;
      throw new KeySetUnavailableError(error);
    }
  };
}

export function localKeys(publicJwk: JWK): JWTVerifyGetKey {
  return createLocalJWKSet({ keys: [publicJwk] });
}

const REASONS: Record<string, string> = {
  ERR_JWT_EXPIRED: "the token has expired",
  ERR_JOSE_ALG_NOT_ALLOWED: "the token's signing algorithm is not allowed",
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: "the token's signature is invalid",
  ERR_JWKS_NO_MATCHING_KEY: "the token's signing key is unknown",
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: "the token's signing key is ambiguous",
};

export function createTokenVerifier(options: {
  keys: JWTVerifyGetKey;
  issuer: string;
  audience: string;
}): TokenVerifier {
  return async (token) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, options.keys, {
        algorithms: ALGORITHMS,
        issuer: options.issuer,
        audience: options.audience,
        requiredClaims: ["exp", "sub"],
        clockTolerance: CLOCK_TOLERANCE_S,
        maxTokenAge: MAX_TOKEN_AGE_S,
      }));
    } catch (error) {
      // Logged, with its cause, by the error handler as every 5xx is.
      if (error instanceof KeySetUnavailableError)
        throw new HttpError(503, "identity provider unavailable", { cause: error });
      // jose also throws plain TypeErrors for some malformed input: every failure is the token's.
      throw unauthorized(`Authorization header is invalid: ${reasonFor(error)}`, true);
    }
    const sub = payload.sub;
    // Its length and characters are checked after: a valid token whose subject is longer than a
    // playerId may be is a 400 naming the limit (requireAuth), not an invalid token.
    if (typeof sub !== "string" || sub === "") {
      throw unauthorized("Authorization header is invalid: the token's subject is invalid", true);
    }
    return identityFromClaims({ ...payload, sub });
  };
}

/** Tokens remembered as verified: a player's tokens are few, and a flood of bad ones evicts only itself. */
const VERIFIED_CACHE_SIZE = 10_000;

interface Verified {
  identity: Identity;
  /** When the cached verdict stops holding: the token's expiry, its maximum age, or VERDICT_MAX_AGE_MS, whichever is first. */
  untilMs: number;
}

/**
 * A signature check costs more than the rest of a refused request: a token that verified is
 * remembered (by its SHA-256, least recently used first out) until it expires, or for
 * VERDICT_MAX_AGE_MS if that is sooner, so a client sending
 * the same token again, a flooder's included, is not checked again. Failures are never remembered.
 */
export function cachedTokenVerifier(verify: TokenVerifier, now: () => number = Date.now): TokenVerifier {
  const verified = new Map<string, Verified>();
  return async (token) => {
    const key = createHash("sha256").update(token).digest("base64");
    const hit = verified.get(key);
    if (hit && hit.untilMs > now()) {
      verified.delete(key);
      verified.set(key, hit);
      return hit.identity;
    }
    verified.delete(key);
    const identity = await verify(token);
    // The token's own end (its acceptance less the tolerance), or the verdict's age, whichever is first.
    const untilMs = Math.min(identity.acceptedUntilMs - 1000 * CLOCK_TOLERANCE_S, now() + VERDICT_MAX_AGE_MS);
    if (untilMs > now()) {
      verified.set(key, { identity, untilMs });
      if (verified.size > VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
    }
    return identity;
  };
}

/** The answer to a token this gateway no longer accepts, also when it ran out during a request (an event stream's wait). */
export const expiredToken = () => unauthorized(`Authorization header is invalid: ${REASONS.ERR_JWT_EXPIRED}`, true);

function reasonFor(error: unknown): string {
  const { code, claim } = error as { code?: string; claim?: string };
  if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED" && claim) return `the token's "${claim}" claim is missing or invalid`;
  return (code && REASONS[code]) ?? "the token is malformed or invalid";
}
