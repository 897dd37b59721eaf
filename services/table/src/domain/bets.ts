// Placing a bet: stake moves from the seat into the game at the odds displayed for that hand now.

import { ConflictError, IdempotencyMismatchError, InvalidArgumentError } from "@pokerodds/common/errors";
import { MAX_BETS_PER_SEAT_PER_GAME, MAX_HANDS_PER_GAME, requireAmountCents } from "@pokerodds/common/limits";
import { TABLE_REFUSALS, type TableRefusal } from "@pokerodds/common/table-refusals";
import { sumCents } from "./money.js";
import { payoutOf } from "@pokerodds/common/payout";
import { parseCard, parseHand } from "@pokerodds/common/poker/cards";
import { exactWinnerSets } from "@pokerodds/common/poker/equity-exact";
import {
  MAX_GAME_PAYOUT_CENTS,
  betsFromSeat,
  bettingStageOf,
  findSeat,
  refusalVersion,
  requireSeat,
  sealNext,
} from "./snapshot.js";
import type { Bet, GameState, Outcome, TableSnapshot } from "./types.js";

const STAGE_NAMES = ["hole", "flop", "turn"] as const;

const isBettingStageNumber = (stage: number): boolean =>
  Number.isInteger(stage) && stage >= 0 && stage < STAGE_NAMES.length;

/**
 * An accepted bet's message says what was recorded: a bet that names no stage (`at`) takes the odds of
 * the stage open when it arrives, which another player's advance may have moved on since this player
 * read them.
 */
export function betPlacedMessage(bet: Bet): string {
  return `bet placed: handIndex ${bet.handIndex} at odds ${(bet.oddsTenths / 10).toFixed(1)} (${STAGE_NAMES[bet.bettingStage]})`;
}

export interface BetCommand {
  playerId: string;
  /** The seatId the caller claims to bet from. */
  seatIndex: number;
  handIndex: number;
  betAmountCents: number;
  /** Unique per bet request; a replay answers the recorded bet. */
  betId: string;
  /** The game and betting stage whose odds the caller saw: the bet is placed only there, if named. */
  at?: BetAt;
}

export interface BetAt {
  gameId: string;
  bettingStage: number;
}

type BetResult =
  | { acknowledged: true; bet: Bet; seatBalanceCents: number }
  | { acknowledged: false; message: TableRefusal; seatBalanceCents: number };

const sameBet = (bet: Bet, c: BetCommand): boolean =>
  bet.playerId === c.playerId &&
  bet.seatId === c.seatIndex &&
  bet.handIndex === c.handIndex &&
  bet.betAmountCents === c.betAmountCents;

/**
 * A bet named for the odds of one game's stage is placed there only: once another player has moved
 * the table on, the same hand index holds other odds (or another game's cards); before the stage is
 * reached, they are not yet known.
 */
function requireStillAt(snapshot: TableSnapshot, stage: number, at: BetAt): void {
  if (at.gameId === snapshot.gameId && at.bettingStage === stage) return;
  const seen = `the ${STAGE_NAMES[at.bettingStage]} of game ${at.gameId}`;
  const now = `${TABLE_AT[snapshot.gameState]} of game ${snapshot.gameId}`;
  if (at.gameId === snapshot.gameId && snapshot.gameState !== "STATUS_RIVER" && at.bettingStage > stage) {
    throw new ConflictError(`the table is at ${now}, not yet at ${seen} that this bet names: no bet placed`);
  }
  throw new ConflictError(
    `the table moved on to ${now} before this bet at ${seen}: no bet placed (its odds are gone); ${whatNow(snapshot, stage)}`,
  );
}

/** What a player whose bet came too late can do now: bet at the odds shown, or wait for them. */
function whatNow(snapshot: TableSnapshot, stage: number): string {
  if (snapshot.gameState === "STATUS_RIVER") return "this game takes no more bets";
  if (stage === -1) return "bets open again once the next game is dealt";
  if (snapshot.bettingClosed) return "bets open again once the next cards are shown";
  return "see the new odds";
}

/** Where a table is, in a player's words (its state's name is the API's, not a sentence's). */
const TABLE_AT: Record<GameState, string> = {
  // After a river the table holds the next game, not yet dealt.
  STATUS_SETUP: "the start",
  STATUS_START: "the start",
  STATUS_HOLE: "the hole",
  STATUS_FLOP: "the flop",
  STATUS_TURN: "the turn",
  STATUS_RIVER: "the river",
};

/**
 * A game's bets are bounded by seat (decisions.md): a seat takes MAX_BETS_PER_SEAT_PER_GAME in one
 * game, counting the bets of players who sat in it earlier in the game (their bets stay in play). So a
 * game's bets are bounded however many come and go, and no one's bets use up another occupied seat's
 * room; a newcomer gets the free seat with the most room (seats.ts).
 */
function requireRoomForBet(snapshot: TableSnapshot, seatId: number): void {
  if (betsFromSeat(snapshot, seatId) >= MAX_BETS_PER_SEAT_PER_GAME) {
    throw new ConflictError(
      `at most ${MAX_BETS_PER_SEAT_PER_GAME} bets from one seat in one game: seat ${seatId} has them all, with those of anyone who sat there earlier in this game`,
    );
  }
}

/** What a bet would pay if its hand won alone, in tenths of a cent: BigInt, as it can pass 2^53. */
const payoutTenths = (betAmountCents: number, oddsTenths: number): bigint =>
  BigInt(betAmountCents) * BigInt(oddsTenths);

/**
 * A bet's payout stays within the table's limit per bet, and the payouts of all the game's bets
 * together (whichever hands win; a tie pays less) within MAX_GAME_PAYOUT_CENTS.
 */
function requirePayoutLimits(snapshot: TableSnapshot, betAmountCents: number, oddsTenths: number): void {
  const tenths = payoutTenths(betAmountCents, oddsTenths);
  if (tenths >= 10n * BigInt(snapshot.config.maxPayoutCents + 1)) {
    throw new ConflictError("the bet's payout would exceed the table's maximum payout");
  }
  const game = snapshot.bets.reduce((sum, b) => sum + payoutTenths(b.betAmountCents, b.oddsTenths), tenths);
  if (game >= 10n * BigInt(MAX_GAME_PAYOUT_CENTS + 1)) {
    throw new ConflictError("this game's bets could pay no more: the table's maximum payout for one game is reached");
  }
}

export const RISKLESS_BETS =
  "these bets would pay you back at least their stakes whichever hand wins, and more when some win: the house takes no set of bets at one stage that cannot lose";

/**
 * The house takes no set of one player's bets at one stage that cannot lose. Odds are the nearest
 * tenth of RTP / share (decisions.md), and rounding a heavy favourite up can leave a stage's prices
 * summing (as 1 / odds) below 1: about one flop in a hundred with four hands. There a player staking
 * on every hand that can still win, in proportion to 1 / odds, is paid back at least the stakes
 * whichever hand wins, and more when some win; the bet that would complete such a set is refused (a
 * set paying exactly its stakes whatever wins is a player's own business). The outcomes counted are
 * the solo wins of the hands that can win alone (decisions.md: "whichever hand wins alone"). A tie
 * pays the tied hands' payouts shared: among hands the set covers, about their mean, never less than
 * the least of them but for a cent's rounding; with a hand that can win alone and is not covered,
 * the set can already lose. A hand that can only tie takes no bets, and its ties are what the
 * panels do not say: which hands it ties with is read off the cards (tieOnlyTieLoses).
 */
function requireCanLose(snapshot: TableSnapshot, stage: number, bet: Bet): void {
  const mine = [...snapshot.bets.filter((b) => b.playerId === bet.playerId && b.bettingStage === stage), bet];
  const staked = sumCents(mine.map((b) => b.betAmountCents));
  const panels = snapshot.handOdds.filter((p) => p.bettingStage === stage);
  const paid = panels.filter((p) => p.winPercentage > 0).map((p) => paidIf(mine, [p.handIndex]));
  if (!(Math.min(...paid) >= staked && Math.max(...paid) > staked)) return;
  const tieOnly = panels.filter((p) => p.winPercentage === 0 && p.drawPercentage > 0).map((p) => p.handIndex);
  if (tieOnly.length > 0 && tieOnlyTieLoses(snapshot, mine, staked, tieOnly)) return;
  throw new ConflictError(RISKLESS_BETS);
}

/** What `bets` pay back if exactly `winners` win (a tie pays each tied hand's bets 1 / k). */
const paidIf = (bets: readonly Bet[], winners: readonly number[]): number =>
  sumCents(
    bets
      .filter((b) => winners.includes(b.handIndex))
      .map((b) => payoutOf(b.betAmountCents, b.oddsTenths, winners.length).payoutCents),
  );

/**
 * Whether some tie of a hand that can only tie pays `bets` back less than `staked`, over every way
 * the rest of the board can fall (exactWinnerSets; counted only here, rarely: a set whose every solo
 * win pays its stakes back, beside such a hand). A tie-only hand tying with a long shot the set covers
 * pays it back about half that hand's payout, which may still be more than the stakes.
 */
function tieOnlyTieLoses(snapshot: TableSnapshot, bets: readonly Bet[], staked: number, tieOnly: readonly number[]) {
  const hands = (snapshot.hands ?? []).map(parseHand);
  const winnerSets = exactWinnerSets(hands, snapshot.board.map(parseCard));
  return winnerSets.some((winners) => winners.some((h) => tieOnly.includes(h)) && paidIf(bets, winners) < staked);
}

/**
 * Refusals in order: malformed input (400, but a hand index past this table's hands: 409); a
 * replayed betId answers the recorded bet; the table moved on from the stage the bet names, no
 * betting stage open (or its betting closed for a reveal), caller not seated, another seat, the
 * seat's bets in this game at their limit, a hand that cannot win, a payout over the table's limit
 * for a bet or for the game, a set of bets at this stage that cannot lose (409); then a NACK when
 * the seat balance is short.
 */
export function applyBet(snapshot: TableSnapshot, command: BetCommand, now: number): Outcome<BetResult> {
  const { playerId, seatIndex, handIndex, betAmountCents, betId } = command;
  if (typeof playerId !== "string" || playerId.length === 0) throw new InvalidArgumentError("playerId is required");
  if (typeof betId !== "string" || betId.length === 0) throw new InvalidArgumentError("betId is required");
  if (!Number.isSafeInteger(seatIndex)) throw new InvalidArgumentError("seatIndex must be an integer");
  if (!Number.isInteger(handIndex) || handIndex < 0 || handIndex >= MAX_HANDS_PER_GAME) {
    throw new InvalidArgumentError(`handIndex must be an integer from 0 to ${MAX_HANDS_PER_GAME - 1}`);
  }
  // A hand index any game may have, but this table's games have fewer: the table's state, a 409.
  const hands = snapshot.config.numberOfHands;
  if (handIndex >= hands) throw new ConflictError(`this table's games have ${hands} hands (0 to ${hands - 1})`);
  requireAmountCents("betAmountCents", betAmountCents);
  if (command.at && !isBettingStageNumber(command.at.bettingStage)) {
    throw new InvalidArgumentError("at.bettingStage must be one of 0, 1, 2");
  }

  const recorded = snapshot.bets.find((b) => b.betId === betId);
  if (recorded) {
    if (!sameBet(recorded, command)) throw new IdempotencyMismatchError();
    const seatBalanceCents = findSeat(snapshot, playerId)?.balanceCents ?? 0;
    return { next: null, result: { acknowledged: true, bet: recorded, seatBalanceCents } };
  }

  const stage = bettingStageOf(snapshot.gameState);
  if (command.at) requireStillAt(snapshot, stage, command.at);
  if (stage === -1) throw new ConflictError("bets are accepted only while a betting stage is open");
  if (snapshot.bettingClosed)
    throw new ConflictError(
      "bet not placed: betting at this stage has closed, as an advance is revealing the next cards",
    );
  const seat = requireSeat(snapshot, playerId);
  if (seat.seatId !== seatIndex) throw new ConflictError("a bet must be placed from the caller's own seat");
  requireRoomForBet(snapshot, seat.seatId);
  const panel = snapshot.handOdds.find((p) => p.bettingStage === stage && p.handIndex === handIndex);
  if (!panel) throw new Error(`no stage ${stage} panel for hand ${handIndex}`);
  if (panel.winPercentage === 0 || panel.oddsTenths === 0) throw new ConflictError("this hand cannot win: no bets");
  requirePayoutLimits(snapshot, betAmountCents, panel.oddsTenths);
  const bet: Bet = {
    betId,
    playerId,
    seatId: seat.seatId,
    handIndex,
    bettingStage: stage,
    betAmountCents,
    oddsTenths: panel.oddsTenths,
    placedAt: now,
  };
  requireCanLose(snapshot, stage, bet);
  if (seat.balanceCents < betAmountCents) {
    return {
      next: null,
      result: {
        acknowledged: false,
        message: TABLE_REFUSALS.insufficientSeatBalance,
        seatBalanceCents: seat.balanceCents,
      },
    };
  }

  const seatBalanceCents = seat.balanceCents - betAmountCents;
  const next = sealNext(
    snapshot,
    {
      seats: snapshot.seats.map((s) => (s === seat ? { ...s, balanceCents: seatBalanceCents } : s)),
      bets: [...snapshot.bets, bet],
    },
    now,
  );
  return { next, result: { acknowledged: true, bet, seatBalanceCents } };
}

/**
 * A bet as the table stores it: applyBet, and its NACK stored too, as a refusal version. A NACK is a
 * decision: a replay of its key must answer it, not place the bet once the seat could cover it. A
 * replayed bet id stores nothing (the adapter answers the first result).
 */
export function decideBet(snapshot: TableSnapshot, command: BetCommand, now: number): Outcome<BetResult> {
  const outcome = applyBet(snapshot, command, now);
  if (outcome.next || outcome.result.acknowledged) return outcome;
  return { next: refusalVersion(snapshot, now), result: outcome.result };
}
