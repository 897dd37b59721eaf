import { status } from "@grpc/grpc-js";
import { isServiceError } from "@pokerodds/common";
import { HttpError, internalError } from "./http-error.js";

// gRPC status -> HTTP, mirroring common/src/grpc/status.ts (domain error -> status). Statuses that
// table produces carry a domain message written for the client; every other status may carry
// library text, so it gets a fixed message.
const FROM_DOMAIN: Partial<Record<status, [number, string]>> = {
  [status.INVALID_ARGUMENT]: [400, "invalid request"],
  [status.NOT_FOUND]: [404, "not found"],
  [status.PERMISSION_DENIED]: [403, "not allowed for this player"],
  [status.FAILED_PRECONDITION]: [409, "not allowed in the current state"],
  [status.ALREADY_EXISTS]: [422, "idempotency key already used for a different request"],
};

const FIXED: Partial<Record<status, [number, string]>> = {
  [status.ABORTED]: [409, "the request conflicted with another change; try again"],
  [status.UNAUTHENTICATED]: [401, "not authenticated"],
  [status.RESOURCE_EXHAUSTED]: [429, "too many requests; try again later"],
};

/**
 * A name no client knows: a proto field (snake_case, or a dotted path such as caller.player_id). The
 * gateway validates every public field before calling, so such a refusal is a gap in that check; the
 * client gets the fixed message and the log keeps the service's.
 */
const INTERNAL_NAME = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+\.[a-z_]+\b/;

/** Seconds a client is asked to wait after RESOURCE_EXHAUSTED (the odds service's queue is full). */
export const RETRY_AFTER_BUSY_SECONDS = 1;

/** The HTTP answer for a failed call to `service` (e.g. "odds"). */
export function httpErrorFromGrpc(error: unknown, service: string): HttpError {
  if (!isServiceError(error)) return internalError(error);
  const options = { cause: error };
  const fromDomain = FROM_DOMAIN[error.code];
  if (fromDomain) {
    const message = error.details && !INTERNAL_NAME.test(error.details) ? error.details : fromDomain[1];
    return new HttpError(fromDomain[0], message, options);
  }
  // grpc-js reports a refused connection as UNAVAILABLE; an expired deadline is the same to a client.
  if (error.code === status.UNAVAILABLE || error.code === status.DEADLINE_EXCEEDED) {
    return new HttpError(503, `${service} service unavailable`, options);
  }
  const fixed = FIXED[error.code];
  if (fixed) {
    const headers: Record<string, string> =
      fixed[0] === 401
        ? { "WWW-Authenticate": "Bearer" }
        : fixed[0] === 429
          ? { "Retry-After": String(RETRY_AFTER_BUSY_SECONDS) }
          : {};
    return new HttpError(fixed[0], fixed[1], { ...options, headers });
  }
  return internalError(error);
}
