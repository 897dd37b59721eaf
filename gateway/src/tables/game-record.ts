// A finished game from the table service (GetGame, or ExportGames' messages) -> the JSON record of
// GET /api/tables/{tableId}/games/{gameId} and of each line of GET /api/admin/games: cents become units, tenths become odds, epoch milliseconds become RFC 3339 times, empty seeds null. A value
// the contract does not allow throws a ContractViolation.
import type { GameRecordBody } from "@pokerodds/api/game-records";
import { toSignedUnits, toUnits } from "@pokerodds/api/money";
import { ContractViolation } from "@pokerodds/api/violation";
import {
  GameOutcome,
  PaidTo,
  type FinishedGame,
  type GameBet,
  type StageTimes,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { bettingStage, clientSeedOrNull, requireSeedHex, targetRtpOrNull, toHandOdds } from "../odds/to-api.js";

const OUTCOMES = new Map<GameOutcome, GameRecordBody["outcome"]>([
  [GameOutcome.GAME_OUTCOME_SETTLED, "SETTLED"],
  [GameOutcome.GAME_OUTCOME_VOID, "VOID"],
]);

const PAID_TO = new Map<PaidTo, GameRecordBody["bets"][number]["paidTo"]>([
  [PaidTo.PAID_TO_NONE, "NONE"],
  [PaidTo.PAID_TO_SEAT, "SEAT"],
  [PaidTo.PAID_TO_ACCOUNT, "ACCOUNT"],
]);

function known<K, V>(names: Map<K, V>, value: K, what: string): V {
  const name = names.get(value);
  if (name === undefined) throw new ContractViolation(`${what} ${String(value)}`);
  return name;
}

/** An instant the service reported, in epoch milliseconds; none is before 1970 or absent. */
function timeOf(ms: number, what: string): string {
  if (!Number.isSafeInteger(ms) || ms <= 0) throw new ContractViolation(`${what} at ${ms} ms`);
  return new Date(ms).toISOString();
}

/** Where the export resumes after this game: `after=<tableId>:<version>`. */
const cursorOf = (game: Pick<FinishedGame, "tableId" | "version">) => `${game.tableId}:${game.version}`;

/** A betting stage's times, the stages in order from the hole's (0). */
function toStage(stage: StageTimes, index: number): GameRecordBody["stages"][number] {
  if (stage.bettingStage !== index || index > 2) throw new ContractViolation(`stage ${stage.bettingStage} at ${index}`);
  return {
    bettingStage: index as 0 | 1 | 2,
    openedAt: timeOf(stage.openedAtMs, "a stage opened"),
    closedAt: stage.closedAtMs === undefined ? null : timeOf(stage.closedAtMs, "a stage closed"),
  };
}

function toBet(bet: GameBet): GameRecordBody["bets"][number] {
  return {
    playerId: bet.playerId,
    seatIndex: bet.seatId,
    handIndex: bet.handIndex,
    bettingStage: bettingStage(bet.bettingStage),
    betAmount: toUnits(bet.betAmountCents),
    recordedOdds: bet.recordedOddsTenths / 10,
    placedAt: timeOf(bet.placedAtMs, "a bet placed"),
    returned: toUnits(bet.returnedCents),
    paidTo: known(PAID_TO, bet.paidTo, "paid to"),
  };
}

export function toGameRecord(game: FinishedGame | undefined): GameRecordBody {
  if (!game) throw new ContractViolation("an answer without its game");
  if (game.board.length > 5) throw new ContractViolation(`a board of ${game.board.length} cards`);
  return {
    tableId: game.tableId,
    gameId: game.gameId,
    version: game.version,
    cursor: cursorOf(game),
    outcome: known(OUTCOMES, game.outcome, "game outcome"),
    numberOfHands: game.numberOfHands,
    hands: game.hands,
    board: game.board,
    handOdds: game.handOdds.map(toHandOdds),
    winningHands: game.winningHands,
    bets: game.bets.map(toBet),
    stakes: toUnits(game.stakesCents),
    payouts: toUnits(game.payoutsCents),
    refunds: toUnits(game.refundsCents),
    houseResult: toSignedUnits(game.houseResultCents),
    roundingRemainderCents: { numerator: game.roundingNumerator, denominator: game.roundingDenominator },
    seedCommitment: requireSeedHex(game.seedCommitment, `game ${game.gameId} commitment`),
    serverSeed: requireSeedHex(game.serverSeed, `game ${game.gameId} seed`),
    clientSeed: clientSeedOrNull(game.clientSeed, `game ${game.gameId} client seed`),
    targetRtp: targetRtpOrNull(game.targetRtp, `game ${game.gameId} target RTP`),
    dealtBy: game.dealtBy === "" ? null : game.dealtBy,
    stages: game.stages.map(toStage),
    dealtAt: timeOf(game.dealtAtMs, "a deal"),
    firstBetAt: game.firstBetAtMs === 0 ? null : timeOf(game.firstBetAtMs, "a first bet"),
    finishedAt: timeOf(game.finishedAtMs, "a game finished"),
  };
}
