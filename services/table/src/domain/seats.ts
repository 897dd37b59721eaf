// Seats and their money: sit and top-up credit a seat with money the adapter already debited from
// the account; leave moves the whole seat balance to the outbox. A sit that cannot be honoured is a
// NACK so the adapter refunds the account (after-debit.ts stores that NACK as the decision).

import { ConflictError, IdempotencyMismatchError, InvalidArgumentError } from "@pokerodds/common/errors";
import { MAX_BALANCE_CENTS, requireAmountCents } from "@pokerodds/common/limits";
import { TABLE_REFUSALS, type TableRefusal } from "@pokerodds/common/table-refusals";
import { sumCents } from "./money.js";
import { voidGame } from "./payouts.js";
import { betsFromSeat, betsInPlay, canTakeIn, findSeat, freshGame, requireSeat, sealNext } from "./snapshot.js";
import type { OutboxCredit, Outcome, Seat, TableSnapshot } from "./types.js";
import { TABLE_KEY_PREFIX } from "@pokerodds/common/movement-keys";

function assertId(name: string, value: string): void {
  if (typeof value !== "string" || value.length === 0) throw new InvalidArgumentError(`${name} is required`);
}

function assertText(name: string, value: string): void {
  if (typeof value !== "string") throw new InvalidArgumentError(`${name} must be a string`);
}

/** A sit refused, with the seat the player already holds (as it is now), or seat 0 and 0 when none. */
export type SitRefusal = { message: TableRefusal; seatId: number; seatBalanceCents: number };
type SitCheck = { ok: true } | ({ ok: false } & SitRefusal);

/** Checked before the account is debited: is there a seat for this player, and room for the buy-in? */
export function sitPreconditions(snapshot: TableSnapshot, playerId: string, amountCents: number): SitCheck {
  assertId("playerId", playerId);
  const seated = findSeat(snapshot, playerId);
  if (seated) {
    return {
      ok: false,
      message: TABLE_REFUSALS.alreadySeated,
      seatId: seated.seatId,
      seatBalanceCents: seated.balanceCents,
    };
  }
  if (snapshot.seats.length >= snapshot.config.numberOfSeats) {
    return { ok: false, message: TABLE_REFUSALS.tableFull, seatId: 0, seatBalanceCents: 0 };
  }
  if (!canTakeIn(snapshot, amountCents)) {
    return { ok: false, message: TABLE_REFUSALS.tableMoneyLimit, seatId: 0, seatBalanceCents: 0 };
  }
  return { ok: true };
}

export interface SitCommand {
  playerId: string;
  playerName: string;
  avatarImageUrl: string;
  amountCents: number;
  /** The account debit's transfer id: names the seat session. */
  transferId: string;
}

export type SitResult =
  { acknowledged: true; seatId: number; seatBalanceCents: number } | ({ acknowledged: false } & SitRefusal);

/** The seat that transferId's sit opened, refusing a transfer id reused by another player. */
function seatOfSession(snapshot: TableSnapshot, transferId: string, playerId: string): Seat | undefined {
  const seat = snapshot.seats.find((s) => s.sessionId === transferId);
  if (seat && seat.playerId !== playerId) {
    throw new IdempotencyMismatchError();
  }
  return seat;
}

/**
 * A free seat for a newcomer: of the free seats, the one that took the fewest bets in this game
 * (earlier occupants' count against a seat's bound, bets.ts), the lowest such seatId.
 */
function freeSeatWithMostRoom(snapshot: TableSnapshot): number {
  const taken = new Set(snapshot.seats.map((s) => s.seatId));
  let best = 0;
  for (let seatId = snapshot.config.numberOfSeats; seatId >= 1; seatId--) {
    if (!taken.has(seatId) && (best === 0 || betsFromSeat(snapshot, seatId) <= betsFromSeat(snapshot, best))) {
      best = seatId;
    }
  }
  return best;
}

/**
 * Seats the player in a free seat (freeSeatWithMostRoom) with the buy-in as balance. NACK (nothing
 * stored here; sitAfterDebit stores it, and the adapter refunds the account) when the table filled
 * up, the player got seated meanwhile, or the table reached its money limit.
 * A replayed transferId answers the seat it took and the buy-in, without crediting again.
 */
export function applySit(snapshot: TableSnapshot, command: SitCommand, now: number): Outcome<SitResult> {
  const { playerId, playerName, avatarImageUrl, amountCents, transferId } = command;
  assertId("playerId", playerId);
  assertText("playerName", playerName);
  assertText("avatarImageUrl", avatarImageUrl);
  requireAmountCents("amountCents", amountCents);
  assertId("transferId", transferId);
  const replayed = seatOfSession(snapshot, transferId, playerId);
  if (replayed) {
    // The sit's own answer, the buy-in, as a recorded outcome replays it: the seat may have bet or
    // topped up since (a retry, or recovery, after a crash before the outcome was recorded).
    return { next: null, result: { acknowledged: true, seatId: replayed.seatId, seatBalanceCents: amountCents } };
  }
  const check = sitPreconditions(snapshot, playerId, amountCents);
  if (!check.ok) {
    const { message, seatId, seatBalanceCents } = check;
    return { next: null, result: { acknowledged: false, message, seatId, seatBalanceCents } };
  }
  const seatId = freeSeatWithMostRoom(snapshot);
  const seat: Seat = {
    seatId,
    playerId,
    playerName,
    avatarImageUrl,
    balanceCents: amountCents,
    sessionId: transferId,
  };
  const next = sealNext(
    snapshot,
    {
      seats: [...snapshot.seats, seat].sort((a, b) => a.seatId - b.seatId),
      totals: { ...snapshot.totals, creditedCents: sumCents([snapshot.totals.creditedCents, amountCents]) },
    },
    now,
  );
  return { next, result: { acknowledged: true, seatId, seatBalanceCents: amountCents } };
}

export interface TopUpCommand {
  playerId: string;
  amountCents: number;
  /**
   * The seat session the top-up was asked for: a later one (the player left and sat down again while
   * the top-up waited for recovery) is not credited. Absent: the session the player holds.
   */
  sessionId?: string;
}

/**
 * Credits the player's seat (any game state: between games or between betting stages).
 * Not seated, seated in another session than the one asked for, past the seat balance limit or the
 * table's money limit (TABLE_CREDIT_MAX_CENTS):
 * ConflictError (topUpAfterDebit stores it as a refusal; the adapter refunds the account).
 * Crediting once per transfer is the store's: the credit is stored under its transfer's operation key.
 */
export function applyTopUp(
  snapshot: TableSnapshot,
  command: TopUpCommand,
  now: number,
): Outcome<{ seatBalanceCents: number }> {
  const { playerId, amountCents, sessionId } = command;
  assertId("playerId", playerId);
  requireAmountCents("amountCents", amountCents);
  const seat = requireSeat(snapshot, playerId);
  if (sessionId !== undefined && seat.sessionId !== sessionId) {
    throw new ConflictError("the seat this top-up was asked for has been left: nothing was added to the new one");
  }
  const balanceCents = seat.balanceCents + amountCents;
  // An account's limit holds for a seat too: beyond it no answer could report the balance.
  if (balanceCents > MAX_BALANCE_CENTS) throw new ConflictError("seat balance limit reached");
  if (!canTakeIn(snapshot, amountCents)) throw new ConflictError(TABLE_REFUSALS.tableMoneyLimit);
  const next = sealNext(
    snapshot,
    {
      seats: snapshot.seats.map((s) => (s === seat ? { ...s, balanceCents } : s)),
      totals: { ...snapshot.totals, creditedCents: sumCents([snapshot.totals.creditedCents, amountCents]) },
    },
    now,
  );
  return { next, result: { seatBalanceCents: balanceCents } };
}

interface LeaveCommand {
  playerId: string;
  /** The leave request's transfer id: recorded as the credit's reference. */
  transferId: string;
  /**
   * The seat session the leave was asked for: a later one (the player left and sat down again while
   * this leave waited for recovery) is not left. Absent: the session the player holds (a claim
   * stored before sessions were recorded).
   */
  sessionId?: string;
}

/**
 * Frees the seat and owes its whole balance to the account. The leaver's open bets stay in play.
 * When the table empties, it resets to STATUS_START: mid-game (hands dealt, not settled) the game
 * is void and every open bet refunded to its player's account. Not seated: 0 and nothing stored.
 */
export function applyLeave(
  snapshot: TableSnapshot,
  command: LeaveCommand,
  now: number,
): Outcome<{ creditsReturnedCents: number }> {
  const { playerId, transferId, sessionId } = command;
  assertId("playerId", playerId);
  assertId("transferId", transferId);
  const seat = findSeat(snapshot, playerId);
  if (!seat || (sessionId !== undefined && seat.sessionId !== sessionId)) {
    return { next: null, result: { creditsReturnedCents: 0 } };
  }
  const seats = snapshot.seats.filter((s) => s !== seat);
  // Keyed by the seat session, which can be left only once: two leaves can never share a key.
  const leaveCredit: OutboxCredit[] =
    seat.balanceCents > 0
      ? [
          {
            key: `${TABLE_KEY_PREFIX}T${snapshot.tableId}:leave:${seat.sessionId}`,
            playerId,
            amountCents: seat.balanceCents,
            reason: "LEAVE",
            reference: transferId,
            createdAt: now,
          },
        ]
      : [];
  const outbox = [...snapshot.outbox, ...leaveCredit];
  const result = { creditsReturnedCents: seat.balanceCents };
  if (seats.length > 0) return { next: sealNext(snapshot, { seats, outbox }, now), result };
  if (betsInPlay(snapshot.gameState)) {
    const { credits, record } = voidGame(snapshot, now);
    const next = sealNext(
      snapshot,
      { ...freshGame(snapshot, "STATUS_START"), seats, outbox: [...outbox, ...credits], finishedGame: record },
      now,
    );
    return { next, result };
  }
  // Settled (river) or not started: nothing to refund; an empty table waits for its next players.
  const reset =
    snapshot.gameState === "STATUS_RIVER"
      ? freshGame(snapshot, "STATUS_START")
      : { gameState: "STATUS_START" as const };
  return { next: sealNext(snapshot, { ...reset, seats, outbox }, now), result };
}
