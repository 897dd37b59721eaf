import { createLogger } from "@pokerodds/common";
import type { CallOptions, ServerStream } from "@pokerodds/common";
import { createApp, type AppDeps } from "../../src/app.js";
import type { Role } from "@pokerodds/api/players";
import { readEdgeSettings, type EdgeSettings } from "../../src/http/edge.js";
import { startHttpServer } from "../../src/http-server.js";
import type { HealthProbe, OddsApi, TableApi, TableEventsApi, WalletApi } from "../../src/services.js";
import { TableFeeds, type FeedLimits } from "../../src/tables/table-feeds.js";
import {
  betResponse,
  bulkPieces,
  dealResponse,
  leaveResponse,
  lobby,
  OTHER_PLAYER,
  profileFrom,
  sitResponse,
  tableState,
  topUpResponse,
  unknownPlayer,
} from "./fixtures.js";
import { connect } from "node:net";
import { newKey, validToken, verifierFor } from "./tokens.js";

export const silentLogger = () => {
  const logger = createLogger("gateway-test");
  logger.level = "silent";
  return logger;
};

interface RecordedCall<M extends string = string> {
  method: M;
  request: unknown;
  options: CallOptions | undefined;
}

export type Fake<T> = T & { calls: RecordedCall<keyof T & string>[] };

/** A backend answering as `defaults` unless `overrides` says otherwise, recording every call. */
function fakeService<T extends object>(defaults: T, overrides: Partial<T> = {}): Fake<T> {
  const calls: RecordedCall<keyof T & string>[] = [];
  const service: Record<string, unknown> = { calls };
  for (const method of Object.keys(defaults) as (keyof T & string)[]) {
    const answer = (overrides[method] ?? defaults[method]) as (request: unknown, options?: CallOptions) => unknown;
    // Not async: a stream (GenerateBulk) is answered as such, not as a promise of one.
    service[method] = (request: unknown, options?: CallOptions) => {
      calls.push({ method, request, options });
      return answer(request, options);
    };
  }
  return service as Fake<T>;
}

/**
 * A server stream of the pieces `produce` answers, as openServerStream reads one: accepted once they
 * are there, and refused (the iteration throws) with its rejection.
 */
export function streamOf<T>(produce: () => Promise<T[]>): ServerStream<T> {
  const pieces = produce();
  const accepted = pieces.then(() => undefined);
  accepted.catch(() => {}); // the iteration throws the same error
  return {
    accepted,
    async *[Symbol.asyncIterator]() {
      yield* await pieces;
    },
  };
}

/** An odds service answering from fixtures. */
export const fakeOdds = (overrides: Partial<OddsApi> = {}) =>
  fakeService<OddsApi>(
    {
      deal: async (request) => dealResponse(request.numberOfHands),
      generateBulk: (request) => streamOf(async () => bulkPieces(request.numberOfGames, request.numberOfHands)),
    },
    overrides,
  );

/** A wallet that knows the caller (from the claims) and OTHER_PLAYER. */
export const fakeWallet = (overrides: Partial<WalletApi> = {}) =>
  fakeService<WalletApi>(
    {
      getProfile: async (request) => ({ profile: profileFrom(request.claims!) }),
      getPlayer: async (request) => {
        if (request.playerId !== OTHER_PLAYER.playerId) throw unknownPlayer(request.playerId);
        return { profile: OTHER_PLAYER };
      },
      listLedger: async () => ({ entries: [], nextAfterSequence: 0, nextBeforeSequence: 0 }),
      audit: async () => {
        throw new Error("no wallet audit faked");
      },
    },
    overrides,
  );

export const fakeTable = (overrides: Partial<TableApi> = {}) =>
  fakeService<TableApi>(
    {
      listTables: async () => lobby(),
      listSeats: async () => ({ seats: [] }),
      sit: async () => sitResponse(),
      topUp: async () => topUpResponse(),
      bet: async () => betResponse(),
      leave: async () => leaveResponse(),
      advance: async () => ({ state: tableState(), version: 1 }),
      getState: async () => ({ state: tableState(), version: 1 }),
      getGame: async () => {
        throw new Error("no game faked");
      },
      audit: async () => {
        throw new Error("no table audit faked");
      },
    },
    overrides,
  );

export const serving: HealthProbe = { check: async () => "SERVING" };

/** The default edge with every limit off, and `over` on top. */
export const edgeWithoutLimits = (over: Partial<EdgeSettings> = {}): EdgeSettings => ({
  ...readEdgeSettings({}),
  rateLimitPerIp: 0,
  rateLimitPerPlayer: 0,
  historyReadsPerPlayer: 0,
  historyReadsPerAddress: 0,
  heavyConcurrency: 0,
  heavyConcurrencyPerPlayer: 0,
  heavyConcurrencyPerAddress: 0,
  ...over,
});

export interface TestApp {
  url: string;
  /** A token for player-1, role BASIC_USER. */
  token: string;
  tokenFor(playerId: string, role?: Role): Promise<string>;
  odds: Fake<OddsApi>;
  wallet: Fake<WalletApi>;
  table: Fake<TableApi>;
  /** Every call to any backend. */
  backendCalls(): number;
  close(): Promise<void>;
}

export type AppOverrides = Partial<Omit<AppDeps, "odds" | "wallet" | "table" | "tableFeeds">> & {
  odds?: Partial<OddsApi>;
  wallet?: Partial<WalletApi>;
  table?: Partial<TableApi>;
  /** The table service's WatchTable, followed by the app's table feeds (closed with the app). */
  tableEvents?: TableEventsApi;
  /** The table feeds' limits (table-feeds.ts's by default). */
  feedLimits?: Partial<FeedLimits>;
  /** The listen address (default loopback). */
  host?: string;
  /** How long close() lets requests in flight finish before it cuts them (1 s by default). */
  closeGraceMs?: number;
};

/** The real app and HTTP server on a free port, with fake backends and a test issuer. */
export async function startApp({
  host = "127.0.0.1",
  tableEvents,
  feedLimits,
  closeGraceMs = 1000,
  ...overrides
}: AppOverrides = {}): Promise<TestApp> {
  const key = await newKey();
  const odds = fakeOdds(overrides.odds);
  const wallet = fakeWallet(overrides.wallet);
  const table = fakeTable(overrides.table);
  const deps: AppDeps = {
    logger: silentLogger(),
    // No limits unless a test sets them (edge.test.ts): other tests send many requests quickly.
    edge: edgeWithoutLimits(),
    verifyToken: verifierFor(key),
    health: { odds: serving, wallet: serving, table: serving },
    ...overrides,
    odds,
    wallet,
    table,
  };
  if (tableEvents) deps.tableFeeds = new TableFeeds(tableEvents, deps.logger, feedLimits);
  const server = await startHttpServer(createApp(deps), { port: 0, host });
  return {
    url: `http://127.0.0.1:${server.port}`,
    token: await validToken(key),
    tokenFor: (playerId, role) => validToken(key, playerId, role),
    odds,
    wallet,
    table,
    backendCalls: () => odds.calls.length + wallet.calls.length + table.calls.length,
    // As main.ts: the feeds first, so streams still waiting for their first event end at once too.
    close: async () => {
      deps.tableFeeds?.close();
      await server.close(closeGraceMs);
    },
  };
}

export function post(app: TestApp, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(app.url + path, {
    method: "POST",
    headers: {
      authorization: `Bearer ${app.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function get(app: TestApp, path: string, headers: Record<string, string> = {}) {
  return fetch(app.url + path, { headers: { authorization: `Bearer ${app.token}`, ...headers } });
}

/** A raw request, for what fetch will not send (malformed, HTTP/1.0, a body shorter than declared); answers the whole response text. */
export function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}
