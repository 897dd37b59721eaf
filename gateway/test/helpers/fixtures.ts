import { status } from "@grpc/grpc-js";
import { serviceError } from "./fake-stream.js";
import {
  HandStatus,
  type BulkHandStageInfo,
  type DealResponse,
  type GenerateBulkResponse,
  type HandOdds,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import {
  GameState,
  type BetResponse,
  type LeaveResponse,
  type ListTablesResponse,
  type SitResponse,
  type TableState,
  type TopUpResponse,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { Role, type Claims, type Profile } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";

const DECK = "23456789TJQKA".split("").flatMap((rank) => "cdhs".split("").map((suit) => rank + suit));

/** A seed and a commitment as the odds service sends them (the fakes' cards are not dealt from it). */
export const SEED = "5eed".repeat(16);
export const COMMITMENT = "c0".repeat(32);

/** A failed call (serviceError: a domain error's statuses marked as the services mark them). */
export const grpcError = serviceError;

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
    gameId: "DEAL-1",
    serverSeed: SEED,
    seedCommitment: COMMITMENT,
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
      serverSeed: SEED,
      seedCommitment: COMMITMENT,
      handStageInfoList: [0, 1, 2, -1].flatMap((stage) =>
        Array.from({ length: numberOfHands }, (_, hand) => stageInfo(hand, stage, stage !== 0)),
      ),
    })),
  };
}

/** The same batch as the odds service streams it: `perPiece` games a piece, the time on the last. */
export function bulkPieces(numberOfGames: number, numberOfHands: number, perPiece = 2): GenerateBulkResponse[] {
  const { games, generatedAt } = bulkResponse(numberOfGames, numberOfHands);
  const pieces: GenerateBulkResponse[] = [];
  for (let first = 0; first < games.length; first += perPiece) {
    const last = first + perPiece >= games.length;
    pieces.push({ games: games.slice(first, first + perPiece), generatedAt: last ? generatedAt : "" });
  }
  return pieces;
}

/** A player other than the test token's player-1, known to the fake wallet. */
export const OTHER_PLAYER: Profile = {
  playerId: "player-2",
  username: "p2@example.com",
  displayName: "P Two",
  accountBalanceCents: 123_456,
  avatarImageUrl: "/avatars/p2.png",
  role: Role.ROLE_PAYING_USER,
  isActive: true,
  personalTableId: 1001,
  accountNotOpened: false,
};

/** The profile the wallet makes on a first read: the claims and the 1,000 welcome balance. */
export function profileFrom(claims: Claims): Profile {
  return {
    playerId: claims.playerId,
    username: claims.username,
    displayName: claims.displayName,
    accountBalanceCents: 100_000,
    avatarImageUrl: "/avatars/default.png",
    role: claims.role,
    isActive: true,
    accountNotOpened: false,
  };
}

export const unknownPlayer = (playerId: string) => grpcError(status.NOT_FOUND, `player ${playerId} does not exist`);

export const lobby = (): ListTablesResponse => ({
  tables: [
    { tableId: 1, playerCount: 2, gameState: "BETTING" },
    { tableId: 3, playerCount: 1, gameState: "WAITING" },
  ],
  totalActivePlayers: 3,
  etag: "lobby-1",
  unchanged: false,
});

export const sitResponse = (): SitResponse => ({ acknowledged: true, message: "", seatId: 2, seatBalanceCents: 5025 });

export const topUpResponse = (): TopUpResponse => ({
  acknowledged: true,
  message: "",
  newSeatBalanceCents: 7550,
  newAccountBalanceCents: 92_450,
});

export const betResponse = (): BetResponse => ({
  acknowledged: true,
  message: "bet placed: handIndex 3 at odds 2.5 (hole)",
  updatedSeatBalanceCents: 4025,
});

export const leaveResponse = (): LeaveResponse => ({
  acknowledged: true,
  creditsReturnedCents: 4025,
  newAccountBalanceCents: 99_999,
});

function handOdds(handIndex: number, bettingStage: number): HandOdds {
  return {
    handIndex,
    bettingStage,
    handStatus:
      handIndex === 0 ? HandStatus.HAND_STATUS_IN_PLAY_FAVOURITE : HandStatus.HAND_STATUS_IN_PLAY_BETTING_STAGE_ACTIVE,
    winPercentage: handIndex === 0 ? 40.5 : 19.8,
    drawPercentage: 1.25,
    oddsTenths: handIndex === 0 ? 23 : 49,
  };
}

/** Table 7 at the flop: one player seated, one bet from the hole stage. */
export function tableState(overrides: Partial<TableState> = {}): TableState {
  return {
    tableId: 7,
    gameId: "T7-3",
    gameState: GameState.GAME_STATE_STATUS_FLOP,
    bettingStage: 1,
    bettingOpen: true,
    numberOfHands: 4,
    numberOfSeats: 6,
    jackpotCents: 0,
    hands: Array.from({ length: 4 }, (_, i) => DECK[2 * i]! + DECK[2 * i + 1]!),
    board: DECK.slice(40, 43),
    seats: [
      { seatId: 2, playerId: "player-1", playerName: "P One", seatBalanceCents: 4025, avatarImageUrl: "/a/1.png" },
    ],
    bets: [
      {
        playerId: "player-1",
        bettingStage: 0,
        seatIndex: 2,
        handIndex: 1,
        betAmountCents: 1001,
        recordedOddsTenths: 49,
      },
    ],
    handOdds: [0, 1].flatMap((stage) => [0, 1, 2, 3].map((hand) => handOdds(hand, stage))),
    seedCommitment: COMMITMENT,
    serverSeed: "",
    clientSeed: "",
    targetRtp: 0.97,
    ...overrides,
  };
}
