// One operation of the public API: its method and path, who may call it, what it takes and answers.
// The gateway mounts the operation's handler from it (behind auth unless public, with the JSON body
// parser when it takes a body) and the OpenAPI document describes it, so the two cannot disagree.

import { API_HEADERS } from "@pokerodds/common/http-headers";
import { REQUEST_BODY_MAX_BYTES } from "@pokerodds/common/limits";

export const TAGS = ["health", "lobby", "players", "tables", "dealing", "meta", "admin"] as const;
type Tag = (typeof TAGS)[number];

/** The error answers, each documented once as components.responses.E<status>. */
const ERRORS = {
  400: "Invalid parameters or body, or malformed JSON",
  401: "Missing or invalid bearer token (WWW-Authenticate: Bearer)",
  403: "Acting for another player, or a table that is not the caller's",
  404: "No such table or route",
  405: "A known path with a method it does not serve (Allow names those it does)",
  409: "Not allowed in the current state",
  413: `Body larger than ${REQUEST_BODY_MAX_BYTES / 1024} KiB`,
  415: "A body that is not application/json",
  422: "Idempotency key reused with a different request",
  429: "Too many requests (per address, per player, or the service is busy); retry after Retry-After seconds",
  502: "A service's answer is larger than the gateway accepts (an audit of very many tables or entries); retrying does not help",
  503: "A service or the database is unavailable; retry after Retry-After seconds",
} as const;
type ErrorStatus = keyof typeof ERRORS;

/** `Schema`: the names of the schemas the feature registers, which the operation refers to. */
export interface Operation<Schema extends string = string> {
  method: "get" | "post";
  /** OpenAPI's form: `/api/tables/{tableId}/bet`. */
  path: `/api/${string}`;
  summary: string;
  /** No bearer token needed. */
  isPublic?: boolean;
  parameters?: object[];
  /** Expensive: at most a few in flight at once, one per player (BULK_MAX_CONCURRENT[_PER_PLAYER]), beyond that a fast 429. */
  heavy?: boolean;
  /** An operation that takes a body gets the JSON body parser, and 400, 413 and 415 documented. */
  body?: { schema: Schema; required: boolean };
  ok: Schema | { type: "object" };
  /** Beyond the body's and the token's errors, which are added. */
  errors?: ErrorStatus[];
  /** Replaces the answers built from ok and errors. */
  responses?: Record<number, object>;
  /** Shown in the document: a request body (when the operation takes one) and a successful answer. */
  example: { body?: unknown; ok: unknown };
  /** What a client may call next with values of this call (OpenAPI links on the 200 answer). */
  links?: Record<string, Link>;
  /** Headers of the 200 answer beyond X-Request-Id. */
  okHeaders?: Record<string, object>;
  /** The 200 answer carries an ETag, and a request whose If-None-Match names it is answered 304 without a body. */
  conditional?: boolean;
}

/** An OpenAPI link: the next operation, its parameters and body from runtime expressions or literals. */
export interface Link {
  operationId: string;
  description: string;
  parameters?: Record<string, unknown>;
  requestBody?: unknown;
}

/** A feature's part of the document: its tag, its operations by operationId, and the schemas they name. */
export interface ApiPart<Schema extends string = string> {
  tag: Tag;
  schemas: Record<Schema, object>;
  operations: Record<string, Operation<Schema>>;
}

export function apiPart<Schema extends string, Operations extends Record<string, Operation<Schema>>>(
  tag: Tag,
  schemas: Record<Schema, object>,
  operations: Operations,
) {
  return { tag, schemas, operations };
}

export const jsonContent = (schema: string | object, example?: unknown) => ({
  "application/json": {
    schema: typeof schema === "string" ? { $ref: `#/components/schemas/${schema}` } : schema,
    ...(example === undefined ? {} : { example }),
  },
});

/** The document's paths: every part's operations, in the order given. */
export function pathsOf(parts: ApiPart[]) {
  const paths: Record<string, Record<string, object>> = {};
  for (const { tag, operations } of parts) {
    for (const [operationId, op] of Object.entries(operations)) {
      paths[op.path] = { ...paths[op.path], [op.method]: describe(operationId, tag, op) };
    }
  }
  return paths;
}

/** Probes poll it: never rate limited, never traced. */
export const HEALTH_PATH = "/api/health";

function describe(operationId: string, tag: Tag, op: Operation) {
  const authErrors: ErrorStatus[] = op.isPublic ? [] : [401];
  // Rate limits: per address on every route but health, per player behind the token.
  const limited: ErrorStatus[] = op.path === HEALTH_PATH ? [] : [429];
  // A query parameter the operation does not declare is a 400, on every route but health.
  const query: ErrorStatus[] = op.path === HEALTH_PATH ? [] : [400];
  const errors = [
    ...new Set([...(op.body ? [400, 413, 415] : []), ...query, ...authErrors, ...limited, ...(op.errors ?? [])]),
  ].sort((a, b) => a - b) as ErrorStatus[];
  return {
    operationId,
    summary: op.summary,
    tags: [tag],
    ...(op.isPublic ? { security: [] } : {}),
    parameters: [
      ...(op.parameters ?? []),
      ...(op.conditional ? [IF_NONE_MATCH] : []),
      { $ref: "#/components/parameters/XRequestId" },
    ],
    ...(op.body
      ? {
          requestBody: {
            required: op.body.required,
            ...(op.body.required ? {} : { description: "Optional" }),
            content: jsonContent(op.body.schema, op.example.body),
          },
        }
      : {}),
    responses: op.responses ?? {
      200: {
        description: "Success",
        headers: { ...REQUEST_ID_HEADER, ...op.okHeaders, ...(op.conditional ? VALIDATOR_HEADERS : {}) },
        content: jsonContent(op.ok, op.example.ok),
        ...(op.links ? { links: op.links } : {}),
      },
      ...(op.conditional ? { 304: NOT_MODIFIED } : {}),
      ...Object.fromEntries(errors.map((status) => [status, { $ref: `#/components/responses/E${status}` }])),
    },
  };
}

/** Every answer carries the request's id (the caller's x-request-id when short and printable). */
export const REQUEST_ID_HEADER = {
  [API_HEADERS.requestId]: {
    description: "The request's id, as in every log line about it",
    schema: { type: "string" },
  },
};

/** A conditional GET's answer: the client keeps what it holds, and asks again each time (no-cache). */
const VALIDATOR_HEADERS = {
  ETag: { description: "A weak validator of the answer's content", schema: { type: "string" } },
  "Cache-Control": { schema: { type: "string", const: "no-cache" } },
};
const IF_NONE_MATCH = {
  name: "If-None-Match",
  in: "header",
  required: false,
  description: "The ETag of the answer the client holds: while it is still the answer, a 304 without a body",
  schema: { type: "string" },
};
const NOT_MODIFIED = {
  description: "The answer the client holds (If-None-Match) is still the answer",
  headers: { ...REQUEST_ID_HEADER, ...VALIDATOR_HEADERS },
};

/** The headers of a streamed answer (events, JSON Lines): never cached, never buffered by a proxy. */
export const STREAM_HEADERS = {
  ...REQUEST_ID_HEADER,
  "Cache-Control": { schema: { type: "string", const: "no-store" } },
  "X-Accel-Buffering": {
    description: "Tells proxies not to buffer the stream",
    schema: { type: "string", const: "no" },
  },
};

/** An error answer documented once in components.responses, for operations that list their answers in full. */
export const errorResponse = (status: ErrorStatus) => ({ $ref: `#/components/responses/E${status}` });

const RETRY_AFTER = { "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 1 } } };

const ERROR_HEADERS: Partial<Record<string, Record<string, object>>> = {
  401: { "WWW-Authenticate": { schema: { type: "string" } } },
  405: { Allow: { description: "The methods the path serves", schema: { type: "string" } } },
  429: RETRY_AFTER,
  503: RETRY_AFTER,
};

export function errorResponses() {
  return Object.fromEntries(
    Object.entries(ERRORS).map(([status, description]) => [
      `E${status}`,
      {
        description,
        headers: { ...REQUEST_ID_HEADER, ...ERROR_HEADERS[status] },
        content: jsonContent("ErrorBody"),
      },
    ]),
  );
}

/** The x-request-id a client may send: echoed, logged and passed to every service. */
export const requestIdParameter = {
  name: API_HEADERS.requestId.toLowerCase(),
  in: "header",
  required: false,
  description:
    "A request id of your own: used when it is 1 to 128 of A-Z a-z 0-9 _ . : -, otherwise replaced by a fresh one " +
    "(never refused: a proxy's id in another form still gets an answer)",
  schema: { type: "string" },
};
