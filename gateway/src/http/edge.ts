// The gateway's edge: security headers, CORS for the configured browser origins, and overload
// control (per-IP and per-player rate limits, a budget of database reads for the history routes, a
// cap on concurrent heavy requests). Every refusal gets
// the one `{ error }` answer of the error handler (sendError).
import { ACCOUNT_STATEMENT_MAX_LIMIT } from "@pokerodds/api/players";
import { API_HEADERS } from "@pokerodds/common/http-headers";
import { ConfigError, envInt, envOptional } from "@pokerodds/common";
import { Slots } from "@pokerodds/common/slots";
import cors from "cors";
import type { Request, RequestHandler, Response } from "express";
import { ipKeyGenerator, rateLimit, type Options, type RateLimitInfo } from "express-rate-limit";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import helmet from "helmet";
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError, RATE_LIMITED, sendError } from "./errors.js";
import { isHealthCheck, whenClientGone } from "./request.js";

type Env = Record<string, string | undefined>;

export interface EdgeSettings {
  /** Browser origins allowed to call the API (CORS); empty: none. */
  corsOrigins: string[];
  /** The window of both rate limits, in seconds. */
  rateLimitWindowSeconds: number;
  /** Requests per window from one IP address, before authentication (0: no limit). */
  rateLimitPerIp: number;
  /** Requests per window by one player (the token's subject), after authentication (0: no limit). */
  rateLimitPerPlayer: number;
  /** Database reads per window that one player's history reads may cost (spendHistoryReads; 0: no limit). */
  historyReadsPerPlayer: number;
  /** The same from one client address (0: no limit). */
  historyReadsPerAddress: number;
  /** Heavy requests (bulk generation) in flight at once in this gateway (0: no limit). */
  heavyConcurrency: number;
  /** Heavy requests in flight at once by one player (0: no limit): one player cannot take every slot. */
  heavyConcurrencyPerPlayer: number;
  /**
   * Heavy requests waiting or in flight at once from one client address (0: no limit): many accounts
   * from one address cannot fill the line every other player waits in.
   */
  heavyConcurrencyPerAddress: number;
  /**
   * How long a 429 of the rate limits or the heavy-route cap is held before it is sent: a client that
   * ignores Retry-After and asks again at once then costs this gateway a refusal per hold per
   * connection, not one per round trip (0: at once).
   */
  refusalHoldMs: number;
  /** Proxies in front of the gateway whose X-Forwarded-For is trusted for the client's address (0: none). */
  trustProxyHops: number;
  /** Open client connections at most (idle keep-alive ones count); one more is dropped as it arrives. */
  connections: number;
  /**
   * Connections open at once from one client address (0: no cap). By default 256 when the gateway
   * is the edge, and none behind a proxy (TRUST_PROXY_HOPS > 0): every connection then comes from
   * the proxy, which caps each client's itself (deploy/k8s: the Ingress's limit-connections).
   */
  connectionsPerAddress: number;
  /**
   * Event streams (GET /api/tables/{tableId}/events) open at once in this gateway: at most half of
   * `connections`, since each holds one, so that streams never leave requests without a connection.
   */
  eventStreams: number;
  /** Event streams open at once by one player (the token's subject). */
  eventStreamsPerPlayer: number;
  /**
   * Event streams open at once from one client address: many accounts from one address cannot take
   * every stream of the gateway (raise it where many players share an address).
   */
  eventStreamsPerAddress: number;
  /** A comment line on every event stream this often, so proxies keep it open. */
  eventHeartbeatMs: number;
  /**
   * An event stream ends after this long (its client reconnects with Last-Event-ID): the token is
   * checked when a stream opens, so this bounds how long a stream outlives it.
   */
  eventStreamMaxMs: number;
}

export function readEdgeSettings(env: Env = process.env): EdgeSettings {
  const origins = envOptional("CORS_ORIGINS", env) ?? "";
  const trustProxyHops = envInt("TRUST_PROXY_HOPS", 0, { max: 10 }, env);
  const connections = envInt("MAX_CONNECTIONS", 10_000, { min: 1, max: 1_000_000 }, env);
  return {
    corsOrigins: origins
      .split(",")
      .map((origin) => origin.trim())
      .filter((origin) => origin !== "")
      .map(corsOrigin),
    rateLimitWindowSeconds: envInt("RATE_LIMIT_WINDOW_SECONDS", 60, { min: 1, max: 86_400 }, env),
    rateLimitPerIp: envInt("RATE_LIMIT_PER_IP", 1_200, {}, env),
    rateLimitPerPlayer: envInt("RATE_LIMIT_PER_PLAYER", 600, {}, env),
    historyReadsPerPlayer: readBudget("HISTORY_READS_PER_PLAYER", 6_000, env),
    historyReadsPerAddress: readBudget("HISTORY_READS_PER_ADDRESS", 12_000, env),
    heavyConcurrency: envInt("BULK_MAX_CONCURRENT", 2, {}, env),
    heavyConcurrencyPerPlayer: envInt("BULK_MAX_CONCURRENT_PER_PLAYER", 1, {}, env),
    heavyConcurrencyPerAddress: envInt("BULK_MAX_CONCURRENT_PER_ADDRESS", 4, {}, env),
    refusalHoldMs: envInt("RATE_LIMIT_HOLD_MS", 25, { max: 1_000 }, env),
    trustProxyHops,
    connections,
    connectionsPerAddress: envInt("MAX_CONNECTIONS_PER_ADDRESS", trustProxyHops === 0 ? 256 : 0, {}, env),
    eventStreams: readEventStreams(connections, env),
    eventStreamsPerPlayer: envInt("EVENTS_MAX_STREAMS_PER_PLAYER", 4, { min: 1, max: 1_000 }, env),
    eventStreamsPerAddress: envInt("EVENTS_MAX_STREAMS_PER_ADDRESS", 100, { min: 1, max: 1_000_000 }, env),
    eventHeartbeatMs: 1000 * envInt("EVENTS_HEARTBEAT_SECONDS", 15, { min: 1, max: 300 }, env),
    eventStreamMaxMs: 1000 * envInt("EVENTS_MAX_STREAM_SECONDS", 900, { min: 10, max: 86_400 }, env),
  };
}

/** EVENTS_MAX_STREAMS: open streams that could hold every connection would shut every other request out. */
function readEventStreams(connections: number, env: Env): number {
  const streams = envInt("EVENTS_MAX_STREAMS", 1_000, { min: 1, max: 1_000_000 }, env);
  if (streams > connections / 2) {
    throw new ConfigError(
      `EVENTS_MAX_STREAMS (${streams}) must be at most half of MAX_CONNECTIONS (${connections}): each stream holds a connection, and requests need the rest`,
    );
  }
  return streams;
}

/**
 * One of CORS_ORIGINS: a browser origin exactly as a browser sends it (`https://host[:port]`, lower
 * case, no path, no default port), which the allow-list is matched against character for character.
 * Anything else (`*`, `null`, a trailing slash, a path, a capital) matched no request: the API was
 * silently closed to the very client it was meant to open to.
 */
function corsOrigin(entry: string): string {
  let origin: string | undefined;
  try {
    const url = new URL(entry);
    if (url.protocol === "https:" || url.protocol === "http:") origin = url.origin;
  } catch {
    origin = undefined;
  }
  if (origin !== entry) {
    const hint = origin === undefined ? "" : ` (did you mean ${origin}?)`;
    throw new ConfigError(
      `CORS_ORIGINS lists ${JSON.stringify(entry)}: each must be an origin, scheme://host[:port], exactly as a browser sends it${hint}`,
    );
  }
  return origin;
}

/** A history read budget: 0 (none), or at least the largest read, which a smaller one would always refuse. */
function readBudget(name: string, fallback: number, env: Env): number {
  const reads = envInt(name, fallback, {}, env);
  if (reads !== 0 && reads < LARGEST_HISTORY_READ) {
    throw new ConfigError(`${name} must be 0 (no limit) or at least ${LARGEST_HISTORY_READ}, got ${reads}`);
  }
  return reads;
}

/** Headers a browser client may send and read (CORS). */
const ALLOWED_HEADERS = ["Authorization", "Content-Type", API_HEADERS.idempotencyKey, API_HEADERS.requestId];
const EXPOSED_HEADERS = [
  API_HEADERS.requestId,
  API_HEADERS.idempotencyKey,
  "Retry-After",
  "RateLimit",
  "RateLimit-Policy",
  "WWW-Authenticate",
  "Allow",
  API_HEADERS.tableVersion,
];

/** A JSON API: nothing to render, frame or load; the strictest policy holds. */
const HELMET_OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
};

export const securityHeaders = (): RequestHandler => helmet(HELMET_OPTIONS);

/**
 * The headers securityHeaders sets, as helmet writes them (they depend on no request), for the
 * answers written before Express runs (http-server.ts).
 */
export const securityHeaderValues = (): Record<string, string> => helmetHeaderValues(HELMET_OPTIONS);

/** The headers helmet sets with `options`, written once: none of them depends on the request. */
export function helmetHeaderValues(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => (headers[name] = String(value)),
    removeHeader: (name: string) => delete headers[name],
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => {});
  return headers;
}

/** CORS for the allow-listed origins (preflight included); null when none is configured. */
export function corsFor(origins: string[]): { headers: RequestHandler; endPreflight: RequestHandler } | null {
  if (origins.length === 0) return null;
  return {
    // A preflight goes on past its headers, so that the per-address limit counts it: cors() itself
    // answered every OPTIONS at once, and an address over its limit was answered them without end.
    headers: cors({
      origin: origins,
      methods: ["GET", "POST"],
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
      preflightContinue: true,
    }),
    endPreflight: (req, res, next) => (req.method === "OPTIONS" ? void res.status(204).end() : next()),
  };
}

const retryAfter = (seconds: number) => ({ "Retry-After": String(Math.max(1, Math.ceil(seconds))) });

export const tooManyRequests = (retryAfterSeconds: number, message = RATE_LIMITED) =>
  new HttpError(429, message, { headers: retryAfter(retryAfterSeconds) });

const limiterOptions = (settings: EdgeSettings, limit: number): Partial<Options> => ({
  windowMs: settings.rateLimitWindowSeconds * 1000,
  limit,
  standardHeaders: "draft-8",
  legacyHeaders: false,
  handler: (req, res) => {
    const resetTime = (req as Request & { rateLimit?: RateLimitInfo }).rateLimit?.resetTime;
    const seconds = resetTime ? (resetTime.getTime() - Date.now()) / 1000 : settings.rateLimitWindowSeconds;
    refuseAfter(settings.refusalHoldMs, res, seconds, RATE_LIMITED);
  },
});

/**
 * The overload refusals are answered here, in the error handler's shape, rather than passed on as
 * errors: a flooder is refused a thousand times a second, and an Error's stack trace and Express's
 * walk through every remaining route to the error handler were a third of a refusal's cost.
 */
function refuseAfter(holdMs: number, res: Response, retryAfterSeconds: number, message: string): void {
  const refuse = () => sendError(res, 429, message, retryAfter(retryAfterSeconds));
  if (holdMs === 0) refuse();
  else setTimeout(refuse, holdMs);
}

const pass: RequestHandler = (_req, _res, next) => next();

/**
 * The client a limit counts by its address: an IPv4 address, or an IPv6 one's /56 (one client
 * commonly holds a whole /64 or more), as the rate limiters count by default.
 */
export const clientAddressKey = (address: string): string => ipKeyGenerator(address);

/**
 * Before authentication, by the client's address (the socket's: set Express's "trust proxy" behind a
 * load balancer). Health is exempt: probes must never be refused.
 */
export function perIpLimit(settings: EdgeSettings): RequestHandler {
  if (settings.rateLimitPerIp === 0) return pass;
  return rateLimit({
    ...limiterOptions(settings, settings.rateLimitPerIp),
    identifier: "per-ip",
    skip: isHealthCheck,
  });
}

/** After authentication, by the token's subject: a player cannot escape it by changing address. */
export function perPlayerLimit(settings: EdgeSettings): RequestHandler {
  if (settings.rateLimitPerPlayer === 0) return pass;
  return rateLimit({
    ...limiterOptions(settings, settings.rateLimitPerPlayer),
    identifier: "per-player",
    keyGenerator: (_req, res) => `player:${String(res.locals.identity?.playerId)}`,
  });
}

/** The reads of the largest statement page: its entries and one more, which says whether another page follows. */
export const STATEMENT_PAGE_READS = (limit: number): number => limit + 1;
const LARGEST_HISTORY_READ = STATEMENT_PAGE_READS(ACCOUNT_STATEMENT_MAX_LIMIT);

/**
 * A finished game's record: found by bisection over its table's versions, about 2 log2 of them (40
 * at a million), counted at that.
 */
export const GAME_RECORD_READS = 40;

/** What a history read spends of the budget below, before it is sent to the backend. */
export type SpendHistoryReads = (req: Request, res: Response, reads: number) => Promise<void>;

export const HISTORY_READS_LIMITED = "too many history reads (statement pages, game records); try again later";

/**
 * The history routes (a statement page, a finished game's record) counted by the database reads they
 * cost, per player and per client address, over the rate limits' window: a page of 100 entries is
 * 101 reads, and counted as one request each, such pages read at one player's request limit doubled
 * every other player's bet latency (a review: p50 5.4 -> 10.8 ms, p90 7.5 -> 59.7 ms). A read that
 * would overspend is a 429 with the Retry-After of the budget's refill.
 */
export function historyReadBudget(settings: EdgeSettings): SpendHistoryReads {
  const budget = (points: number) =>
    points > 0 ? new RateLimiterMemory({ points, duration: settings.rateLimitWindowSeconds }) : null;
  const perAddress = budget(settings.historyReadsPerAddress);
  const perPlayer = budget(settings.historyReadsPerPlayer);
  return async (req, res, reads) => {
    try {
      // The player's first: a player past its own budget spends none of its address's.
      await perPlayer?.consume(`player:${String(res.locals.identity?.playerId)}`, reads);
      await perAddress?.consume(clientAddressKey(req.ip ?? ""), reads);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      throw tooManyRequests(refusal.msBeforeNext / 1000, HISTORY_READS_LIMITED);
    }
  };
}

/** Heavy requests that may wait for a slot at once, and how long one waits at most, before a 429. */
const HEAVY_WAITING = 16;
const HEAVY_WAIT_MS = 10_000;

/**
 * At most `settings.heavyConcurrency` requests of a heavy route in flight, and at most
 * `heavyConcurrencyPerPlayer` of them by one player and `heavyConcurrencyPerAddress` from one client
 * address, waiting or in flight (the caller is authenticated by then). Beyond the first, a request
 * waits its turn, first come first served (up to HEAVY_WAITING of them, each up to HEAVY_WAIT_MS), so
 * that accounts sending batch after batch cannot keep every other player out: whoever asked first is
 * served when a slot frees, and one address holds at most its share of the line (18 accounts from one
 * address filled it without). Beyond the per-player or per-address cap, or the line, a fast 429. A slot is held until the handler is done and its answer
 * has left (or its client has gone), whichever is later: the handler's backend work runs on after a
 * client leaves (odds/routes.ts says why), and an answer a client does not read stays buffered; the
 * cap bounds both.
 */
export function heavyCap(settings: EdgeSettings): (handler: RequestHandler) => RequestHandler {
  const { heavyConcurrency, heavyConcurrencyPerPlayer, heavyConcurrencyPerAddress, refusalHoldMs } = settings;
  if (heavyConcurrency === 0 && heavyConcurrencyPerPlayer === 0 && heavyConcurrencyPerAddress === 0) {
    return (handler) => handler;
  }
  const players = new Slots(0, heavyConcurrencyPerPlayer);
  const addresses = new Slots(0, heavyConcurrencyPerAddress);
  const line = new Line(heavyConcurrency, HEAVY_WAITING, HEAVY_WAIT_MS);
  return (handler) => async (req, res, next) => {
    const player = players.take(String(res.locals.identity?.playerId));
    if (typeof player !== "function") {
      return refuseAfter(refusalHoldMs, res, 1, "one bulk request at a time per player: wait for the one in progress");
    }
    const address = addresses.take(clientAddressKey(req.ip ?? ""));
    if (typeof address !== "function") {
      player();
      return refuseAfter(refusalHoldMs, res, 1, "too many bulk requests from this address at once; try again shortly");
    }
    const release = () => {
      player();
      address();
    };
    const gone = new AbortController();
    whenClientGone(res, () => gone.abort());
    const turn = await line.enter(gone.signal);
    if (typeof turn !== "function") {
      release();
      if (turn === "full") refuseAfter(refusalHoldMs, res, 1, "too many bulk requests in progress; try again shortly");
      return;
    }
    try {
      await handler(req, res, next);
    } finally {
      // And until its answer has left: what a client does not read, and the kernel does not take, stays here.
      whenClientGone(res, () => {
        turn();
        release();
      });
    }
  };
}

/**
 * At most `max` holders at once (0: no limit); beyond, up to `maxWaiting` wait their turn in order of
 * arrival, each at most `maxWaitMs`. `enter` gives the turn's release (safe to call twice), or
 * "full" (no room in the line, or the wait was too long), or "left" (its signal aborted meanwhile).
 */
export class Line {
  private holders = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly max: number,
    private readonly maxWaiting: number,
    private readonly maxWaitMs: number,
  ) {}

  enter(signal: AbortSignal): Promise<(() => void) | "full" | "left"> {
    if (this.max === 0 || this.holders < this.max) return Promise.resolve(this.admit());
    if (signal.aborted) return Promise.resolve("left");
    if (this.waiting.length >= this.maxWaiting) return Promise.resolve("full");
    return new Promise((resolve) => {
      const leave = (why: "full" | "left") => {
        const at = this.waiting.indexOf(admitted);
        if (at === -1) return;
        this.waiting.splice(at, 1);
        clearTimeout(timer);
        resolve(why);
      };
      const admitted = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        resolve(this.admit());
      };
      const onAbort = () => leave("left");
      const timer = setTimeout(() => leave("full"), this.maxWaitMs);
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(admitted);
    });
  }

  private admit(): () => void {
    this.holders++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders--;
      this.waiting.shift()?.();
    };
  }
}
