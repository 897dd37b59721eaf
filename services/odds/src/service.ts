// The gRPC adapter: decode, run the domain on the worker pool, encode. Rules live in domain/.
import { callEnded, serverStreaming, unary, type Logger } from "@pokerodds/common";
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import type {
  DealRequest,
  DealResponse,
  EquityRequest,
  EquityResponse,
  GenerateBulkRequest,
  OddsServiceServer,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { validateBulkRequest, type CommittedBulkGame } from "./domain/bulk.js";
import type { OddsPool } from "./pool.js";
import { bulkGameToProto, dealToProto, equityCardsFromProto, equityToProto } from "./proto-mapping.js";
import { DEFAULT_TARGET_RTP } from "@pokerodds/common/limits";

/**
 * Games per worker task: a deal waits for at most one chunk per thread (the pool takes deals first),
 * so a chunk is kept short (~5 ms); still enough games to amortise the hop to the thread.
 */
const BULK_CHUNK = 2;

export function oddsService(pool: OddsPool, logger: Logger): OddsServiceServer {
  return {
    // The public requests meet a full lane with RESOURCE_EXHAUSTED at once (the gateway's 429 with
    // Retry-After), not a wait that ends in a missed deadline. A table's game flow (Equity, which only
    // the table may call) is never refused and goes first.
    deal: unary(logger, "Deal", async (request: DealRequest, { call }): Promise<DealResponse> => {
      pool.assertRoom("urgent");
      const result = await pool.run(
        "dealTask",
        {
          numberOfHands: request.numberOfHands,
          targetRtp: request.targetRtp ?? DEFAULT_TARGET_RTP,
          // A stand-alone deal has no game of its own: it gets an id, so its deck can be verified too.
          gameId: `DEAL-${randomUUID()}`,
        },
        callEnded(call),
      );
      return dealToProto(result);
    }),

    generateBulk: serverStreaming(logger, "GenerateBulk", async (request: GenerateBulkRequest, { signal }, send) => {
      const { numberOfGames, numberOfHands, targetRtp } = validateBulkRequest(request);
      pool.assertRoom("batch");
      // A failed chunk fails the call: the chunks still waiting are dropped with it.
      const failed = new AbortController();
      const dropped = AbortSignal.any([signal, failed.signal]);
      // The chunks all listen to the one signal.
      setMaxListeners(0, dropped);
      const chunks: Promise<CommittedBulkGame[]>[] = [];
      for (let first = 1; first <= numberOfGames; first += BULK_CHUNK) {
        const count = Math.min(BULK_CHUNK, numberOfGames - first + 1);
        const chunk = pool.run("bulkTask", { firstIndex: first, count, numberOfHands, targetRtp }, dropped);
        chunk.catch(() => failed.abort());
        chunks.push(chunk);
      }
      // Each chunk goes out as it is ready, in order: encoding a piece is short, the batch never is.
      for (const [i, chunk] of chunks.entries()) {
        const last = i === chunks.length - 1;
        await send({ games: (await chunk).map(bulkGameToProto), generatedAt: last ? new Date().toISOString() : "" });
      }
    }),

    equity: unary(logger, "Equity", async (request: EquityRequest, { call }): Promise<EquityResponse> => {
      const { hands, board } = equityCardsFromProto(request);
      const handOdds = await pool.run(
        "priceTask",
        { hands, board, targetRtp: request.targetRtp ?? DEFAULT_TARGET_RTP },
        callEnded(call),
        { gameFlow: true },
      );
      return equityToProto(handOdds);
    }),
  };
}
