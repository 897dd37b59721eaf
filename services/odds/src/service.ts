import { InvalidArgumentError, unary, type Logger } from "@pokerodds/common";
import {
  HandStatus as ProtoHandStatus,
  type BulkGame as ProtoBulkGame,
  type DealRequest,
  type DealResponse,
  type EquityRequest,
  type EquityResponse,
  type GenerateBulkRequest,
  type GenerateBulkResponse,
  type HandOdds as ProtoHandOdds,
  type OddsServiceServer,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import type { ServerUnaryCall } from "@grpc/grpc-js";
import { validateBulkRequest, type BulkGame } from "./domain/bulk.js";
import { parseCard, parseHand } from "./domain/cards.js";
import type { HandOdds, HandStatus } from "./domain/pricing.js";
import type { OddsPool } from "./pool.js";

const DEFAULT_TARGET_RTP = 0.97;
/** Games per worker task: small enough to spread a batch over every thread, large enough to amortise. */
const BULK_CHUNK = 5;

const STATUS: Record<HandStatus, ProtoHandStatus> = {
  IN_PLAY_FAVOURITE: ProtoHandStatus.HAND_STATUS_IN_PLAY_FAVOURITE,
  IN_PLAY_BETTING_STAGE_ACTIVE: ProtoHandStatus.HAND_STATUS_IN_PLAY_BETTING_STAGE_ACTIVE,
  DEAD_CANNOT_WIN: ProtoHandStatus.HAND_STATUS_DEAD_CANNOT_WIN,
  WINNER: ProtoHandStatus.HAND_STATUS_WINNER,
  LOSER: ProtoHandStatus.HAND_STATUS_LOSER,
};

const toProtoOdds = (odds: HandOdds): ProtoHandOdds => ({ ...odds, handStatus: STATUS[odds.handStatus] });

const toProtoGame = (game: BulkGame): ProtoBulkGame => ({
  ...game,
  handStageInfoList: game.handStageInfoList.map((info) => ({
    ...info,
    bestFiveCards: info.bestFiveCards ?? undefined,
    handDescShort: info.handDescShort ?? undefined,
    handDescLong: info.handDescLong ?? undefined,
  })),
});

/** Aborts the worker task when the caller cancels or its deadline passes: nobody waits for it. */
function cancellation(call: ServerUnaryCall<unknown, unknown>): AbortSignal {
  const controller = new AbortController();
  call.once("cancelled", () => controller.abort());
  return controller.signal;
}

export function oddsService(pool: OddsPool, logger: Logger): OddsServiceServer {
  return {
    deal: unary(logger, "Deal", async (request: DealRequest, { call }): Promise<DealResponse> => {
      const result = await pool.run(
        "dealTask",
        { numberOfHands: request.numberOfHands, targetRtp: request.targetRtp ?? DEFAULT_TARGET_RTP },
        cancellation(call),
      );
      return { ...result, handOdds: result.handOdds.map(toProtoOdds) };
    }),

    generateBulk: unary(
      logger,
      "GenerateBulk",
      async (request: GenerateBulkRequest, { call }): Promise<GenerateBulkResponse> => {
        const { numberOfGames, numberOfHands, targetRtp } = validateBulkRequest(request);
        const signal = cancellation(call);
        const chunks: Promise<BulkGame[]>[] = [];
        for (let first = 1; first <= numberOfGames; first += BULK_CHUNK) {
          const count = Math.min(BULK_CHUNK, numberOfGames - first + 1);
          chunks.push(pool.run("bulkTask", { firstIndex: first, count, numberOfHands, targetRtp }, signal));
        }
        const games = (await Promise.all(chunks)).flat();
        return { games: games.map(toProtoGame), generatedAt: new Date().toISOString() };
      },
    ),

    equity: unary(logger, "Equity", async (request: EquityRequest, { call }): Promise<EquityResponse> => {
      if (request.hands.length === 0) throw new InvalidArgumentError("hands are required");
      const hands = request.hands.map(parseHand);
      const board = request.board.map(parseCard);
      const handOdds = await pool.run(
        "priceTask",
        { hands, board, targetRtp: request.targetRtp ?? DEFAULT_TARGET_RTP },
        cancellation(call),
      );
      return { handOdds: handOdds.map(toProtoOdds) };
    }),
  };
}
