// The gateway against a real grpc-js server (a stub odds service behind common's adapter): request
// ids travel as metadata, domain errors come back as their HTTP answer, health follows the server.
import {
  ConflictError,
  createClient,
  HealthChecker,
  InvalidArgumentError,
  methodNames,
  startGrpcServer,
  unary,
} from "@pokerodds/common";
import {
  OddsServiceClient,
  OddsServiceService,
  type DealRequest,
  type DealResponse,
  type EquityResponse,
  type GenerateBulkRequest,
  type GenerateBulkResponse,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import test from "ava";
import type { OddsApi } from "../src/services.js";
import { post, serving, silentLogger, startApp } from "./helpers/app.js";
import { bulkResponse, dealResponse } from "./helpers/fixtures.js";

test("deal and bulk through gRPC, with request ids, domain errors and health", async (t) => {
  const logger = silentLogger();
  const seenRequestIds: string[] = [];
  const server = await startGrpcServer(
    {
      name: "pokerodds.odds.v1.OddsService",
      protoFile: "pokerodds/odds/v1/odds.proto",
      definition: OddsServiceService,
      implementation: {
        deal: unary<DealRequest, DealResponse>(logger, "Deal", async (request, context) => {
          seenRequestIds.push(context.requestId);
          if (request.numberOfHands === 6) throw new ConflictError("the deck is busy");
          if (request.numberOfHands === 5) throw new InvalidArgumentError("five is unlucky");
          if (request.numberOfHands === 3) throw new Error("secret internals");
          return dealResponse(request.numberOfHands);
        }),
        generateBulk: unary<GenerateBulkRequest, GenerateBulkResponse>(logger, "GenerateBulk", async (request) =>
          bulkResponse(request.numberOfGames, request.numberOfHands),
        ),
        equity: unary<unknown, EquityResponse>(logger, "Equity", async () => ({ handOdds: [] })),
      },
    },
    { host: "127.0.0.1", port: 0, logger },
  );
  const address = `127.0.0.1:${server.port}`;
  const client = createClient(OddsServiceClient, methodNames(OddsServiceService), address, { defaultDeadlineMs: 5000 });
  const checker = new HealthChecker(address);
  const app = await startApp({
    odds: client.call as unknown as OddsApi,
    health: { odds: checker, wallet: serving, table: serving },
  });
  t.teardown(async () => {
    await app.close();
    client.raw.close();
    checker.close();
    await server.shutdown(100);
  });

  t.is((await fetch(`${app.url}/api/health`)).status, 503, "not serving until the service says so");
  server.setServing(true);
  t.is((await fetch(`${app.url}/api/health`)).status, 200);

  const deal = await post(app, "/api/deal", { numberOfHands: 2 }, { "x-request-id": "trace-1" });
  t.is(deal.status, 200);
  t.like(await deal.json(), {
    hands: dealResponse(2).hands,
    handOdds: [{ handStatus: "IN_PLAY_FAVOURITE", odds: 2.3 }],
  });
  t.deepEqual(seenRequestIds, ["trace-1"]);

  const bulk = await post(app, "/api/games/bulk", { numberOfGames: 2, numberOfHands: 4 });
  t.like(await bulk.json(), {
    numberOfGames: 2,
    numberOfHands: 4,
    games: [{ gameId: "BULK-0001" }, { gameId: "BULK-0002" }],
  });

  const conflict = await post(app, "/api/deal", { numberOfHands: 6 });
  t.deepEqual([conflict.status, await conflict.json()], [409, { error: "the deck is busy" }]);
  const invalid = await post(app, "/api/deal", { numberOfHands: 5 });
  t.deepEqual([invalid.status, await invalid.json()], [400, { error: "five is unlucky" }]);
  const internal = await post(app, "/api/deal", { numberOfHands: 3 });
  t.deepEqual([internal.status, await internal.json()], [500, { error: "internal error" }]);

  await server.shutdown(100);
  const down = await post(app, "/api/deal");
  t.deepEqual([down.status, await down.json()], [503, { error: "odds service unavailable" }]);
  const health = await fetch(`${app.url}/api/health`);
  t.like(await health.json(), { status: "unavailable", checks: { odds: "unreachable" } });
});
