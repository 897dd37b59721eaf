import { Metadata, status, type ServiceError } from "@grpc/grpc-js";
import {
  HandStatus,
  type BulkHandStageInfo,
  type DealResponse,
  type GenerateBulkResponse,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";

export const DECK = "23456789TJQKA".split("").flatMap((rank) => "cdhs".split("").map((suit) => rank + suit));

export function grpcError(code: status, details: string): ServiceError {
  return Object.assign(new Error(`${code} ${status[code]}: ${details}`), { code, details, metadata: new Metadata() });
}

export function dealResponse(numberOfHands: number): DealResponse {
  const hands = Array.from({ length: numberOfHands }, (_, i) => DECK[2 * i]! + DECK[2 * i + 1]!);
  return {
    hands,
    handOdds: hands.map((_, handIndex) => ({
      handIndex,
      bettingStage: 0,
      handStatus:
        handIndex === 0
          ? HandStatus.HAND_STATUS_IN_PLAY_FAVOURITE
          : HandStatus.HAND_STATUS_IN_PLAY_BETTING_STAGE_ACTIVE,
      winPercentage: handIndex === 0 ? 40.5 : 19.8,
      drawPercentage: 1.25,
      oddsTenths: handIndex === 0 ? 23 : 49,
    })),
    remainingDeck: DECK.slice(2 * numberOfHands),
  };
}

function stageInfo(handIndex: number, bettingStage: number, board: boolean): BulkHandStageInfo {
  return {
    handIndex,
    bettingStage,
    percentWin: 30,
    percentDraw: 2,
    percentWinOrDraw: 32,
    oddsActual: 3.3333,
    oddsMargin: 3.2333,
    oddsRounded: 3.2,
    actualRtp: 0.96,
    roundingRake: 0.01,
    statusIsWinner: bettingStage === -1 && handIndex === 0,
    statusCantLose: false,
    statusIsFavourite: handIndex === 0,
    statusBestRtp: handIndex === 1,
    ...(board
      ? { bestFiveCards: "Ah Kh Qh Jh Th", handDescShort: "Royal flush", handDescLong: "Royal flush, hearts" }
      : {}),
  };
}

export function bulkResponse(numberOfGames: number, numberOfHands: number): GenerateBulkResponse {
  return {
    generatedAt: "2026-01-02T03:04:05.000Z",
    games: Array.from({ length: numberOfGames }, (_, game) => ({
      gameId: `BULK-${String(game + 1).padStart(4, "0")}`,
      hands: Array.from({ length: numberOfHands }, (_, i) => DECK[2 * i]! + DECK[2 * i + 1]!),
      board: DECK.slice(40, 45),
      handStageInfoList: [0, 1, 2, -1].flatMap((stage) =>
        Array.from({ length: numberOfHands }, (_, hand) => stageInfo(hand, stage, stage !== 0)),
      ),
    })),
  };
}
