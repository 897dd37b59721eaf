// The table's state as one immutable snapshot. Every operation reads the latest snapshot and
// computes the next one; the adapter stores it as a new document (version + 1) under a unique
// (tableId, version) index, which is the concurrency control. So a snapshot holds everything the
// next operation needs, and nothing is ever mutated in place.
//
// Money is integer cents (safe integers), odds are integer tenths (23 means 2.3), times are epoch
// milliseconds passed in by the caller.

import type { HandOdds } from "@pokerodds/common/hand-odds";

// One hand's odds panel at one stage, as the odds service computes it: the type both services share.
export type { BettingStage, HandOdds, HandStatus } from "@pokerodds/common/hand-odds";

/** The game states the table passes through (the spec's sub-states and error values are never used). */
export type GameState =
  "STATUS_SETUP" | "STATUS_START" | "STATUS_HOLE" | "STATUS_FLOP" | "STATUS_TURN" | "STATUS_RIVER";

export interface Seat {
  /** 1..numberOfSeats; what a bet's seatIndex names. */
  readonly seatId: number;
  readonly playerId: string;
  readonly playerName: string;
  readonly avatarImageUrl: string;
  readonly balanceCents: number;
  /**
   * The sit's transfer id: names this seat session (the leave credit's key derives from it). A
   * top-up's transfer is not kept here: the operation key of its credit is stored with the version
   * it made (unique across the history), so a redriven credit finds it and is never applied twice,
   * and the seat does not grow with every top-up.
   */
  readonly sessionId: string;
}

export interface Bet {
  readonly betId: string;
  readonly playerId: string;
  readonly seatId: number;
  readonly handIndex: number;
  readonly bettingStage: 0 | 1 | 2;
  readonly betAmountCents: number;
  /** The odds displayed for that hand at that stage: what the bet is paid at. */
  readonly oddsTenths: number;
  readonly placedAt: number;
}

export type CreditReason = "LEAVE" | "PAYOUT" | "VOID_REFUND";

/**
 * Money the table owes a player's lobby account. It stays in the snapshot's outbox until the
 * adapter reports delivery (markDelivered); the key is the wallet transfer's idempotency key, so
 * delivering twice credits once.
 */
export interface OutboxCredit {
  readonly key: string;
  readonly playerId: string;
  readonly amountCents: number;
  readonly reason: CreditReason;
  /** The leave's transfer id, or the game id of a payout or refund. */
  readonly reference: string;
  readonly createdAt: number;
}

/** How one bet of a finished game ended. */
export interface BetSettlement {
  readonly betId: string;
  readonly playerId: string;
  readonly handIndex: number;
  readonly betAmountCents: number;
  readonly oddsTenths: number;
  /** Paid (settled game) or refunded (void game); 0 for a losing bet. */
  readonly returnedCents: number;
  /** Numerator of the fraction of a cent kept by the house: over roundingRemainder.denominator. */
  readonly remainderNumerator: number;
  /** SEAT when the bettor was seated at this table, else ACCOUNT (through the outbox). */
  readonly paidTo: "SEAT" | "ACCOUNT" | "NONE";
}

/** The house's record of one finished game: settled at the river, or void. */
export interface GameRecord {
  readonly gameId: string;
  readonly outcome: "SETTLED" | "VOID";
  readonly finishedAt: number;
  /** Hands whose river status is WINNER (empty for a void game). */
  readonly winningHands: readonly number[];
  readonly stakesCents: number;
  readonly payoutsCents: number;
  readonly refundsCents: number;
  /** stakes - payouts - refunds: what the house won (negative when it lost). */
  readonly houseResultCents: number;
  /** The sum of the fractions of a cent that rounding payouts down left with the house. */
  readonly roundingRemainder: { readonly numerator: number; readonly denominator: number };
  readonly bets: readonly BetSettlement[];
}

/** What a game's deal fixed (TableSnapshot.deal). */
export interface Deal {
  /**
   * The target return to player every stage of the game is priced at (the table's setting at the
   * deal): a changed setting prices the next game, never the rest of one under way.
   */
  readonly targetRtp: number;
  /** The advance's caller: a seated player, whose client seed the deck mixes in if any, or an ADMIN. */
  readonly dealtBy: string;
  /** The game's betting stages so far, in order, with their times (stage-times.ts). */
  readonly stages: readonly StageTimes[];
}

/** When one betting stage of a game took bets (stage-times.ts). */
export interface StageTimes {
  readonly bettingStage: 0 | 1 | 2;
  /** When its cards were shown: the deal for the hole, the reveal for the flop and the turn. */
  readonly openedAt: number;
  /** When an advance closed its betting to reveal the next cards; null while open (and in a game voided so). */
  readonly closedAt: number | null;
}

/**
 * The game's server seed (secret until the river) and its SHA-256 commitment, public from the game's
 * start (docs/provably-fair.md); from the deal on, the client seed the dealing player mixed in.
 */
export interface Fairness {
  readonly serverSeed: string;
  readonly seedCommitment: string;
  /** Null before the deal, and for a deal that named none. */
  readonly clientSeed: string | null;
}

export interface TableConfig {
  readonly numberOfSeats: number;
  readonly numberOfHands: number;
  /** The largest payout one bet may win (stake x odds), so balances stay exact in a double. */
  readonly maxPayoutCents: number;
}

/** Running money totals since the table was created: what the audit reconciles (see tableMoney). */
export interface TableTotals {
  /** Sits and top-ups credited to seats. */
  readonly creditedCents: number;
  /** Outbox credits the adapter reported delivered to accounts (and removed from the outbox). */
  readonly deliveredCents: number;
  /** Sum of every finished game's house result. */
  readonly houseResultCents: number;
}

export interface TableSnapshot {
  readonly tableId: number;
  /** 1 for a new table, + 1 per stored change. */
  readonly version: number;
  readonly config: TableConfig;
  /** Counts games at this table; the game id is derived from it. */
  readonly gameNumber: number;
  readonly gameId: string;
  readonly gameState: GameState;
  /** Hole-card pairs ("AhKd"), null before the hole cards are dealt. */
  readonly hands: readonly string[] | null;
  /** Community cards revealed so far: flop (3), turn, river. */
  readonly board: readonly string[];
  /** The undealt cards in draw order. Secret: never in the public view. */
  readonly deck: readonly string[];
  /**
   * What proves the deck was fixed before any bet (docs/provably-fair.md): the game's committed seed,
   * drawn by its first stored version; null until then (and at a table nothing was stored at).
   */
  readonly fairness: Fairness | null;
  /** Panels of every stage of the current game, stage by stage, in hand order within a stage. */
  readonly handOdds: readonly HandOdds[];
  /** What the current game's deal fixed, for the rest of the game and its record; null before the deal. */
  readonly deal: Deal | null;
  /**
   * The open stage takes no more bets: an advance closed it before sending the next cards to the
   * odds service (closeBetting), so nobody who learns them there can bet on them. The reveal opens
   * the next stage.
   */
  readonly bettingClosed: boolean;
  /** Ordered by seatId. */
  readonly seats: readonly Seat[];
  /** Bets of the current game in placement order; open until the river settles them. */
  readonly bets: readonly Bet[];
  /** Credits owed to accounts and not yet reported delivered. */
  readonly outbox: readonly OutboxCredit[];
  readonly totals: TableTotals;
  /** The record of the game that the change producing this snapshot finished; null otherwise. */
  readonly finishedGame: GameRecord | null;
  /** Games finished (settled or void) at this table: each one's record is in the snapshot that finished it. */
  readonly gamesFinished: number;
  readonly createdAt: number;
  /** Every stored change. */
  readonly updatedAt: number;
  /** Player operations only (not delivery reports): the lobby's 30-minute window. */
  readonly lastActivityAt: number;
}

/** An operation's answer: the snapshot to store (null: nothing changed, store nothing) and its result. */
export interface Outcome<R> {
  readonly next: TableSnapshot | null;
  readonly result: R;
}
