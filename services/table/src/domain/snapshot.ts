// Creating a table, deriving facts from a snapshot, and the one place a next snapshot is sealed
// (version, timestamps, and a conservation check that refuses to produce a snapshot that lost a cent).

import { MAX_BALANCE_CENTS, MAX_HANDS_PER_GAME, MIN_HANDS_PER_GAME } from "@pokerodds/common/limits";
import { ConflictError, InvalidArgumentError } from "@pokerodds/common/errors";
import { sumCents } from "./money.js";
import type { BettingStage, GameState, Seat, TableConfig, TableSnapshot } from "./types.js";

const DEFAULT_NUMBER_OF_SEATS = 6;
const DEFAULT_NUMBER_OF_HANDS = 4;
/** 10^12 units: far above any real stake, and a tenth of a seat's balance limit (MAX_BALANCE_CENTS). */
const DEFAULT_MAX_PAYOUT_CENTS = 100_000_000_000_000;
/**
 * The most one game's bets may pay together, whichever hands win (10^13 units, the largest balance):
 * a bet limit alone let 300 bets of a game add up past 2^53, and then the river could never be
 * settled; within it every sum of a game is exact and a player's credit for a game is one the wallet
 * takes.
 */
export const MAX_GAME_PAYOUT_CENTS = MAX_BALANCE_CENTS;
/**
 * The most a table may ever take in (its creditedCents: every sit and top-up), 2^52 cents. Past 2^53
 * a total could not be summed to the cent, and every change of the table, its leaves and their
 * deliveries included, would be refused for good, holding its players' chips: so money in is refused
 * first, and what the table pays out (its takings plus the house's losses there) stays exact while the
 * house has lost less than another 2^52 cents at it.
 */
export const TABLE_CREDIT_MAX_CENTS = 2 ** 52;

/** Whether the table may still take in `amountCents` (a sit's or a top-up's) under TABLE_CREDIT_MAX_CENTS. */
export const canTakeIn = (snapshot: TableSnapshot, amountCents: number): boolean =>
  snapshot.totals.creditedCents + amountCents <= TABLE_CREDIT_MAX_CENTS;

/** Game ids are per table and sequential, so the domain stays deterministic: T7-1, T7-2, ... */
const gameIdOf = (tableId: number, gameNumber: number): string => `T${tableId}-${gameNumber}`;

/** The game number a game id of this table names (gameIdOf's inverse), or null when it names none. */
export function gameNumberOf(tableId: number, gameId: string): number | null {
  const match = /^T([1-9][0-9]*)-([1-9][0-9]*)$/.exec(gameId);
  if (!match || Number(match[1]) !== tableId) return null;
  const gameNumber = Number(match[2]);
  return Number.isSafeInteger(gameNumber) ? gameNumber : null;
}

function assertTime(now: number): void {
  if (!Number.isSafeInteger(now) || now < 0) throw new RangeError(`invalid time: ${now}`);
}

function assertPositiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError(`${name} must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`);
  }
}

/** A new table in STATUS_START: game 1, no seats, no money. */
export function emptyTable(tableId: number, now: number, config: Partial<TableConfig> = {}): TableSnapshot {
  assertPositiveInteger("tableId", tableId);
  assertTime(now);
  const full: TableConfig = {
    numberOfSeats: config.numberOfSeats ?? DEFAULT_NUMBER_OF_SEATS,
    numberOfHands: config.numberOfHands ?? DEFAULT_NUMBER_OF_HANDS,
    maxPayoutCents: config.maxPayoutCents ?? DEFAULT_MAX_PAYOUT_CENTS,
  };
  assertPositiveInteger("numberOfSeats", full.numberOfSeats);
  const hands = full.numberOfHands;
  if (!Number.isInteger(hands) || hands < MIN_HANDS_PER_GAME || hands > MAX_HANDS_PER_GAME) {
    throw new InvalidArgumentError(
      `numberOfHands must be an integer from ${MIN_HANDS_PER_GAME} to ${MAX_HANDS_PER_GAME}`,
    );
  }
  assertPositiveInteger("maxPayoutCents", full.maxPayoutCents);
  return {
    tableId,
    version: 1,
    config: full,
    ...gameOf(tableId, 1, "STATUS_START"),
    seats: [],
    outbox: [],
    totals: { creditedCents: 0, deliveredCents: 0, houseResultCents: 0 },
    finishedGame: null,
    gamesFinished: 0,
    createdAt: now,
    updatedAt: now,
    lastActivityAt: now,
  };
}

const STAGE_OF: Record<GameState, BettingStage> = {
  STATUS_SETUP: -1,
  STATUS_START: -1,
  STATUS_HOLE: 0,
  STATUS_FLOP: 1,
  STATUS_TURN: 2,
  STATUS_RIVER: -1,
};

export const bettingStageOf = (state: GameState): BettingStage => STAGE_OF[state];

/**
 * The game's bets are in play: the hands are dealt and the bets not yet settled (from the hole to the
 * turn, also while an advance has closed the stage to new bets: takesBets).
 */
export const betsInPlay = (state: GameState): boolean => STAGE_OF[state] >= 0;

/**
 * The game's stage takes bets now: a betting stage, and no advance has closed its betting to reveal
 * the next cards (its bets are in play either way: betsInPlay).
 */
export const takesBets = (snapshot: TableSnapshot): boolean =>
  betsInPlay(snapshot.gameState) && !snapshot.bettingClosed;

export const findSeat = (snapshot: TableSnapshot, playerId: string): Seat | undefined =>
  snapshot.seats.find((s) => s.playerId === playerId);

/** The player's seat, or a ConflictError for a move only a seated player makes (a top-up, a bet). */
export function requireSeat(snapshot: TableSnapshot, playerId: string): Seat {
  const seat = findSeat(snapshot, playerId);
  if (!seat) throw new ConflictError("not seated at this table");
  return seat;
}

/** Bets placed from a seat in the current game, by whoever sat in it (bets.ts bounds them). */
export const betsFromSeat = (snapshot: TableSnapshot, seatId: number): number =>
  snapshot.bets.filter((b) => b.seatId === seatId).length;

/**
 * Where the table's money is, to the cent. Field for field the proto's TableMoney, on purpose: the
 * domain stays free of the wire types (common/table-money.ts holds the one list of the fields).
 */
export interface TableMoney {
  seatsCents: number;
  /** Stakes of bets not yet settled (0 once the river has paid them). */
  openStakesCents: number;
  /** Owed to accounts, not yet reported delivered. */
  outboxCents: number;
  deliveredCents: number;
  houseResultCents: number;
  /** Everything ever credited to seats. */
  creditedCents: number;
}

/**
 * The audit's reconciliation: creditedCents = seatsCents + openStakesCents + outboxCents +
 * deliveredCents + houseResultCents holds for every snapshot (sealNext refuses one where it does not).
 */
export function tableMoney(snapshot: TableSnapshot): TableMoney {
  return {
    seatsCents: sumCents(snapshot.seats.map((s) => s.balanceCents)),
    openStakesCents: betsInPlay(snapshot.gameState) ? sumCents(snapshot.bets.map((b) => b.betAmountCents)) : 0,
    outboxCents: sumCents(snapshot.outbox.map((c) => c.amountCents)),
    deliveredCents: snapshot.totals.deliveredCents,
    houseResultCents: snapshot.totals.houseResultCents,
    creditedCents: snapshot.totals.creditedCents,
  };
}

export function isConserved(money: TableMoney): boolean {
  const held = sumCents([
    money.seatsCents,
    money.openStakesCents,
    money.outboxCents,
    money.deliveredCents,
    money.houseResultCents,
  ]);
  return held === money.creditedCents;
}

/**
 * A refusal stored as a version: version + 1 at `now`, nothing else changed (no seat, no money, and
 * not player activity). Like every next snapshot it carries no finished game of its own. A NACK that
 * must answer every replay of its key is stored so (after-debit.ts, bets.ts).
 */
export function refusalVersion(snapshot: TableSnapshot, now: number): TableSnapshot {
  return sealNext(snapshot, {}, now, false);
}

/**
 * The next snapshot: prev with changes, version + 1, updatedAt (and lastActivityAt for a player's
 * operation) set to now, finishedGame reset unless this change finished a game (and then counted
 * in gamesFinished). Throws if the
 * result does not conserve money: a bug must fail the operation, never be stored.
 */
export function sealNext(
  prev: TableSnapshot,
  changes: Partial<Omit<TableSnapshot, "tableId" | "version" | "config" | "gamesFinished" | "createdAt" | "updatedAt">>,
  now: number,
  activity = true,
): TableSnapshot {
  assertTime(now);
  const next: TableSnapshot = {
    ...prev,
    finishedGame: null,
    lastActivityAt: activity ? now : prev.lastActivityAt,
    ...changes,
    version: prev.version + 1,
    gamesFinished: prev.gamesFinished + (changes.finishedGame ? 1 : 0),
    updatedAt: now,
  };
  if (!isConserved(tableMoney(next))) throw new Error(`table ${prev.tableId}: money not conserved`);
  return next;
}

type GameFields = Pick<
  TableSnapshot,
  | "gameNumber"
  | "gameId"
  | "gameState"
  | "hands"
  | "board"
  | "deck"
  | "fairness"
  | "handOdds"
  | "deal"
  | "bettingClosed"
  | "bets"
>;

/** Game `gameNumber` of a table as it begins: its id and state, no cards, panels or bets. */
function gameOf(tableId: number, gameNumber: number, gameState: GameState): GameFields {
  return {
    gameNumber,
    gameId: gameIdOf(tableId, gameNumber),
    gameState,
    hands: null,
    board: [],
    deck: [],
    fairness: null,
    handOdds: [],
    deal: null,
    bettingClosed: false,
    bets: [],
  };
}

/** A fresh game in the given state: next game id, no cards, panels or bets. Seats and money stay. */
export const freshGame = (snapshot: TableSnapshot, gameState: "STATUS_SETUP" | "STATUS_START"): GameFields =>
  gameOf(snapshot.tableId, snapshot.gameNumber + 1, gameState);

/** True when `next` owes a credit that `previous` did not (recovery must then be able to find the table). */
export const owesNewCredit = (previous: TableSnapshot, next: TableSnapshot): boolean =>
  next.outbox.some((credit) => !previous.outbox.some((owed) => owed.key === credit.key));

/**
 * Removes the delivered credits from the outbox and counts them as delivered. Unknown keys are
 * ignored, so a repeated report is harmless; null when nothing was pending under those keys.
 * Delivery is housekeeping, not table activity: lastActivityAt stays.
 */
export function markDelivered(snapshot: TableSnapshot, keys: readonly string[], now: number): TableSnapshot | null {
  const delivered = new Set(keys);
  const done = snapshot.outbox.filter((c) => delivered.has(c.key));
  if (done.length === 0) return null;
  return sealNext(
    snapshot,
    {
      outbox: snapshot.outbox.filter((c) => !delivered.has(c.key)),
      totals: {
        ...snapshot.totals,
        deliveredCents: sumCents([snapshot.totals.deliveredCents, ...done.map((c) => c.amountCents)]),
      },
    },
    now,
    false,
  );
}
