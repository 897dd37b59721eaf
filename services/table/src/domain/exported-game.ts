// A finished game as an external auditor reads it: the cards, the odds of every stage, each bet as
// placed and as it ended, the money, the times and the deck's seed. Everything comes from two
// snapshots of the table's history: the one whose change finished the game (its `finishedGame`)
// and the one that still shows the game's cards and bets. At the river they are the same snapshot;
// a void game's change already cleared the table, so its cards are in the version before it.

import { requireDeal } from "./stage-times.js";
import type { Bet, BetSettlement, Fairness, GameRecord, HandOdds, StageTimes, TableSnapshot } from "./types.js";

/** A bet as placed (its id aside: the export names the game and the player) and what became of it. */
export interface ExportedBet extends Omit<Bet, "betId"> {
  /** Paid (settled game) or refunded (void game); 0 for a losing bet. */
  readonly returnedCents: number;
  readonly paidTo: BetSettlement["paidTo"];
}

export interface ExportedGame {
  readonly tableId: number;
  /** The version whose change finished the game: with tableId, the export's resume point. */
  readonly version: number;
  readonly gameId: string;
  readonly outcome: GameRecord["outcome"];
  readonly numberOfHands: number;
  readonly hands: readonly string[];
  readonly board: readonly string[];
  readonly handOdds: readonly HandOdds[];
  readonly winningHands: readonly number[];
  readonly bets: readonly ExportedBet[];
  readonly stakesCents: number;
  readonly payoutsCents: number;
  readonly refundsCents: number;
  readonly houseResultCents: number;
  readonly roundingRemainder: GameRecord["roundingRemainder"];
  readonly fairness: Fairness;
  /** What every stage was priced at. */
  readonly targetRtp: number;
  /** When each betting stage the game reached took bets (a stage still open at a void: closedAt null). */
  readonly stages: readonly StageTimes[];
  /** Who dealt it. */
  readonly dealtBy: string;
  readonly dealtAt: number;
  /** Null when nobody bet. */
  readonly firstBetAt: number | null;
  readonly finishedAt: number;
}

/** The snapshot that shows the finished game's cards: the finishing one at the river, the one before a void. */
export const holdsCardsOf = (finishing: TableSnapshot): "this" | "previous" =>
  finishing.finishedGame !== null && finishing.gameId === finishing.finishedGame.gameId ? "this" : "previous";

/**
 * The record of the game `finishing` finished. `played` is the snapshot holding its cards and bets
 * (see holdsCardsOf). A RangeError when
 * the two snapshots do not describe the same game: a broken history, never a client's mistake.
 */
export function exportedGame(finishing: TableSnapshot, played: TableSnapshot): ExportedGame {
  const record = finishing.finishedGame;
  const where = `table ${finishing.tableId} version ${finishing.version}`;
  if (!record) throw new RangeError(`${where} finished no game`);
  if (played.tableId !== finishing.tableId || played.gameId !== record.gameId || !played.hands || !played.fairness) {
    throw new RangeError(`${where}: version ${played.version} does not show game ${record.gameId}`);
  }
  if (played.bets.length !== record.bets.length) {
    throw new RangeError(`${where}: ${record.bets.length} settlements for ${played.bets.length} bets`);
  }
  const deal = requireDeal(played);
  const bets = played.bets.map((bet, i): ExportedBet => {
    const settlement = record.bets[i]!;
    if (settlement.betId !== bet.betId) throw new RangeError(`${where}: bet ${bet.betId} settled out of order`);
    return {
      playerId: bet.playerId,
      seatId: bet.seatId,
      handIndex: bet.handIndex,
      bettingStage: bet.bettingStage,
      betAmountCents: bet.betAmountCents,
      oddsTenths: bet.oddsTenths,
      placedAt: bet.placedAt,
      returnedCents: settlement.returnedCents,
      paidTo: settlement.paidTo,
    };
  });
  return {
    tableId: finishing.tableId,
    version: finishing.version,
    gameId: record.gameId,
    outcome: record.outcome,
    numberOfHands: played.config.numberOfHands,
    hands: [...played.hands],
    board: [...played.board],
    handOdds: played.handOdds.map((panel) => ({ ...panel })),
    winningHands: [...record.winningHands],
    bets,
    stakesCents: record.stakesCents,
    payoutsCents: record.payoutsCents,
    refundsCents: record.refundsCents,
    houseResultCents: record.houseResultCents,
    roundingRemainder: { ...record.roundingRemainder },
    fairness: { ...played.fairness },
    targetRtp: deal.targetRtp,
    stages: deal.stages.map((stage) => ({ ...stage })),
    dealtBy: deal.dealtBy,
    // The deal opened its first stage, in the version that dealt the hole cards.
    dealtAt: deal.stages[0]!.openedAt,
    firstBetAt: bets.reduce<number | null>(
      (first, b) => (first === null ? b.placedAt : Math.min(first, b.placedAt)),
      null,
    ),
    finishedAt: record.finishedAt,
  };
}
