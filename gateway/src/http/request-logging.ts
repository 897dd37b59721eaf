import type { Logger } from "@pokerodds/common";
import { REQUEST_ID_KEY } from "@pokerodds/common";
import type { Request, Response } from "express";
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { pinoHttp } from "pino-http";

// The rule common's requestIdFrom applies to the id the services receive in metadata.
const TRUSTED_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The caller's x-request-id when short and printable, else a fresh UUID. */
export function requestIdFor(incoming: string | string[] | undefined): string {
  return typeof incoming === "string" && TRUSTED_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function requestIdOf(req: Request): string {
  return String(req.id);
}

/** One log line per request, tagged with its id; the id is echoed in the response header. */
export function requestLogging(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const id = requestIdFor(req.headers[REQUEST_ID_KEY]);
      res.setHeader(REQUEST_ID_KEY, id);
      return id;
    },
    quietReqLogger: true,
    // A 5xx with a cause (res.err, set by the error handler) is an error; one without, such as a
    // health check answering 503 while a service starts, is a warning with no made-up stack.
    customLogLevel: (_req, res, error) => (error || res.err ? "error" : res.statusCode >= 500 ? "warn" : "info"),
    customErrorObject: (_req, res, error, value: object) =>
      res.err || !error.message.startsWith("failed with status code") ? value : { ...value, err: undefined },
    customErrorMessage: (_req, res) => `request failed with ${res.statusCode}`,
    customProps: (_req, res) => ({ playerId: (res as Response).locals?.identity?.playerId }),
    // Never the headers: they carry the bearer token.
    serializers: {
      req: (req: IncomingMessage & { id?: unknown }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
