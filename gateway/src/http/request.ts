// What every request gets on its way in: an id and a log line, metrics by route, its JSON body, and
// (for money moves) its idempotency key.
import { API_HEADERS } from "@pokerodds/common/http-headers";
import { HEALTH_PATH } from "@pokerodds/api/operation";
import { InvalidRequest } from "@pokerodds/api/validate";
import { httpHandled, REQUEST_ID_FIELD, REQUEST_ID_KEY, trustedRequestId, type Logger } from "@pokerodds/common";
import { tracingEnabled } from "@pokerodds/common/tracing/enabled";
import { endHttpServerSpan, startHttpServerSpan } from "@pokerodds/common/tracing/http-span";
import { context } from "@opentelemetry/api";
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN, REQUEST_BODY_MAX_BYTES } from "@pokerodds/common/limits";
import express, { type Request, type RequestHandler, type Response } from "express";
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { badRequest, HttpError } from "./errors.js";
import { duplicateJsonName } from "./json-keys.js";

/**
 * A probe of GET (or HEAD) /api/health: exempt from the per-address limit, never traced, and logged
 * at debug only (the health route logs its answer when it changes), so a flood of them costs neither
 * the log nor anyone's budget. Any other method on the path is an ordinary request (a 405, counted
 * and logged).
 */
export function isHealthCheck(req: IncomingMessage): boolean {
  return (req.method === "GET" || req.method === "HEAD") && (req as Request).path === HEALTH_PATH;
}

/** The request's id: the caller's x-request-id when it may be trusted, else a fresh one; echoed in the answer. */
function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  if (req.id !== undefined) return req.id;
  const id = trustedRequestId(req.headers[REQUEST_ID_KEY]);
  req.id = id;
  res.setHeader(REQUEST_ID_KEY, id);
  return id;
}

/** Gives every request its id first: the answers refused before the request's log line carry it too. */
export const requestId: RequestHandler = (req, res, next) => {
  assignRequestId(req, res);
  next();
};

export function requestIdOf(req: Request): string {
  return String(req.id);
}

/**
 * Each request's trace span (only while tracing is on): the request runs inside it, so its log lines
 * and its gRPC calls carry the trace. Health checks are polls, not anyone's request: no span.
 */
export function traceRequests(): RequestHandler | null {
  if (!tracingEnabled()) return null;
  return (req, res, next) => {
    if (isHealthCheck(req)) return next();
    const { span, context: traced } = startHttpServerSpan(req.method, recorded(req.path), req.headers);
    res.once("close", () => endHttpServerSpan(span, res.statusCode));
    context.with(traced, next);
  };
}

declare module "node:http" {
  interface IncomingMessage {
    /** The request's id (assignRequestId). */
    id?: string;
  }
  interface ServerResponse {
    /** The cause of a 5xx, for the request's line (set by the error handler). */
    err?: Error;
    /** Answered 503 by the gateway's shutdown before its handler was done (http-server.ts). */
    answeredAtClose?: true;
  }
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** The process's logger, for a handler's own lines (requestLog). */
      logger?: Logger;
    }
  }
}

/**
 * One log line per request when its answer is done (or its client gone), tagged with its id, which
 * the response header echoes. Written here rather than by pino-http, which makes two or three child
 * loggers per request (one serializing the request) and another at its end, a visible share of the
 * gateway's work per request (gateway/README.md). A handler's own line about the request makes its
 * logger when it needs one (requestLog).
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    assignRequestId(req, res);
    res.locals.logger = logger;
    const started = Date.now();
    const done = () => {
      res.off("finish", done);
      res.off("close", done);
      logRequest(logger, req, res, Date.now() - started);
    };
    res.on("finish", done);
    res.on("close", done);
    next();
  };
}

/** A logger for a handler's own line about this request: the request's id bound. */
export function requestLog(res: Response): Logger {
  const logger = res.locals.logger;
  if (!logger) throw new Error("requestLog: the request passed no requestLogging");
  return logger.child({ [REQUEST_ID_FIELD]: res.req.id });
}

/**
 * A 5xx with a cause (res.err, set by the error handler) is an error; one without, such as a 503
 * while a service is down, a warning. A refusal for overload (429) and a health check (whose answer
 * the health route logs when it changes) are counted by the request metrics, not logged line by
 * line: a flooder would otherwise cost the log a line per request.
 */
function levelOf(req: IncomingMessage, res: ServerResponse): "error" | "warn" | "info" | "debug" {
  if (res.err) return "error";
  if (isHealthCheck(req) || res.statusCode === 429) return "debug";
  return res.statusCode >= 500 ? "warn" : "info";
}

function logRequest(logger: Logger, req: IncomingMessage, res: Response, responseTime: number): void {
  const level = levelOf(req, res);
  if (!logger.isLevelEnabled(level)) return;
  const line = {
    [REQUEST_ID_FIELD]: req.id,
    // Never the headers: they carry the bearer token.
    req: { id: req.id, method: req.method, url: loggedUrl(req.url) },
    res: { statusCode: res.statusCode },
    ...(res.err ? { err: res.err } : {}),
    ...(res.answeredAtClose ? { answeredAtClose: true } : {}),
    responseTime,
    playerId: res.locals.identity?.playerId,
  };
  const failed = res.err !== undefined || res.statusCode >= 500;
  const message = failed
    ? `request failed with ${res.statusCode}`
    : res.writableEnded
      ? "request completed"
      : "request aborted";
  logger[level](line, message);
}

/** Query parameters that carry a credential: the OIDC sign-in lands on `/?code=...&state=...`. */
const SECRET_PARAMETERS = ["code", "state", "id_token", "access_token"];

/**
 * How much of a URL a log line or a span records: a client may send a request line of 16 KiB (Node's
 * limit), and with each 404 logging it whole one address wrote some 650 KB of log a second within its
 * rate limit. A route's URL is far shorter.
 */
const RECORDED_URL_MAX_LENGTH = 1024;

/** A URL or path as recorded: cut at RECORDED_URL_MAX_LENGTH, saying how long it was. */
const recorded = (text: string): string =>
  text.length <= RECORDED_URL_MAX_LENGTH
    ? text
    : `${text.slice(0, RECORDED_URL_MAX_LENGTH)}… (${text.length} characters)`;

/** The URL as logged: cut to its recorded length, and a credential's value in the query replaced. */
export function loggedUrl(whole: string | undefined): string | undefined {
  if (whole === undefined) return undefined;
  const url = recorded(whole);
  const at = url.indexOf("?");
  if (at === -1) return url;
  const query = new URLSearchParams(url.slice(at + 1));
  const secrets = SECRET_PARAMETERS.filter((name) => query.has(name));
  if (secrets.length === 0) return url;
  for (const name of secrets) query.set(name, "[redacted]");
  return `${url.slice(0, at)}?${query.toString()}`;
}

/** The methods the API and the web client's files answer; any other is counted as "other". */
const SERVED_METHODS = new Set(["GET", "HEAD", "POST", "OPTIONS"]);

/**
 * Times every request by its route pattern (never the raw URL: ids in paths would make a series
 * per table and player), labelled "unmatched" when no route took it, and by its method among those
 * served (any client may send any of the 34 methods Node parses: a series each).
 */
export const requestMetrics: RequestHandler = (req, res, next) => {
  const stop = httpHandled.startTimer({ method: SERVED_METHODS.has(req.method) ? req.method : "other" });
  res.once("finish", () => {
    const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : "unmatched";
    stop({ route, status: String(res.statusCode) });
  });
  next();
};

// No compressed bodies: the size limit counts the inflated bytes, so a compressed body could be read
// without end (50 MB of empty gzip members, a stream that never ends) before anything is refused.
const parseJson = express.json({
  limit: REQUEST_BODY_MAX_BYTES,
  strict: false,
  type: () => true,
  inflate: false,
  verify: refuseDuplicateNames,
});

/** Runs on the raw body before it is parsed; what it throws becomes the answer (a 400). */
function refuseDuplicateNames(_req: IncomingMessage, _res: ServerResponse, body: Buffer): void {
  const name = duplicateJsonName(body.toString("utf8"));
  if (name !== undefined) throw new InvalidRequest(`request body has the field ${JSON.stringify(name)} more than once`);
}

/** A charset other than UTF-8 (which Express would decode, UTF-7 included, past filters that read UTF-8). */
const NOT_UTF8 = /;\s*charset\s*=(?!\s*"?utf-8"?\s*(;|$))/i;

/**
 * Parses an optional JSON body. No body (or an empty one) leaves req.body undefined; a body that is
 * not declared as JSON, or is compressed or in another charset than UTF-8, is a 415; anything
 * JSON.parse accepts reaches the schema, which then names the fault (an array or null is "must be a
 * JSON object", not "invalid JSON").
 */
export const optionalJsonBody: RequestHandler = (req, res, next) => {
  const length = req.headers["content-length"];
  const hasBody = req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
  if (!hasBody) {
    req.body = undefined;
    return next();
  }
  if (!req.is(["application/json", "application/*+json"])) {
    return next(new HttpError(415, "request body must be JSON (Content-Type: application/json)"));
  }
  if (NOT_UTF8.test(req.headers["content-type"] ?? "")) {
    return next(new HttpError(415, "request body must be UTF-8 JSON"));
  }
  // A declared length over the limit is refused before a byte is read: body-parser would first read
  // the whole body and throw it away, so a client sending 1 GB slowly had no answer until the
  // request timed out. The connection closes after the answer: the unread body is no next request.
  const compressed = (req.headers["content-encoding"] ?? "identity").toLowerCase() !== "identity"; // body-parser's 415
  if (!compressed && length !== undefined && Number(length) > REQUEST_BODY_MAX_BYTES) {
    res.setHeader("Connection", "close");
    return next(Object.assign(new Error("request body over the limit"), { type: "entity.too.large" }));
  }
  parseJson(req, res, next);
};

/**
 * The client's Idempotency-Key (visible ASCII without spaces, so a header sent twice, which Node joins
 * with ", ", is refused rather than read as one key), or a fresh UUID when it sent none: every money movement reaches the
 * table service with a key, but only a client that sends one can retry safely.
 */
export function idempotencyKeyOf(req: Request): string {
  const key = req.headers[API_HEADERS.idempotencyKey.toLowerCase()];
  if (key === undefined) return randomUUID();
  if (typeof key !== "string" || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw badRequest(
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters without spaces`,
    );
  }
  return key;
}

/**
 * Calls `gone` once, when this answer can no longer reach the client: its response closed (sent or
 * cut), or its connection did, or already had. The response alone is not enough: one queued behind
 * another on a pipelining connection never closes when the connection does, and a client that reset
 * while its token was checked closed before any listener existed. Returns the same once-only call,
 * for the handler that is done first.
 */
export function whenClientGone(res: Response, gone: () => void): () => void {
  const socket = res.req.socket;
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    res.off("close", once);
    socket.off("close", once);
    gone();
  };
  if (res.closed || socket.destroyed) {
    once();
    return once;
  }
  res.once("close", once);
  socket.once("close", once);
  return once;
}
