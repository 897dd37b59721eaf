// Errors as HTTP answers: the one error type fit for a client, gRPC statuses mapped to it, and the
// one handler where any error becomes `{ error }` (internals only in the log).
import { status } from "@grpc/grpc-js";
import { isOutageStatus, isServiceError, madeFromDomainError, serviceUnavailableMessage } from "@pokerodds/common";
import { InvalidRequest } from "@pokerodds/api/validate";
import type { ErrorRequestHandler, RequestHandler, Response } from "express";
import { REQUEST_BODY_MAX_BYTES } from "@pokerodds/common/limits";

/** An error whose status and message are fit for the client; `cause` is for the log only. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly options: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "HttpError";
  }
}

export const badRequest = (message: string) => new HttpError(400, message);

/** RFC 6750: a missing token gets a bare challenge, a bad one says invalid_token. */
export const unauthorized = (message: string, invalidToken: boolean) =>
  new HttpError(401, message, {
    headers: { "WWW-Authenticate": invalidToken ? 'Bearer error="invalid_token"' : "Bearer" },
  });

export const internalError = (cause: unknown) => new HttpError(500, "internal error", { cause });

export const forbidden = (message: string) => new HttpError(403, message);

export const notFound = (message: string) => new HttpError(404, message);

/** `service` (e.g. "table") cannot be reached, or did not answer in time. */
export const serviceUnavailable = (service: string, options: { cause?: unknown } = {}) =>
  new HttpError(503, serviceUnavailableMessage(service), options);

// gRPC status -> HTTP, mirroring common/src/grpc/status.ts (domain error -> status). The statuses
// the services make from their domain errors carry a message written for the client; every other
// status may carry library text, so it gets a fixed message.
const FROM_DOMAIN: Partial<Record<status, [number, string]>> = {
  [status.INVALID_ARGUMENT]: [400, "invalid request"],
  [status.NOT_FOUND]: [404, "not found"],
  [status.PERMISSION_DENIED]: [403, "not allowed for this player"],
  [status.FAILED_PRECONDITION]: [409, "not allowed in the current state"],
  [status.ALREADY_EXISTS]: [422, "idempotency key already used for a different request"],
};

/** The answer to every request refused for load: the edge's limits and a service's full queue alike. */
export const RATE_LIMITED = "too many requests; try again later";

/**
 * A name no client knows: a proto field (snake_case, or a dotted path such as caller.player_id). The
 * gateway validates every public field before calling, so such a refusal is a gap in that check; the
 * client gets the fixed message and the log keeps the service's.
 */
const INTERNAL_NAME = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+\.[a-z_]+\b/;

/** How grpc-js begins the details of a reply refused by the client's maxReceiveBytes. */
const REPLY_TOO_LARGE = "Received message larger than max";

/**
 * Seconds a client is asked to wait before trying again: after RESOURCE_EXHAUSTED (the odds
 * service's queue is full), a service's outage (503), or a money move whose outcome is unknown.
 */
export const RETRY_AFTER_SECONDS = 1;

/** What a money move's 5xx adds: its outcome is unknown, and the same request with its key learns it. */
export const MOVE_OUTCOME_UNKNOWN =
  "the move may still be made; send the same request again with this answer's Idempotency-Key to " +
  "learn its outcome (it is never made twice)";

/** The HTTP answer for a failed call to `service` (e.g. "odds"). */
export function httpErrorFromGrpc(error: unknown, service: string): HttpError {
  if (!isServiceError(error)) return internalError(error);
  const options = { cause: error };
  const domain = madeFromDomainError(error);
  const fromDomain = FROM_DOMAIN[error.code];
  // A service's access check refusing this gateway's certificate (this PERMISSION_DENIED, and
  // UNAUTHENTICATED, which no domain error makes) is the deployment's fault: the 500 at the end, not
  // a 403 blaming the player nor a 401 inviting a new sign-in.
  if (fromDomain && (domain || error.code !== status.PERMISSION_DENIED)) {
    const message = error.details && !INTERNAL_NAME.test(error.details) ? error.details : fromDomain[1];
    return new HttpError(fromDomain[0], message, options);
  }
  // A service's full queue: the client's load, to be retried later.
  if (error.code === status.RESOURCE_EXHAUSTED && domain) {
    return new HttpError(429, RATE_LIMITED, { ...options, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } });
  }
  // The client's own limit on a reply's size, not the service's load: retrying would not help.
  if (error.code === status.RESOURCE_EXHAUSTED && error.details.startsWith(REPLY_TOO_LARGE)) {
    return new HttpError(502, `the ${service} service's answer is larger than this gateway accepts`, options);
  }
  // A service's own outage message names what it waits for (its database, the odds service).
  if (error.code === status.UNAVAILABLE && domain && error.details && !INTERNAL_NAME.test(error.details)) {
    return new HttpError(503, error.details, options);
  }
  if (isOutageStatus(error.code)) return serviceUnavailable(service, options);
  return internalError(error);
}

// body-parser's errors, by their stable `type`; the messages are ours.
const BODY_ERRORS: Record<string, [number, string]> = {
  "entity.too.large": [413, `request body must be at most ${REQUEST_BODY_MAX_BYTES / 1024} KiB`],
  "entity.parse.failed": [400, "request body is not valid JSON"],
  "encoding.unsupported": [415, "request body must not be compressed (Content-Encoding)"],
  "charset.unsupported": [415, "request body must be UTF-8 JSON"],
  "request.aborted": [400, "request body was cut short"],
  "request.size.invalid": [400, "request body is shorter or longer than its Content-Length"],
};

/** A path parameter whose %-escapes do not decode. */
export const PATH_NOT_DECODABLE =
  "the URL's path has a malformed escape: each % must begin a %XX escape of UTF-8 (send a % itself as %25)";

export const unknownRoute: RequestHandler = (req, _res, next) => {
  next(new HttpError(404, `no such endpoint: ${req.method} ${req.path}`));
};

/** A known path with a method it does not serve: 405 naming the ones it does (GET serves HEAD too). */
export function methodNotAllowed(methods: string[]): RequestHandler {
  const allow = methods.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method])).join(", ");
  return (req, _res, next) => {
    next(
      new HttpError(405, `method ${req.method} is not allowed here; allowed: ${allow}`, { headers: { Allow: allow } }),
    );
  };
}

/**
 * The one shape of every error answer: its status, its headers and `{ error }`. Every 503 says when
 * to try again (RFC 9110 §10.2.3), as a 429 does: an outage here is a service restarting or a
 * replica being replaced, over in seconds.
 */
export function sendError(res: Response, status: number, message: string, headers: Record<string, string> = {}) {
  const retry = status === 503 && !("Retry-After" in headers) ? { "Retry-After": String(RETRY_AFTER_SECONDS) } : {};
  res
    .status(status)
    .set({ ...retry, ...headers })
    .json({ error: message });
}

/** The one place an error becomes a response: `{ error }`, and internals only in the log. */
export const errorHandler: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  // Answered already, by the 503 of a gateway shutting down (http-server.ts): the handler's own
  // answer, come late, has nowhere to go.
  if (res.answeredAtClose) return;
  if (res.headersSent) return next(error);
  const answer = toHttpError(error);
  // The request's log line carries res.err (http/request.ts).
  if (answer.status >= 500) res.err = answer.options.cause instanceof Error ? answer.options.cause : answer;
  sendError(res, answer.status, answer.message, answer.options.headers);
};

function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof InvalidRequest) return badRequest(error.message);
  const type = (error as { type?: unknown } | null)?.type;
  const known = typeof type === "string" ? BODY_ERRORS[type] : undefined;
  if (known) return new HttpError(known[0], known[1]);
  // A path parameter that does not decode (Express's URIError): a stray % in a playerId, say.
  if (error instanceof URIError) return badRequest(PATH_NOT_DECODABLE);
  // Other client errors raised by Express itself (e.g. an undecodable path) keep their status.
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && status >= 400 && status < 500) return new HttpError(status, "invalid request");
  return internalError(error);
}
