import { status } from "@grpc/grpc-js";
import test from "ava";
import { DOMAIN_ERROR_KEY } from "@pokerodds/common";
import { httpErrorFromGrpc } from "../src/http/errors.js";
import { post, startApp } from "./helpers/app.js";
import { grpcError } from "./helpers/fixtures.js";

// [gRPC status, details sent by the service, HTTP status, error the client sees, made by a domain
// error or not (the default: as the services make that status)]
const CASES: [status, string, number, string, ("domain" | "library")?][] = [
  [status.INVALID_ARGUMENT, "numberOfHands must be from 2 to 6", 400, "numberOfHands must be from 2 to 6"],
  [status.NOT_FOUND, "table 99 does not exist", 404, "table 99 does not exist"],
  [status.PERMISSION_DENIED, "not your table", 403, "not your table"],
  [status.FAILED_PRECONDITION, "bets are closed", 409, "bets are closed"],
  [status.ALREADY_EXISTS, "idempotency key reused", 422, "idempotency key reused"],
  [status.UNAVAILABLE, "connect ECONNREFUSED 127.0.0.1:50051", 503, "odds service unavailable"],
  [status.DEADLINE_EXCEEDED, "Deadline exceeded after 5.001s", 503, "odds service unavailable"],
  [status.RESOURCE_EXHAUSTED, "the odds queue is full", 429, "too many requests; try again later", "domain"],
  // A service's access check refusing this gateway's certificate: the deployment's fault, not the
  // player's (no 401 inviting a new sign-in, no 403 blaming the player).
  [status.UNAUTHENTICATED, "a client certificate is required", 500, "internal error"],
  [
    status.PERMISSION_DENIED,
    "/pokerodds.odds.v1.OddsService/Deal is not allowed to this caller",
    500,
    "internal error",
    "library",
  ],
  // HTTP/2's own limits (ENHANCE_YOUR_CALM) and a call the server cut: the outcome is unknown, retry.
  [
    status.RESOURCE_EXHAUSTED,
    "Bandwidth exhausted or memory limit exceeded",
    503,
    "odds service unavailable",
    "library",
  ],
  [status.CANCELLED, "Call cancelled", 503, "odds service unavailable"],
  // The gateway's own limit on a reply (an audit's, as the system grows): retrying would not help.
  [
    status.RESOURCE_EXHAUSTED,
    "Received message larger than max (5000000 vs 4194304)",
    502,
    "the odds service's answer is larger than this gateway accepts",
  ],
  [status.INTERNAL, "TypeError: cannot read x of undefined at /srv/odds.js:12", 500, "internal error"],
  [status.UNKNOWN, "stack trace here", 500, "internal error"],
  [status.UNIMPLEMENTED, "method not found", 500, "internal error"],
  [status.DATA_LOSS, "disk", 500, "internal error"],
  [status.OUT_OF_RANGE, "offset", 500, "internal error"],
  [status.ABORTED, "no service of ours answers this", 500, "internal error"],
];

test("each gRPC status becomes its HTTP answer, end to end", async (t) => {
  for (const [code, details, httpStatus, error, madeBy] of CASES) {
    const app = await startApp({ odds: { deal: () => Promise.reject(grpcError(code, details, madeBy)) } });
    try {
      const response = await post(app, "/api/deal");
      t.is(response.status, httpStatus, status[code]);
      t.deepEqual(await response.json(), { error }, status[code]);
      t.is(response.headers.get("www-authenticate"), null, status[code]);
      if (httpStatus === 429 || httpStatus === 503) t.is(response.headers.get("retry-after"), "1");
    } finally {
      await app.close();
    }
  }
});

test("a refusal naming an internal (proto) field gets the fixed message, never the field's name", (t) => {
  for (const details of [
    "caller.player_id must be at most 128 characters",
    "buy_in_cents must be a whole number of cents from 1 to 100000000000",
    "idempotency_key must be 1 to 128 visible ASCII characters",
  ]) {
    const error = httpErrorFromGrpc(grpcError(status.INVALID_ARGUMENT, details), "table");
    t.deepEqual([error.status, error.message], [400, "invalid request"], details);
  }
  // A message written for the client passes.
  const mine = httpErrorFromGrpc(grpcError(status.INVALID_ARGUMENT, "seatIndex 9 is beyond the table's 6 seats"), "t");
  t.is(mine.message, "seatIndex 9 is beyond the table's 6 seats");
});

test("the unavailable message names the service", (t) => {
  t.is(httpErrorFromGrpc(grpcError(status.UNAVAILABLE, ""), "wallet").message, "wallet service unavailable");
});

test("a service's own outage message (from a domain error) says what it waits for; library text never shows", (t) => {
  const own = (details: string) => {
    const error = grpcError(status.UNAVAILABLE, details);
    error.metadata.set(DOMAIN_ERROR_KEY, "1");
    return httpErrorFromGrpc(error, "table");
  };
  const waiting = own("the table database is unavailable");
  t.deepEqual([waiting.status, waiting.message], [503, "the table database is unavailable"]);
  t.is(own("caller.player_id is down").message, "table service unavailable", "an internal name");
  t.is(own("").message, "table service unavailable");
  const library = httpErrorFromGrpc(grpcError(status.UNAVAILABLE, "connect ECONNREFUSED 10.0.0.7:50053"), "table");
  t.is(library.message, "table service unavailable", "not made from a domain error");
});

test("a domain status without details still gets a readable message", (t) => {
  const error = httpErrorFromGrpc(grpcError(status.FAILED_PRECONDITION, ""), "table");
  t.is(error.status, 409);
  t.is(error.message, "not allowed in the current state");
});

test("anything that is not a gRPC error is a 500 that leaks nothing", async (t) => {
  for (const thrown of [new TypeError("secret internals"), "a string", null, { code: 3 }]) {
    const app = await startApp({ odds: { deal: () => Promise.reject(thrown) } });
    try {
      const response = await post(app, "/api/deal");
      t.is(response.status, 500);
      t.deepEqual(await response.json(), { error: "internal error" });
    } finally {
      await app.close();
    }
  }
});
