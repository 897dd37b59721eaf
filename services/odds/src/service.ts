// The gRPC adapter: decode, run the domain on the worker pool, encode. Rules live in domain/.
import { unary, type Logger } from "@pokerodds/common";
import { randomUUID } from "node:crypto";
import type {
  DealRequest,
  DealResponse,
  EquityRequest,
  EquityResponse,
  GenerateBulkRequest,
  GenerateBulkResponse,
  OddsServiceServer,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { Metadata, status, type handleUnaryCall, type ServerUnaryCall } from "@grpc/grpc-js";
import { validateBulkRequest, type CommittedBulkGame } from "./domain/bulk.js";
import type { Lane, OddsPool } from "./pool.js";
import { bulkGameToProto, dealToProto, equityCardsFromProto, equityToProto } from "./proto-mapping.js";

const DEFAULT_TARGET_RTP = 0.97;
/**
 * Games per worker task: a deal waits for at most one chunk per thread (the pool takes deals first),
 * so a chunk is kept short (~5 ms); still enough games to amortise the hop to the thread.
 */
const BULK_CHUNK = 2;

/** Aborts the worker task when the caller cancels or its deadline passes: nobody waits for it. */
function cancellation(call: ServerUnaryCall<unknown, unknown>): AbortSignal {
  const controller = new AbortController();
  call.once("cancelled", () => controller.abort());
  return controller.signal;
}

/**
 * The public requests (Deal in the urgent lane, GenerateBulk in the batch lane) meet a full lane with
 * RESOURCE_EXHAUSTED at once (the gateway's 429 with Retry-After) rather than a wait that ends in a
 * missed deadline. Equity, the table service's game flow, is never refused: it waits its turn.
 */
function refusedWhenFull<Req, Res>(
  pool: OddsPool,
  lane: Lane,
  logger: Logger,
  rpc: string,
  handle: handleUnaryCall<Req, Res>,
): handleUnaryCall<Req, Res> {
  return (call, callback) => {
    if (!pool.isFull(lane)) return handle(call, callback);
    const queued = pool.queued(lane);
    logger.warn({ rpc, lane, queued, maxQueue: pool.maxQueue }, "rpc refused: the worker queue is full");
    callback({
      code: status.RESOURCE_EXHAUSTED,
      details: "the odds service is busy; try again shortly",
      metadata: new Metadata(),
    });
  };
}

export function oddsService(pool: OddsPool, logger: Logger): OddsServiceServer {
  return {
    deal: refusedWhenFull(
      pool,
      "urgent",
      logger,
      "Deal",
      unary(logger, "Deal", async (request: DealRequest, { call }): Promise<DealResponse> => {
        const result = await pool.run(
          "dealTask",
          {
            numberOfHands: request.numberOfHands,
            targetRtp: request.targetRtp ?? DEFAULT_TARGET_RTP,
            // A stand-alone deal has no game of its own: it gets an id, so its deck can be verified too.
            gameId: request.gameId || `DEAL-${randomUUID()}`,
          },
          cancellation(call),
        );
        return dealToProto(result);
      }),
    ),

    generateBulk: refusedWhenFull(
      pool,
      "batch",
      logger,
      "GenerateBulk",
      unary(logger, "GenerateBulk", async (request: GenerateBulkRequest, { call }): Promise<GenerateBulkResponse> => {
        const { numberOfGames, numberOfHands, targetRtp } = validateBulkRequest(request);
        const signal = cancellation(call);
        const chunks: Promise<CommittedBulkGame[]>[] = [];
        for (let first = 1; first <= numberOfGames; first += BULK_CHUNK) {
          const count = Math.min(BULK_CHUNK, numberOfGames - first + 1);
          chunks.push(pool.run("bulkTask", { firstIndex: first, count, numberOfHands, targetRtp }, signal));
        }
        const games = (await Promise.all(chunks)).flat();
        return { games: games.map(bulkGameToProto), generatedAt: new Date().toISOString() };
      }),
    ),

    equity: unary(logger, "Equity", async (request: EquityRequest, { call }): Promise<EquityResponse> => {
      const { hands, board } = equityCardsFromProto(request);
      const handOdds = await pool.run(
        "priceTask",
        { hands, board, targetRtp: request.targetRtp ?? DEFAULT_TARGET_RTP },
        cancellation(call),
      );
      return equityToProto(handOdds);
    }),
  };
}
