// Translation between the wire (ts-proto messages and enums) and the service, in both directions.
import { InvalidArgumentError } from "@pokerodds/common";
import {
  GameOutcome,
  GameState as ProtoGameState,
  PaidTo,
  TransferKind as ProtoTransferKind,
  type AdvanceFrom as ProtoAdvanceFrom,
  type AuditResponse,
  type BetAt as ProtoBetAt,
  type Caller as ProtoCaller,
  type ExportGamesRequest,
  type FinishedGame,
  type TableMoney as ProtoTableMoney,
  type TableState,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { Role } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { handOddsToProto } from "@pokerodds/common/hand-odds";
import type { AuditReport } from "./audit.js";
import type {
  AdvanceFrom,
  BetAt,
  Caller,
  ExportedBet,
  ExportedGame,
  GameState,
  PublicTableState,
  TableMoney,
} from "./domain/index.js";
import type { ExportFilter } from "./game-export.js";
import { INT32_MAX, requireClientSeed, requireGameId, requirePlayerId } from "@pokerodds/common/limits";
import { CREDIT_REASON } from "./outbox.js";
import type { TransferKind } from "./transfer-store.js";

/** The acting player as the gateway verified it; ADMIN is the only role the table distinguishes. */
export function callerFromProto(caller: ProtoCaller | undefined): Caller {
  if (!caller || typeof caller.playerId !== "string" || caller.playerId.length === 0) {
    throw new InvalidArgumentError("caller.player_id is required");
  }
  return { playerId: requirePlayerId("caller.player_id", caller.playerId), isAdmin: caller.role === Role.ROLE_ADMIN };
}

const GAME_STATE: Record<GameState, ProtoGameState> = {
  STATUS_SETUP: ProtoGameState.GAME_STATE_STATUS_SETUP,
  STATUS_START: ProtoGameState.GAME_STATE_STATUS_START,
  STATUS_HOLE: ProtoGameState.GAME_STATE_STATUS_HOLE,
  STATUS_FLOP: ProtoGameState.GAME_STATE_STATUS_FLOP,
  STATUS_TURN: ProtoGameState.GAME_STATE_STATUS_TURN,
  STATUS_RIVER: ProtoGameState.GAME_STATE_STATUS_RIVER,
};

const GAME_STATE_OF = new Map(Object.entries(GAME_STATE).map(([state, proto]) => [proto, state as GameState]));

/** The state an advance names to move on from, if it names one. */
export function advanceFromProto(from: ProtoAdvanceFrom | undefined): AdvanceFrom | undefined {
  if (!from) return undefined;
  const gameState = GAME_STATE_OF.get(from.gameState);
  if (!gameState) throw new InvalidArgumentError("from.game_state must be a state a table is in");
  return { gameId: requireGameId("from.game_id", from.gameId), gameState };
}

/** The client seed an advance names, if it names one. */
export function clientSeedFromProto(clientSeed: string | undefined): string | undefined {
  return clientSeed === undefined ? undefined : requireClientSeed("client_seed", clientSeed);
}

/** The game and stage a bet names, if it names one (the domain checks the stage). */
export function betAtFromProto(at: ProtoBetAt | undefined): BetAt | undefined {
  if (!at) return undefined;
  return { gameId: requireGameId("at.game_id", at.gameId), bettingStage: at.bettingStage };
}

const TRANSFER_KIND: Record<TransferKind, ProtoTransferKind> = {
  sit: ProtoTransferKind.TRANSFER_KIND_SIT,
  topup: ProtoTransferKind.TRANSFER_KIND_TOP_UP,
  leave: ProtoTransferKind.TRANSFER_KIND_LEAVE,
};

// A field-by-field copy, like every proto mapping (e.g. common/hand-odds.ts): alike in shape by nature.
export function tableStateToProto(state: PublicTableState): TableState {
  return {
    tableId: state.tableId,
    gameId: state.gameId,
    gameState: GAME_STATE[state.gameState],
    bettingStage: state.bettingStage,
    bettingOpen: state.bettingOpen,
    numberOfHands: state.numberOfHands,
    numberOfSeats: state.numberOfSeats,
    jackpotCents: state.jackpotCents,
    hands: state.hands ?? [],
    board: state.board,
    seats: state.seats.map((s) => ({ ...s })),
    bets: state.bets.map((b) => ({ ...b })),
    handOdds: state.handOdds.map(handOddsToProto),
    seedCommitment: state.seedCommitment ?? "",
    serverSeed: state.serverSeed ?? "",
    clientSeed: state.clientSeed ?? "",
    targetRtp: state.targetRtp ?? undefined,
  };
}

const moneyToProto = (m: TableMoney): ProtoTableMoney => ({
  seatsCents: m.seatsCents,
  openStakesCents: m.openStakesCents,
  outboxCents: m.outboxCents,
  deliveredCents: m.deliveredCents,
  houseResultCents: m.houseResultCents,
  creditedCents: m.creditedCents,
});

export function auditToProto(report: AuditReport): AuditResponse {
  return {
    tables: report.tables.map((t) => ({
      tableId: t.tableId,
      version: t.version,
      gameId: t.gameId,
      gameState: GAME_STATE[t.gameState],
      money: moneyToProto(t.money),
      pendingCredits: t.pendingCredits.map((c) => ({
        key: c.key,
        playerId: c.playerId,
        amountCents: c.amountCents,
        reason: CREDIT_REASON[c.reason],
        reference: c.reference,
      })),
      conserved: t.conserved,
      negativeSeats: t.negativeSeats,
    })),
    totals: moneyToProto(report.totals),
    openTransfers: report.openTransfers.map((c) => ({
      transferId: c._id,
      kind: TRANSFER_KIND[c.kind],
      playerId: c.playerId,
      tableId: c.tableId,
      amountCents: c.amountCents,
      createdAt: c.createdAt.toISOString(),
    })),
    games: report.games,
    conserved: report.conserved,
  };
}

function timeBound(name: string, ms: number | undefined): number | null {
  if (ms === undefined) return null;
  if (!Number.isSafeInteger(ms)) throw new InvalidArgumentError(`${name} must be a time in epoch milliseconds`);
  return ms;
}

/** ExportGames's filter: 0 and absent fields mean no filter; anything else must name a table, a time or a game. */
export function exportFilterFromProto(request: ExportGamesRequest): ExportFilter {
  const { tableId, afterTableId, afterVersion } = request;
  if (!Number.isInteger(tableId) || tableId < 0 || tableId > INT32_MAX) {
    throw new InvalidArgumentError("table_id must be a table id, or 0 for every table");
  }
  const noCursor = afterTableId === 0 && afterVersion === 0;
  if (
    !noCursor &&
    !(afterTableId >= 1 && afterTableId <= INT32_MAX && Number.isSafeInteger(afterVersion) && afterVersion >= 0)
  ) {
    throw new InvalidArgumentError("after_table_id and after_version must name a game received, or both be 0");
  }
  return {
    tableId: tableId === 0 ? null : tableId,
    finishedAfter: timeBound("finished_after_ms", request.finishedAfterMs),
    finishedBefore: timeBound("finished_before_ms", request.finishedBeforeMs),
    after: noCursor ? null : { tableId: afterTableId, version: afterVersion },
  };
}

const OUTCOME: Record<ExportedGame["outcome"], GameOutcome> = {
  SETTLED: GameOutcome.GAME_OUTCOME_SETTLED,
  VOID: GameOutcome.GAME_OUTCOME_VOID,
};

const PAID_TO: Record<ExportedBet["paidTo"], PaidTo> = {
  NONE: PaidTo.PAID_TO_NONE,
  SEAT: PaidTo.PAID_TO_SEAT,
  ACCOUNT: PaidTo.PAID_TO_ACCOUNT,
};

export function finishedGameToProto(game: ExportedGame): FinishedGame {
  return {
    tableId: game.tableId,
    version: game.version,
    gameId: game.gameId,
    outcome: OUTCOME[game.outcome],
    numberOfHands: game.numberOfHands,
    hands: [...game.hands],
    board: [...game.board],
    handOdds: game.handOdds.map(handOddsToProto),
    winningHands: [...game.winningHands],
    bets: game.bets.map((bet) => ({
      playerId: bet.playerId,
      seatId: bet.seatId,
      handIndex: bet.handIndex,
      bettingStage: bet.bettingStage,
      betAmountCents: bet.betAmountCents,
      recordedOddsTenths: bet.oddsTenths,
      placedAtMs: bet.placedAt,
      returnedCents: bet.returnedCents,
      paidTo: PAID_TO[bet.paidTo],
    })),
    stakesCents: game.stakesCents,
    payoutsCents: game.payoutsCents,
    refundsCents: game.refundsCents,
    houseResultCents: game.houseResultCents,
    roundingNumerator: game.roundingRemainder.numerator,
    roundingDenominator: game.roundingRemainder.denominator,
    seedCommitment: game.fairness.seedCommitment,
    serverSeed: game.fairness.serverSeed,
    clientSeed: game.fairness.clientSeed ?? "",
    dealtAtMs: game.dealtAt,
    firstBetAtMs: game.firstBetAt ?? 0,
    finishedAtMs: game.finishedAt,
    targetRtp: game.targetRtp,
    dealtBy: game.dealtBy,
    stages: game.stages.map((stage) => ({
      bettingStage: stage.bettingStage,
      openedAtMs: stage.openedAt,
      closedAtMs: stage.closedAt ?? undefined,
    })),
  };
}
