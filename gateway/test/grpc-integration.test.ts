// The gateway against a real grpc-js server (a stub odds service behind common's adapter): request
// ids travel as metadata, domain errors come back as their HTTP answer (the bulk stream's too, before or
// after its first piece), health follows the server.
import {
  BusyError,
  ConflictError,
  createClient,
  HealthChecker,
  InvalidArgumentError,
  serverStreaming,
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
import { oddsApiOf } from "../src/backends.js";
import { post, serving, silentLogger, startApp } from "./helpers/app.js";
import { bulkPieces, dealResponse } from "./helpers/fixtures.js";
import { eventually } from "../../test/helpers/poll.js";

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
        generateBulk: serverStreaming<GenerateBulkRequest, GenerateBulkResponse>(
          logger,
          "GenerateBulk",
          async (request, _context, send) => {
            if (request.numberOfGames === 7) throw new BusyError("busy");
            for (const [i, piece] of bulkPieces(request.numberOfGames, request.numberOfHands, 1).entries()) {
              if (request.numberOfGames === 5 && i === 2) throw new Error("a worker died");
              await send(piece);
            }
          },
        ),
        equity: unary<unknown, EquityResponse>(logger, "Equity", async () => ({ handOdds: [] })),
      },
    },
    { host: "127.0.0.1", port: 0, logger },
  );
  const address = `127.0.0.1:${server.port}`;
  const client = createClient(OddsServiceClient, ["deal"], address, { defaultDeadlineMs: 5000 });
  const checker = new HealthChecker(address);
  const app = await startApp({
    odds: oddsApiOf(client),
    health: { odds: checker, wallet: serving, table: serving },
  });
  t.teardown(async () => {
    await app.close();
    client.raw.close();
    checker.close();
    await server.shutdown(100);
  });

  // Health follows the server within a second (one round of probes answers a second of requests).
  const healthBecomes = (status: number) =>
    eventually(`health ${status}`, async () => {
      const response = await fetch(`${app.url}/api/health`);
      return response.status === status ? ((await response.json()) as Record<string, unknown>) : undefined;
    });
  t.is((await fetch(`${app.url}/api/health`)).status, 503, "not serving until the service says so");
  server.setServing(true);
  await healthBecomes(200);

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
  // Refused before its first piece: the status; failed after two pieces: nothing of them.
  const busy = await post(app, "/api/games/bulk", { numberOfGames: 7, numberOfHands: 3 });
  t.deepEqual(
    [busy.status, busy.headers.get("retry-after"), await busy.json()],
    [429, "1", { error: "too many requests; try again later" }],
  );
  const broken = await post(app, "/api/games/bulk", { numberOfGames: 5, numberOfHands: 3 });
  t.deepEqual([broken.status, await broken.json()], [500, { error: "internal error" }]);

  const conflict = await post(app, "/api/deal", { numberOfHands: 6 });
  t.deepEqual([conflict.status, await conflict.json()], [409, { error: "the deck is busy" }]);
  const invalid = await post(app, "/api/deal", { numberOfHands: 5 });
  t.deepEqual([invalid.status, await invalid.json()], [400, { error: "five is unlucky" }]);
  const internal = await post(app, "/api/deal", { numberOfHands: 3 });
  t.deepEqual([internal.status, await internal.json()], [500, { error: "internal error" }]);

  await server.shutdown(100);
  const down = await post(app, "/api/deal");
  t.deepEqual(
    [down.status, down.headers.get("retry-after"), await down.json()],
    [503, "1", { error: "odds service unavailable" }],
  );
  t.like(await healthBecomes(503), { status: "unavailable", checks: { odds: "unreachable" } });
});
