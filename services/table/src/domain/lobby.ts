// One table's line in the lobby list.

import { isBettingOpen } from "./snapshot.js";
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
    gameState: isBettingOpen(snapshot.gameState) ? "BETTING" : "WAITING",
    active: now - snapshot.lastActivityAt <= ACTIVE_WINDOW_MS,
  };
}

/** The lobby's totalActivePlayers: the players seated at these tables, each once however many seats they hold. */
export function seatedPlayerCount(tables: readonly TableSnapshot[]): number {
  return new Set(tables.flatMap((table) => table.seats.map((seat) => seat.playerId))).size;
}
