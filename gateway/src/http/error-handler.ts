import type { ErrorRequestHandler, RequestHandler } from "express";
import { HttpError, internalError } from "./http-error.js";
import { BODY_LIMIT_BYTES } from "./json-body.js";

// body-parser's errors, by their stable `type`; the messages are ours.
const BODY_ERRORS: Record<string, [number, string]> = {
  "entity.too.large": [413, `request body must be at most ${BODY_LIMIT_BYTES / 1024} KiB`],
  "entity.parse.failed": [400, "request body is not valid JSON"],
  "encoding.unsupported": [415, "request body encoding is not supported"],
  "charset.unsupported": [415, "request body must be UTF-8 JSON"],
  "request.aborted": [400, "request body was cut short"],
  "request.size.invalid": [400, "request body is shorter or longer than its Content-Length"],
};

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

/** The one place an error becomes a response: `{ error }`, and internals only in the log. */
export const errorHandler: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  if (res.headersSent) return next(error);
  const answer = toHttpError(error);
  // pino-http logs res.err with the request's completion line.
  if (answer.status >= 500) res.err = answer.options.cause instanceof Error ? answer.options.cause : answer;
  res
    .status(answer.status)
    .set(answer.options.headers ?? {})
    .json({ error: answer.message });
};

function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const type = (error as { type?: unknown } | null)?.type;
  const known = typeof type === "string" ? BODY_ERRORS[type] : undefined;
  if (known) return new HttpError(known[0], known[1]);
  // Other client errors raised by Express itself (e.g. an undecodable path) keep their status.
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && status >= 400 && status < 500) return new HttpError(status, "invalid request");
  return internalError(error);
}
