import type { RequestHandler, Response } from "express";
import { playerIdProblem } from "@pokerodds/common/limits";
import { badRequest, unauthorized } from "../http/http-error.js";
import type { Identity } from "./identity.js";
import type { TokenVerifier } from "./token-verifier.js";

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

/** Verifies the bearer token and puts the caller on res.locals.identity. */
export function requireAuth(verify: TokenVerifier): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    if (!header) throw unauthorized("Authorization header is missing", false);
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
