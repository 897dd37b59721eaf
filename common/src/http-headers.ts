// The public API's own headers, named once: the contract's document (api/), the gateway that reads
// and writes them and lists them for CORS, and the web client. Header names are case-insensitive;
// these are the forms the OpenAPI document shows.
export const API_HEADERS = {
  /** A money move's key (sit, topup, bet, leave): sent by the client, echoed in the answer. */
  idempotencyKey: "Idempotency-Key",
  /** The request's id, in every log line about it: the caller's if it sent a fit one, else a fresh one. */
  requestId: "X-Request-Id",
  /** The version of the table state an answer carries (state, advance), the id of its event. */
  tableVersion: "Table-Version",
} as const;
