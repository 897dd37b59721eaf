// Proto messages from the odds service -> the public JSON of the spec. A value the contract does not
// allow (an unspecified enum, a short board) throws a ContractViolation.
import { type BettingStage, type HandOddsBody } from "@pokerodds/api/cards";
import { handStatusFromProto, type HandStatus as DomainHandStatus } from "@pokerodds/common/hand-odds";
import type { BulkGameState, BulkResponseBody, DealResultBody } from "@pokerodds/api/odds";
import { ContractViolation } from "@pokerodds/api/violation";
import {
  type BulkGame,
  type BulkHandStageInfo,
  type DealResponse,
  type GenerateBulkResponse,
  type HandOdds as HandOddsMessage,
  type HandStatus,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import type { Static } from "@sinclair/typebox";
import { CLIENT_SEED_PATTERN, isTargetRtp, SEED_HEX } from "@pokerodds/common/limits";

export function toDealResult(response: DealResponse): DealResultBody {
  return {
    hands: response.hands,
    handOdds: response.handOdds.map(toHandOdds),
    remainingDeck: response.remainingDeck,
    gameId: response.gameId,
    serverSeed: requireSeedHex(response.serverSeed, "deal seed"),
    seedCommitment: requireSeedHex(response.seedCommitment, "deal commitment"),
  };
}

/**
 * The public JSON of a bulk batch, built as the odds service streams it: each game is mapped and
 * serialized when its piece arrives, so no step handles the whole batch (~1.3 MB for 200 x 4) at
 * once on the event loop, where it would hold up every other player's request. Throws the
 * stream's error, or a ContractViolation for a batch that is short, long or never completed.
 */
export async function bulkResponseJson(
  pieces: AsyncIterable<GenerateBulkResponse>,
  request: { numberOfGames: number; numberOfHands: number; targetRtp: number },
): Promise<string> {
  const games: string[] = [];
  let generatedAt = "";
  for await (const piece of pieces) {
    for (const game of piece.games) {
      // Refused as it streams (leaving the loop cancels the call): an odds service that sent on
      // past the batch asked for, broken or hostile, would otherwise fill this process's memory.
      if (games.length === request.numberOfGames) {
        throw new ContractViolation(`a bulk batch of more than the ${request.numberOfGames} games asked for`);
      }
      games.push(JSON.stringify(toBulkGame(game)));
    }
    generatedAt = piece.generatedAt;
  }
  if (generatedAt === "" || games.length !== request.numberOfGames) {
    throw new ContractViolation(`a bulk batch of ${games.length} of ${request.numberOfGames} games, not completed`);
  }
  const rest: Omit<BulkResponseBody, "games"> = {
    numberOfGames: games.length,
    numberOfHands: request.numberOfHands,
    targetRtp: request.targetRtp,
    generatedAt,
  };
  // What JSON.stringify gives for the whole body: "games" first, then the rest.
  return `{"games":[${games.join(",")}],${JSON.stringify(rest).slice(1)}`;
}

function toBulkGame(game: BulkGame): Static<typeof BulkGameState> {
  const [bc1, bc2, bc3, bc4, bc5, ...extra] = game.board;
  if (
    bc1 === undefined ||
    bc2 === undefined ||
    bc3 === undefined ||
    bc4 === undefined ||
    bc5 === undefined ||
    extra.length > 0
  ) {
    throw new ContractViolation(`game ${game.gameId} has a board of ${game.board.length} cards`);
  }
  return {
    gameId: game.gameId,
    numberOfHands: game.hands.length,
    numberOfBettingStages: 3,
    hands: game.hands,
    bc1,
    bc2,
    bc3,
    bc4,
    bc5,
    handStageInfoList: game.handStageInfoList.map(toHandStageInfo),
    serverSeed: requireSeedHex(game.serverSeed, `game ${game.gameId} seed`),
    seedCommitment: requireSeedHex(game.seedCommitment, `game ${game.gameId} commitment`),
  };
}

function toHandStageInfo(info: BulkHandStageInfo) {
  return {
    handIndex: info.handIndex,
    bettingStage: bettingStage(info.bettingStage),
    percentWin: info.percentWin,
    percentDraw: info.percentDraw,
    percentWinOrDraw: info.percentWinOrDraw,
    oddsActual: info.oddsActual,
    oddsMargin: info.oddsMargin,
    oddsRounded: info.oddsRounded,
    actualRtp: info.actualRtp,
    roundingRake: info.roundingRake,
    statusIsWinner: info.statusIsWinner,
    statusCantLose: info.statusCantLose,
    statusIsFavourite: info.statusIsFavourite,
    statusBestRtp: info.statusBestRtp,
    bestFiveCards: info.bestFiveCards ?? null,
    handDescShort: info.handDescShort ?? null,
    handDescLong: info.handDescLong ?? null,
  };
}

const BETTING_STAGES = new Set([-1, 0, 1, 2]);

export function bettingStage(value: number): Static<typeof BettingStage> {
  if (!BETTING_STAGES.has(value)) throw new ContractViolation(`betting stage ${value}`);
  return value as Static<typeof BettingStage>;
}

/** A hand's odds panel, shared with the tables feature (the state carries the same panels). */
export function toHandOdds(odds: HandOddsMessage): HandOddsBody {
  return {
    handIndex: odds.handIndex,
    bettingStage: bettingStage(odds.bettingStage),
    handStatus: handStatusName(odds.handStatus),
    winPercentage: odds.winPercentage,
    drawPercentage: odds.drawPercentage,
    odds: odds.oddsTenths / 10,
  };
}

function handStatusName(status: HandStatus): DomainHandStatus {
  const name = handStatusFromProto(status);
  if (!name) throw new ContractViolation(`hand status ${status}`);
  return name;
}

/** A seed or commitment as the contract shows it (docs/provably-fair.md), else a contract violation. */
export function requireSeedHex(value: string, what: string): string {
  if (!SEED_HEX.test(value)) throw new ContractViolation(`${what} ${JSON.stringify(value)}`);
  return value;
}

/** A target return to player as the contract shows it, else a contract violation. */
export function requireTargetRtp(value: number, what: string): number {
  if (!isTargetRtp(value)) throw new ContractViolation(`${what} ${value}`);
  return value;
}

/** A target return to player as the contract shows it: unset on the wire is none (null). */
export const targetRtpOrNull = (value: number | undefined, what: string): number | null =>
  value === undefined ? null : requireTargetRtp(value, what);

/** A client seed as the contract shows it: empty on the wire is none (null). */
export function clientSeedOrNull(value: string, what: string): string | null {
  if (value === "") return null;
  if (!CLIENT_SEED_PATTERN.test(value)) throw new ContractViolation(`${what} ${JSON.stringify(value)}`);
  return value;
}
