// A finished game from the table service (GetGame, or ExportGames' messages) -> the JSON record of
// GET /api/tables/{tableId}/games/{gameId} and of each line of GET /api/admin/games: cents become units, tenths become odds, epoch milliseconds become RFC 3339 times, empty seeds null. A value
// the contract does not allow throws a ContractViolation.
import type { GameRecordBody } from "@pokerodds/api/game-records";
import { toSignedUnits, toUnits } from "@pokerodds/api/money";
import { ContractViolation } from "@pokerodds/api/violation";
import { playerIdProblem } from "@pokerodds/common/limits";
import {
  GameOutcome,
  PaidTo,
  type FinishedGame,
  type GameBet,
  type StageTimes,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { bettingStage, clientSeedOrNull, requireSeedHex, requireTargetRtp, toHandOdds } from "../odds/to-api.js";

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

/** The last instant a JavaScript date holds (and so RFC 3339 can be written for). */
const LATEST_MS = 8.64e15;

/** An instant the service reported, in epoch milliseconds; none is before 1970, beyond dates, or absent. */
function timeOf(ms: number, what: string): string {
  if (!Number.isSafeInteger(ms) || ms <= 0 || ms > LATEST_MS) throw new ContractViolation(`${what} at ${ms} ms`);
  return new Date(ms).toISOString();
}

/** Where the export resumes after this game: `after=<tableId>:<version>`. */
const formatCursor = (game: Pick<FinishedGame, "tableId" | "version">) => `${game.tableId}:${game.version}`;

/**
 * The betting stages: in order from the hole's (0), which every game reached, only the last one
 * still open (a void's). Their times are as the table stored them, in order while its replicas'
 * clocks agree within 5 s (MAX_CLOCK_LEAD_MS); clocks further apart can store a stage opened before
 * the one before it closed. The record then shows it and npm run verify reports it, rather than every
 * read of the game, and the export at it, failing for good. Whether the stages fit the board is
 * verify's check.
 */
function toStages(stages: readonly StageTimes[]): GameRecordBody["stages"] {
  if (stages.length === 0) throw new ContractViolation("a game without stages");
  return stages.map((stage, index) => {
    const { bettingStage, openedAtMs, closedAtMs } = stage;
    const open = closedAtMs === undefined;
    if (bettingStage !== index || index > 2 || (open && index !== stages.length - 1))
      throw new ContractViolation(`stages ${JSON.stringify(stages)}`);
    return {
      bettingStage: index as 0 | 1 | 2,
      openedAt: timeOf(openedAtMs, "a stage opened"),
      closedAt: open ? null : timeOf(closedAtMs, "a stage closed"),
    };
  });
}

/** A player id the contract allows, else a contract violation. */
function requireContractPlayerId(value: string, what: string): string {
  if (playerIdProblem(value) !== null) throw new ContractViolation(`${what} ${JSON.stringify(value)}`);
  return value;
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
    cursor: formatCursor(game),
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
    targetRtp: requireTargetRtp(game.targetRtp, `game ${game.gameId} target RTP`),
    dealtBy: requireContractPlayerId(game.dealtBy, `game ${game.gameId} dealer`),
    stages: toStages(game.stages),
    dealtAt: timeOf(game.dealtAtMs, "a deal"),
    firstBetAt: game.firstBetAtMs === 0 ? null : timeOf(game.firstBetAtMs, "a first bet"),
    finishedAt: timeOf(game.finishedAtMs, "a game finished"),
  };
}
