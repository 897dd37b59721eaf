import type { RequestHandler, Response } from "express";
import { unauthorized } from "../http/http-error.js";
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
    res.locals.identity = await verify(token);
    next();
  };
}

/** The caller that requireAuth verified; only for routes behind it. */
export function identityOf(res: Response): Identity {
  const identity = res.locals.identity;
  if (!identity) throw new Error("the route is not behind requireAuth");
  return identity;
}
