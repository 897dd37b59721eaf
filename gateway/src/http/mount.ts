// Each operation of the contract (@pokerodds/api) mounted at its path with what it needs in front of
// it, so the routes and the OpenAPI document cannot disagree.
import { HEALTH_PATH, type ApiPart, type Operation } from "@pokerodds/api/operation";
import { optionalBodyValidator } from "@pokerodds/api/validate";
import { setHttpRoute } from "@pokerodds/common/tracing/http-span";
import type { TObject } from "@sinclair/typebox";
import type { Express, RequestHandler } from "express";
import { badRequest, methodNotAllowed } from "./errors.js";
import { optionalJsonBody } from "./request.js";

/** A feature's handlers: one per operation, by operationId. */
export type Handlers<Part extends ApiPart> = Record<keyof Part["operations"], RequestHandler>;

interface MountGuards {
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
        const before = [
          ...(op.isPublic ? [] : guards.authenticated),
          // Health probes may carry anything: a probe is never refused.
          ...(op.path === HEALTH_PATH ? [] : [onlyDeclaredQuery(op)]),
          ...(op.body ? [optionalJsonBody] : []),
          // Checked before it waits for a heavy slot: a bad body is a 400 at once, not a 429 or a
          // wait of up to 10 s, and takes no place in the line. The handler validates it again.
          ...(op.heavy && op.body ? [validBody(part.schemas[op.body.schema] as TObject)] : []),
        ];
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

/**
 * A query parameter the operation does not declare is a 400 naming it: ignored, a misplaced one
 * (`POST /api/deal?numberOfHands=6`) or a misspelt filter would silently mean the default.
 */
function onlyDeclaredQuery(op: Operation): RequestHandler {
  const declared = (op.parameters ?? []).flatMap((p) => {
    const parameter = p as { in?: unknown; name?: unknown };
    return parameter.in === "query" ? [String(parameter.name)] : [];
  });
  const takes = declared.length === 0 ? "this operation takes none" : `it takes ${declared.join(", ")}`;
  return (req, _res, next) => {
    const unknown = Object.keys(req.query as object).find((name) => !declared.includes(name));
    next(unknown === undefined ? undefined : badRequest(`unknown query parameter "${unknown}"; ${takes}`));
  };
}

/** Refuses a body its schema does not take (a 400 naming the field, as the handler's own check would). */
function validBody(schema: TObject): RequestHandler {
  const validate = optionalBodyValidator(schema);
  return (req, _res, next) => {
    validate(req.body);
    next();
  };
}

/** Names the request's trace span after the route template, not the URL (which holds ids). */
function traceRoute(path: string): RequestHandler {
  return (request, _response, next) => {
    setHttpRoute(request.method, path);
    next();
  };
}
