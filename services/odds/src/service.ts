// The gRPC adapter: decode, run the domain on the worker pool, encode. Rules live in domain/.
import { unary, type Logger } from "@pokerodds/common";
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
import { validateBulkRequest, type BulkGame } from "./domain/bulk.js";
import type { OddsPool } from "./pool.js";
import { bulkGameToProto, dealToProto, equityCardsFromProto, equityToProto } from "./proto-mapping.js";

const DEFAULT_TARGET_RTP = 0.97;
/** Games per worker task: small enough to spread a batch over every thread, large enough to amortise. */
const BULK_CHUNK = 5;

/** Aborts the worker task when the caller cancels or its deadline passes: nobody waits for it. */
function cancellation(call: ServerUnaryCall<unknown, unknown>): AbortSignal {
  const controller = new AbortController();
  call.once("cancelled", () => controller.abort());
  return controller.signal;
}

/**
 * The public requests (Deal, GenerateBulk) meet a full worker queue with RESOURCE_EXHAUSTED at once
 * (the gateway's 429 with Retry-After) rather than a wait that ends in a missed deadline. Equity, the
 * table service's game flow, is never refused: it waits its turn.
 */
function refusedWhenFull<Req, Res>(
  pool: OddsPool,
  logger: Logger,
  rpc: string,
  handle: handleUnaryCall<Req, Res>,
): handleUnaryCall<Req, Res> {
  return (call, callback) => {
    if (!pool.isFull) return handle(call, callback);
    logger.warn({ rpc, queued: pool.queued, maxQueue: pool.maxQueue }, "rpc refused: the worker queue is full");
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
      logger,
      "Deal",
      unary(logger, "Deal", async (request: DealRequest, { call }): Promise<DealResponse> => {
        const result = await pool.run(
          "dealTask",
          { numberOfHands: request.numberOfHands, targetRtp: request.targetRtp ?? DEFAULT_TARGET_RTP },
          cancellation(call),
        );
        return dealToProto(result);
      }),
    ),

    generateBulk: refusedWhenFull(
      pool,
      logger,
      "GenerateBulk",
      unary(logger, "GenerateBulk", async (request: GenerateBulkRequest, { call }): Promise<GenerateBulkResponse> => {
        const { numberOfGames, numberOfHands, targetRtp } = validateBulkRequest(request);
        const signal = cancellation(call);
        const chunks: Promise<BulkGame[]>[] = [];
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
