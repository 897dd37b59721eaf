// Proto messages from the table service -> the public JSON of the spec: cents become units, tenths
// become odds, an empty list of hands or cards becomes null. A value the contract does not allow
// throws a ContractViolation.
import { isBoardSize } from "@pokerodds/common/poker/pricing";
import { gameStateName } from "@pokerodds/common/game-state-names";
import {
  type BetResponse,
  type LeaveResponse,
  type ListTablesResponse,
  type SitResponse,
  type TableState,
  type TopUpResponse,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { bettingStage, clientSeedOrNull, requireSeedHex, targetRtpOrNull, toHandOdds } from "../odds/to-api.js";
import { toUnits } from "@pokerodds/api/money";
import { ContractViolation, oneOf } from "@pokerodds/api/violation";
import {
  GAME_STATES,
  LOBBY_GAME_STATES,
  type BetResponseBody,
  type LeaveResponseBody,
  type SitResponseBody,
  type TableGameStateBody,
  type TablesListBody,
  type TopUpResponseBody,
} from "@pokerodds/api/tables";

export const EMPTY_LOBBY: TablesListBody = { tables: [], totalActivePlayers: 0 };

export function toTablesList(response: ListTablesResponse): TablesListBody {
  return {
    tables: response.tables.map((table) => ({
      tableId: table.tableId,
      playerCount: table.playerCount,
      gameState: oneOf(LOBBY_GAME_STATES, table.gameState, "lobby game state"),
    })),
    totalActivePlayers: response.totalActivePlayers,
  };
}

const acknowledgement = (acknowledged: boolean) => (acknowledged ? "ACK" : "NACK");

/** The service's reason, when it gave one: a NACK always should. */
const messageOf = (message: string) => (message ? { message } : {});

export function toSitResponse(response: SitResponse): SitResponseBody {
  return {
    acknowledgement: acknowledgement(response.acknowledged),
    ...messageOf(response.message),
    seatId: response.seatId,
    seatBalance: toUnits(response.seatBalanceCents),
  };
}

export function toTopUpResponse(response: TopUpResponse): TopUpResponseBody {
  return {
    acknowledgement: acknowledgement(response.acknowledged),
    ...messageOf(response.message),
    newSeatBalance: toUnits(response.newSeatBalanceCents),
    newAccountBalance: toUnits(response.newAccountBalanceCents),
  };
}

export function toBetResponse(response: BetResponse): BetResponseBody {
  return {
    acknowledgement: acknowledgement(response.acknowledged),
    message: response.message,
    updatedSeatBalance: toUnits(response.updatedSeatBalanceCents),
  };
}

/** Leave always succeeds (it is idempotent: not seated returns 0), so a refusal breaks the contract. */
export function toLeaveResponse(response: LeaveResponse): LeaveResponseBody {
  if (!response.acknowledged) throw new ContractViolation("leave refused");
  return {
    acknowledgement: "ACK",
    creditsReturned: toUnits(response.creditsReturnedCents),
    newAccountBalance: toUnits(response.newAccountBalanceCents),
  };
}

/** The table's version of a state answered (GetState's, Advance's): 1 or more. */
export function toTableVersion(version: number): number {
  if (!Number.isSafeInteger(version) || version < 1) throw new ContractViolation(`table version ${version}`);
  return version;
}

export function toTableGameState(state: TableState | undefined): TableGameStateBody {
  if (!state) throw new ContractViolation("no table state");
  if (!isBoardSize(state.board.length)) throw new ContractViolation(`a board of ${state.board.length} cards`);
  const [flopCard1 = null, flopCard2 = null, flopCard3 = null, turnCard = null, riverCard = null] = state.board;
  return {
    tableId: state.tableId,
    gameId: state.gameId,
    gameState: oneOf(GAME_STATES, gameStateName(state.gameState), "game state"),
    bettingStage: bettingStage(state.bettingStage),
    bettingOpen: state.bettingOpen,
    numberOfHands: state.numberOfHands,
    numberOfSeats: state.numberOfSeats,
    jackpotValue: toUnits(state.jackpotCents),
    hands: state.hands.length > 0 ? state.hands : null,
    flopCard1,
    flopCard2,
    flopCard3,
    turnCard,
    riverCard,
    seats: state.seats.map((seat) => ({
      seatId: seat.seatId,
      playerId: seat.playerId,
      playerName: seat.playerName,
      seatBalance: toUnits(seat.seatBalanceCents),
      avatarImageUrl: seat.avatarImageUrl,
    })),
    bets: state.bets.map((bet) => ({
      playerId: bet.playerId,
      bettingStage: bettingStage(bet.bettingStage),
      seatIndex: bet.seatIndex,
      handIndex: bet.handIndex,
      betAmount: toUnits(bet.betAmountCents),
      recordedOdds: bet.recordedOddsTenths / 10,
    })),
    handOdds: state.handOdds.map(toHandOdds),
    // Empty on the wire means not (yet) shown.
    seedCommitment: state.seedCommitment ? requireSeedHex(state.seedCommitment, "seed commitment") : null,
    serverSeed: state.serverSeed ? requireSeedHex(state.serverSeed, "server seed") : null,
    clientSeed: clientSeedOrNull(state.clientSeed, "client seed"),
    targetRtp: targetRtpOrNull(state.targetRtp, "target RTP"),
  };
}
