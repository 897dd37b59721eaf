// What the lobby shows: each active table's line, the players seated, and where one player's chips are.

import { takesBets } from "./snapshot.js";
import type { TableSnapshot } from "./types.js";

/** A table is active when a player operation touched it within this window (inclusive). */
export const ACTIVE_WINDOW_MS = 30 * 60 * 1000;

export interface LobbySummary {
  tableId: number;
  playerCount: number;
  gameState: "BETTING" | "WAITING";
  active: boolean;
}

export function lobbySummary(snapshot: TableSnapshot, now: number): LobbySummary {
  return {
    tableId: snapshot.tableId,
    playerCount: snapshot.seats.length,
    gameState: takesBets(snapshot) ? "BETTING" : "WAITING",
    active: now - snapshot.lastActivityAt <= ACTIVE_WINDOW_MS,
  };
}

/**
 * What a table adds to the lobby at `now`, as one comparable key: its line (game state, seats) and
 * the players seated there (totalActivePlayers counts them); null when it is not active.
 */
export function lobbyEntry(snapshot: TableSnapshot, now: number): string | null {
  const { active, gameState } = lobbySummary(snapshot, now);
  return active ? JSON.stringify([gameState, snapshot.seats.map((seat) => seat.playerId)]) : null;
}

/**
 * Until when the lobby of these tables, listed at `now`, stays what it is without a change to any of
 * them: the moment the first active table leaves the window.
 */
export function lobbyListedUntil(heads: readonly TableSnapshot[], now: number): number {
  let until = Infinity;
  for (const snapshot of heads) {
    if (lobbySummary(snapshot, now).active) until = Math.min(until, snapshot.lastActivityAt + ACTIVE_WINDOW_MS);
  }
  return until;
}

export interface PlayerSeat {
  tableId: number;
  seatId: number;
  seatBalanceCents: number;
}

/** A player's seats at these tables, in table id order: where the player's chips are. */
export function seatsOf(tables: readonly TableSnapshot[], playerId: string): PlayerSeat[] {
  return tables
    .flatMap((table) =>
      table.seats
        .filter((seat) => seat.playerId === playerId)
        .map((seat) => ({ tableId: table.tableId, seatId: seat.seatId, seatBalanceCents: seat.balanceCents })),
    )
    .sort((a, b) => a.tableId - b.tableId);
}

export interface Lobby {
  tables: Omit<LobbySummary, "active">[];
  totalActivePlayers: number;
}

/** Tables a player operation touched within the last 30 minutes, by table id: the same order at every call. */
export function lobbyOf(heads: readonly TableSnapshot[], now: number): Lobby {
  const active = heads
    .map((snapshot) => ({ snapshot, summary: lobbySummary(snapshot, now) }))
    .filter(({ summary }) => summary.active)
    .sort((a, b) => a.summary.tableId - b.summary.tableId);
  const tables = active.map(({ summary: { tableId, playerCount, gameState } }) => ({
    tableId,
    playerCount,
    gameState,
  }));
  return { tables, totalActivePlayers: seatedPlayerCount(active.map(({ snapshot }) => snapshot)) };
}

/** The lobby's totalActivePlayers: the players seated at these tables, each once however many seats they hold. */
export function seatedPlayerCount(tables: readonly TableSnapshot[]): number {
  return new Set(tables.flatMap((table) => table.seats.map((seat) => seat.playerId))).size;
}
