// Each operation of the contract (@pokerodds/api) mounted at its path with what it needs in front of
// it, so the routes and the OpenAPI document cannot disagree.
import type { ApiPart } from "@pokerodds/api/operation";
import { setHttpRoute } from "@pokerodds/common/tracing/http-span";
import type { Express, RequestHandler } from "express";
import { methodNotAllowed } from "./errors.js";
import { optionalJsonBody } from "./request.js";

/** A feature's handlers: one per operation, by operationId. */
export type Handlers<Part extends ApiPart> = Record<keyof Part["operations"], RequestHandler>;

export interface MountGuards {
  /** Token check (and the player's rate limit), for every operation that is not public. */
  authenticated: RequestHandler[];
  /** The cap on heavy operations in flight: wraps the handler, whose slot it holds until it is done. */
  heavy: (handler: RequestHandler) => RequestHandler;
}

/** Mounts parts' operations, each behind its guards; `finish` answers 405 on their paths' other methods. */
export function operationMounter(app: Express, guards: MountGuards) {
  const methods = new Map<string, string[]>();
  return {
    mount<Part extends ApiPart>(part: Part, handlers: Handlers<Part>) {
      for (const [operationId, op] of Object.entries(part.operations)) {
        const before = [...(op.isPublic ? [] : guards.authenticated), ...(op.body ? [optionalJsonBody] : [])];
        const handler = handlers[operationId as keyof Handlers<Part>];
        const path = op.path.replace(/\{(\w+)\}/g, ":$1");
        app[op.method](path, traceRoute(path), ...before, op.heavy ? guards.heavy(handler) : handler);
        methods.set(path, [...(methods.get(path) ?? []), op.method.toUpperCase()]);
      }
    },
    finish() {
      for (const [path, allowed] of methods) app.all(path, traceRoute(path), methodNotAllowed(allowed));
    },
  };
}

/** Names the request's trace span after the route template, not the URL (which holds ids). */
function traceRoute(path: string): RequestHandler {
  return (request, _response, next) => {
    setHttpRoute(request.method, path);
    next();
  };
}
