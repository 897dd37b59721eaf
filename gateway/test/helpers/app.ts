import { createLogger } from "@pokerodds/common";
import type { CallOptions } from "@pokerodds/common";
import { createApp, type AppDeps } from "../../src/app.js";
import { startHttpServer } from "../../src/http-server.js";
import type { HealthProbe, OddsApi } from "../../src/services.js";
import { bulkResponse, dealResponse } from "./fixtures.js";
import { newKey, validToken, verifierFor } from "./tokens.js";

export const silentLogger = () => {
  const logger = createLogger("gateway-test");
  logger.level = "silent";
  return logger;
};

export interface RecordedCall {
  method: "deal" | "generateBulk";
  request: unknown;
  options: CallOptions | undefined;
}

/** An odds service answering from fixtures, recording every call. */
export function fakeOdds(overrides: Partial<OddsApi> = {}): OddsApi & { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  return {
    calls,
    deal: async (request, options) => {
      calls.push({ method: "deal", request, options });
      return overrides.deal ? overrides.deal(request, options) : dealResponse(request.numberOfHands);
    },
    generateBulk: async (request, options) => {
      calls.push({ method: "generateBulk", request, options });
      return overrides.generateBulk
        ? overrides.generateBulk(request, options)
        : bulkResponse(request.numberOfGames, request.numberOfHands);
    },
  };
}

export const serving: HealthProbe = { check: async () => "SERVING" };

export interface TestApp {
  url: string;
  token: string;
  odds: ReturnType<typeof fakeOdds>;
  close(): Promise<void>;
}

/** The real app and HTTP server on a free port, with fake backends and a test issuer. */
export async function startApp(
  overrides: Partial<Omit<AppDeps, "odds">> & { odds?: Partial<OddsApi> } = {},
): Promise<TestApp> {
  const key = await newKey();
  const odds = fakeOdds(overrides.odds);
  const deps: AppDeps = {
    logger: silentLogger(),
    verifyToken: verifierFor(key),
    health: { odds: serving, wallet: serving, table: serving },
    ...overrides,
    odds,
  };
  const server = await startHttpServer(createApp(deps), { port: 0, host: "127.0.0.1" });
  return {
    url: `http://127.0.0.1:${server.port}`,
    token: await validToken(key),
    odds,
    close: () => server.close(1000),
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
