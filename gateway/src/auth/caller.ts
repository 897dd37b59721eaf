// The verified caller on a request: requireAuth puts it there, and from it come the player a request
// acts for and how the backends see it.
import type { Role } from "@pokerodds/api/players";
import type { Caller } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { Role as WalletRole, type Claims } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { playerIdProblem } from "@pokerodds/common/limits";
import { roleFromProto, roleToProto } from "@pokerodds/common/roles";
import type { RequestHandler, Response } from "express";
import { badRequest, forbidden, unauthorized } from "../http/errors.js";
import type { Identity, TokenVerifier } from "./token-verifier.js";

/** The public name of a stored role; one the wallet did not set (or this gateway does not know) is the spec's error value. */
export function roleName(role: WalletRole): Role | "UNSPECIFIED_DUE_TO_ERROR" {
  return roleFromProto(role) ?? "UNSPECIFIED_DUE_TO_ERROR";
}

/**
 * The player a request acts for or reads: the one it names, which must be the caller unless the
 * caller is an ADMIN (else 403), or the caller when it names none.
 */
export function actingPlayerId(identity: Identity, named: string | undefined): string {
  if (named === undefined || named === identity.playerId) return identity.playerId;
  if (identity.role === "ADMIN") {
    const problem = playerIdProblem(named);
    if (problem) throw badRequest(problem);
    return named;
  }
  throw forbidden("playerId must be the token's subject unless the caller is an ADMIN");
}

// The verified caller as the backends' contracts carry it.

/** For the wallet's GetProfile, which creates the player on first read and keeps names and role current. */
export function claimsOf(identity: Identity): Claims {
  return {
    playerId: identity.playerId,
    username: identity.username,
    displayName: identity.displayName,
    role: roleToProto(identity.role),
  };
}

/** For the table service: the player the request acts for (actingPlayerId's), with the caller's role. */
export function callerFor(identity: Identity, playerId: string = identity.playerId): Caller {
  return { playerId, role: roleToProto(identity.role) };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** The verified caller, set by requireAuth on every route behind it. */
      identity?: Identity;
    }
  }
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Node keeps the first of several Authorization headers and drops the rest, while a proxy or a log
 * in front may read the last: a request that two readers would take for two callers is refused.
 */
function sentMoreThanOnce(rawHeaders: readonly string[], name: string): boolean {
  let seen = 0;
  for (let at = 0; at < rawHeaders.length; at += 2) {
    const header = rawHeaders[at]!;
    if (header.length === name.length && header.toLowerCase() === name && ++seen > 1) return true;
  }
  return false;
}

/** Verifies the bearer token and puts the caller on res.locals.identity. */
export function requireAuth(verify: TokenVerifier): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    if (!header) throw unauthorized("Authorization header is missing", false);
    if (sentMoreThanOnce(req.rawHeaders, "authorization")) {
      throw unauthorized("Authorization header is invalid: sent more than once", true);
    }
    const token = BEARER.exec(header)?.[1];
    if (!token) throw unauthorized("Authorization header is invalid: expected 'Bearer <token>'", true);
    const identity = await verify(token);
    // A valid token whose subject no service could store: refused here, naming the public field.
    const problem = playerIdProblem(identity.playerId, "the token's subject (playerId)");
    if (problem) throw badRequest(problem);
    res.locals.identity = identity;
    next();
  };
}

/** The caller that requireAuth verified; only for routes behind it. */
export function identityOf(res: Response): Identity {
  const identity = res.locals.identity;
  if (!identity) throw new Error("the route is not behind requireAuth");
  return identity;
}
