// The one HTTP client of the app: typed from the gateway's OpenAPI document (src/generated/api.d.ts),
// same origin as the page, with the session's bearer token on every request.
import { API_HEADERS } from "@pokerodds/common/http-headers";
import createClient from "openapi-fetch";
import type { components, paths } from "../generated/api";
import { serverRefusal, type Explained } from "../model/refusals";
import { asSentence } from "../model/sentence";

export type Schemas = components["schemas"];
export type TableState = Schemas["TableGameState"];
export type HandOdds = TableState["handOdds"][number];
export type Bet = TableState["bets"][number];
export type Seat = TableState["seats"][number];
export type Profile = Schemas["PlayerProfile"];
export type PlayerSeats = Schemas["PlayerSeats"];
export type AccountStatement = Schemas["AccountStatement"];
export type TablesList = Schemas["TablesList"];
export type GameRecord = Schemas["GameRecord"];
export type DealResult = Schemas["DealResult"];
export type BulkResponse = Schemas["BulkResponse"];
export type BulkGame = BulkResponse["games"][number];
export type BulkHandStage = BulkGame["handStageInfoList"][number];

/** A failure to show the player as is: the API's `{ error }`, a NACK's message, or a network fault. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** A refusal found before asking the server (an empty field and the like). */
export const problem = (text: string): ApiError => new ApiError(text, 0);

let bearer: string | null = null;
let onUnauthorized: () => void = () => {};

/** The token sent from now on (null: none), and what to do when the API no longer accepts it. */
export function setSessionToken(token: string | null, whenRefused: () => void = () => {}): void {
  bearer = token;
  onUnauthorized = whenRefused;
}

export function authorization(): Record<string, string> {
  return bearer === null ? {} : { Authorization: `Bearer ${bearer}` };
}

export const api = createClient<paths>({ baseUrl: globalThis.location?.origin ?? "" });

api.use({
  onRequest({ request }) {
    if (bearer !== null) request.headers.set("Authorization", `Bearer ${bearer}`);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401 && bearer !== null) onUnauthorized();
    return response;
  },
});

/** The message of an error body, or a plain sentence for an answer without one. */
export function errorMessage(status: number, body: unknown): string {
  const error = (body as { error?: unknown } | null | undefined)?.error;
  if (typeof error === "string" && error.length > 0) return asSentence(error);
  if (status === 429) return "Too many requests: wait a moment and try again.";
  if (status >= 500) return `The server could not answer (HTTP ${status}). Try again shortly.`;
  return `The request was refused (HTTP ${status}).`;
}

/** How long a 429 asks to wait (its Retry-After in seconds), as a sentence; none when it does not say. */
function waitText(retryAfter: string | null): string {
  const seconds = /^\d{1,6}$/.test(retryAfter ?? "") ? Number(retryAfter) : 0;
  if (seconds === 0) return "";
  return seconds < 120 ? ` Wait ${seconds} s.` : ` Wait ${Math.ceil(seconds / 60)} minutes.`;
}

/** What a thrown value says to a player: never a stack trace. */
export function describe(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof DOMException && error.name === "AbortError") return "The request was cancelled.";
  if (error instanceof SyntaxError) return "The server sent an answer that could not be read.";
  return "The server could not be reached. Check the connection and try again.";
}

/** What an openapi-fetch call resolves to. */
interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** A successful answer's data and response; otherwise an ApiError with the API's message. */
async function succeeded<T>(pending: Promise<FetchResult<T>>): Promise<{ data: T; response: Response }> {
  let result: FetchResult<T>;
  try {
    result = await pending;
  } catch (error) {
    throw new ApiError(describe(error), 0);
  }
  const { data, error, response } = result;
  if (!response.ok || data === undefined) {
    const wait = response.status === 429 ? waitText(response.headers.get("Retry-After")) : "";
    throw new ApiError(`${errorMessage(response.status, error)}${wait}`, response.status);
  }
  return { data, response };
}

/** The data of a successful answer; otherwise an ApiError with the API's message. */
export async function unwrap<T>(pending: Promise<FetchResult<T>>): Promise<T> {
  return (await succeeded(pending)).data;
}

/** A table's state and the table's version of it, by which states that arrive out of order are put back in order. */
export interface VersionedState {
  state: TableState;
  version: number;
}

/** The contract's header naming the table's version of a state answered (GET .../state, POST .../advance). */

/** A table's version as the API writes it (Table-Version, an event's id): 1 or more; else undefined. */
export function tableVersion(text: string | null | undefined): number | undefined {
  return text && /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : undefined;
}

/** unwrap for an answer that is a table's state: the state with its version (an answer without one is an ApiError). */
export async function unwrapState(pending: Promise<FetchResult<TableState>>): Promise<VersionedState> {
  const { data, response } = await succeeded(pending);
  const version = tableVersion(response.headers.get(API_HEADERS.tableVersion));
  if (version === undefined) throw new ApiError("The table's answer did not say which version of the table it is.", 0);
  return { state: data, version };
}

/** A NACK: the table refused the move (still HTTP 200), told in the player's words. */
export class Refused extends ApiError {
  readonly amountAtFault: boolean;

  constructor({ text, amountAtFault }: Explained) {
    super(text, 200);
    this.name = "Refused";
    this.amountAtFault = amountAtFault;
  }
}

interface Acknowledged {
  acknowledgement: "ACK" | "NACK";
  message?: string;
}

/**
 * As unwrap, and a NACK becomes a Refused error: `explain` words its reason with the figures the
 * answer carries (the server's text when not given).
 */
export async function acknowledged<T extends Acknowledged>(
  pending: Promise<FetchResult<T>>,
  explain: (reason: string, reply: T) => Explained = serverRefusal,
): Promise<T> {
  const data = await unwrap(pending);
  if (data.acknowledgement === "NACK") throw new Refused(explain(data.message ?? "", data));
  // Only an ACK is a success: an answer that says neither is not shown as one.
  if (data.acknowledgement !== "ACK")
    throw new ApiError("the table's answer did not say whether the move was made", 200);
  return data;
}

/**
 * A fresh Idempotency-Key for one player action. getRandomValues, not randomUUID: the latter exists
 * only in secure contexts, and the client may be opened over plain http on a LAN address.
 */
export function idempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
