// A small HTTP client for the game API of a test stack: one Player per token, every reply recorded.
// The Api watches every reply for what must never happen whatever a test does (a 5xx other than an
// allowed 503, a negative balance) so a test asserts it once at the end.
import { randomUUID } from "node:crypto";
import { devToken } from "./tokens.js";

export type Role = "BASIC_USER" | "PAYING_USER" | "ANON_USER" | "ADMIN";

export interface Reply<T = unknown> {
  method: string;
  path: string;
  status: number;
  body: T;
  /** The gateway's x-request-id, for finding the request in the stack's log. */
  requestId: string | null;
  /** Table-Version: the table's version of the state answered (state, advance), when there is one. */
  tableVersion?: string;
}

export interface HandOdds {
  handIndex: number;
  bettingStage: number;
  handStatus: string;
  winPercentage: number;
  drawPercentage: number;
  odds: number;
}

export interface SeatView {
  seatId: number;
  playerId: string;
  playerName: string;
  seatBalance: number;
  avatarImageUrl: string;
}

export interface BetView {
  playerId: string;
  bettingStage: number;
  seatIndex: number;
  handIndex: number;
  betAmount: number;
  recordedOdds: number;
}

export interface TableState {
  tableId: number;
  gameId: string;
  gameState: string;
  bettingStage: number;
  bettingOpen: boolean;
  numberOfHands: number;
  numberOfSeats: number;
  jackpotValue: number;
  hands: string[] | null;
  flopCard1: string | null;
  flopCard2: string | null;
  flopCard3: string | null;
  turnCard: string | null;
  riverCard: string | null;
  seats: SeatView[];
  bets: BetView[];
  handOdds: HandOdds[];
  seedCommitment: string | null;
  serverSeed: string | null;
  clientSeed: string | null;
  targetRtp: number | null;
}

interface Profile {
  playerId: string;
  username: string;
  displayName: string;
  accountBalance: number;
  avatarImageUrl: string;
  role: string;
  isActive: boolean;
  personalTableId?: number;
}

export interface SitReply {
  acknowledgement: "ACK" | "NACK";
  message?: string;
  seatId: number;
  seatBalance: number;
}
export interface TopUpReply {
  acknowledgement: "ACK" | "NACK";
  message?: string;
  newSeatBalance: number;
  newAccountBalance: number;
}
export interface BetReply {
  acknowledgement: "ACK" | "NACK";
  message: string;
  updatedSeatBalance: number;
}
interface LeaveReply {
  acknowledgement: "ACK";
  creditsReturned: number;
  newAccountBalance: number;
}
export interface Lobby {
  tables: { tableId: number; playerCount: number; gameState: string }[];
  totalActivePlayers: number;
}

/** Units (as the API prints them) to integer cents, for exact sums. */
export const cents = (units: number): number => Math.round(units * 100);

export const WELCOME_CENTS = 100_000;

/** Fields of a reply that hold a balance or an amount paid out; none may ever be negative. */
const BALANCE_FIELDS = [
  "accountBalance",
  "seatBalance",
  "newSeatBalance",
  "newAccountBalance",
  "updatedSeatBalance",
  "creditsReturned",
];

export interface RequestOptions {
  /** A JSON value to send; `undefined` sends no body. */
  body?: unknown;
  /** Sent as is instead of `body` (malformed JSON and the like). */
  rawBody?: string;
  contentType?: string;
  /** The Idempotency-Key header. */
  key?: string;
  headers?: Record<string, string>;
  /** Send no Authorization header. */
  anonymous?: boolean;
}

export class Api {
  /** Every reply, in the order they completed. */
  readonly replies: Reply[] = [];
  /** Replies whose status was 5xx and not allowed by `allow5xx`. */
  readonly serverErrors: Reply[] = [];
  /** A description of every negative balance seen in any reply. */
  readonly negativeBalances: string[] = [];
  /** Statuses >= 500 a test tolerates for a while (e.g. 503 while a service is down). */
  allow5xx = new Set<number>();
  /** Every river seen in any reply, by "<tableId>:<gameId>": the settled games and their bets. */
  readonly rivers = new Map<string, TableState>();

  constructor(
    readonly url: string,
    readonly dataDir: string,
  ) {}

  async player(playerId: string, role?: Role): Promise<Player> {
    return new Player(this, playerId, await devToken(this.dataDir, playerId, role));
  }

  /** A request as `token`'s holder (or with no token). */
  async request<T = unknown>(
    token: string | null,
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (options.rawBody !== undefined) payload = options.rawBody;
    else if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined) headers["content-type"] = options.contentType ?? "application/json";
    if (options.key !== undefined) headers["idempotency-key"] = options.key;
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers,
      ...(payload === undefined ? {} : { body: payload }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const reply: Reply<T> = {
      method,
      path,
      status: response.status,
      body: body as T,
      requestId: response.headers.get("x-request-id"),
      ...(response.headers.has("table-version") && { tableVersion: response.headers.get("table-version")! }),
    };
    this.observe(reply);
    return reply;
  }

  async lobby(): Promise<Reply<Lobby>> {
    return this.request(null, "GET", "/api/tables");
  }

  private observe(reply: Reply): void {
    this.replies.push(reply);
    if (reply.status >= 500 && !this.allow5xx.has(reply.status)) this.serverErrors.push(reply);
    const visit = (value: unknown, where: string) => {
      if (Array.isArray(value)) value.forEach((item, i) => visit(item, `${where}[${i}]`));
      else if (value !== null && typeof value === "object") {
        for (const [name, field] of Object.entries(value)) {
          if (BALANCE_FIELDS.includes(name) && (typeof field !== "number" || field < 0)) {
            this.negativeBalances.push(`${reply.method} ${reply.path} -> ${where}.${name} = ${String(field)}`);
          }
          visit(field, `${where}.${name}`);
        }
      }
    };
    if (reply.status !== 200) return;
    visit(reply.body, "body");
    const state = reply.body as Partial<TableState> | undefined;
    if (state?.gameState === "STATUS_RIVER" && typeof state.tableId === "number") {
      this.rivers.set(`${state.tableId}:${state.gameId}`, state as TableState);
    }
  }
}

/** One authenticated player; every call returns the reply whatever its status. */
export class Player {
  constructor(
    readonly api: Api,
    readonly id: string,
    readonly token: string,
  ) {}

  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<Reply<T>> {
    return this.api.request<T>(this.token, method, path, options);
  }

  profile(playerId = this.id): Promise<Reply<Profile>> {
    return this.request("GET", `/api/players/${encodeURIComponent(playerId)}`);
  }

  /** The account balance in cents, failing loudly when the profile cannot be read. */
  async balance(): Promise<number> {
    const reply = await this.profile();
    if (reply.status !== 200) throw new Error(`profile of ${this.id}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return cents(reply.body.accountBalance);
  }

  sit(tableId: number | string, buyInAmount: number, key: string = randomUUID()): Promise<Reply<SitReply>> {
    return this.request("POST", `/api/tables/${tableId}/sit`, { body: { buyInAmount }, key });
  }

  topup(tableId: number | string, amount: number, key: string = randomUUID()): Promise<Reply<TopUpReply>> {
    return this.request("POST", `/api/tables/${tableId}/topup`, { body: { amount }, key });
  }

  bet(
    tableId: number | string,
    bet: { seatIndex: number; handIndex: number; betAmount: number },
    key: string = randomUUID(),
  ): Promise<Reply<BetReply>> {
    return this.request("POST", `/api/tables/${tableId}/bet`, { body: bet, key });
  }

  leave(tableId: number | string, key: string = randomUUID()): Promise<Reply<LeaveReply>> {
    return this.request("POST", `/api/tables/${tableId}/leave`, { key });
  }

  advance(tableId: number | string): Promise<Reply<TableState>> {
    return this.request("POST", `/api/tables/${tableId}/advance`);
  }

  state(tableId: number | string): Promise<Reply<TableState>> {
    return this.request("GET", `/api/tables/${tableId}/state`);
  }

  /** The state, failing loudly unless it is a 200. */
  async readState(tableId: number): Promise<TableState> {
    const reply = await this.state(tableId);
    if (reply.status !== 200)
      throw new Error(`state of table ${tableId}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  }
}

/** The `error` of an error body, if the reply has one. */
export function errorOf(reply: Reply): string | undefined {
  const error: unknown = (reply.body as { error?: unknown } | undefined)?.error;
  return typeof error === "string" ? error : undefined;
}

/** "status {body}" for assertion messages. */
export const show = (reply: Reply): string =>
  `${reply.method} ${reply.path} -> ${reply.status} ${JSON.stringify(reply.body)} (request ${reply.requestId})`;
