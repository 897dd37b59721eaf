// A table restored from a backup is behind what its players have seen: the cards its game in play
// dealt after the backup, and even the server seed of a game not dealt yet (revealed once that game
// ended), which fixes every card of it for any client seed. Before anyone plays on, each table is
// sealed: a game in play is void, every open bet refunded in full to its player's account (as when
// the last player leaves mid-game), and a game not dealt yet is committed to a new seed before any
// client seed or bet.
import { voidGame } from "./payouts.js";
import { betsInPlay, freshGame, sealNext } from "./snapshot.js";
import type { TableSnapshot } from "./types.js";

/**
 * The table sealed after a restore: its game in play void, or its undealt game's seed dropped (the
 * adapter commits every undealt game without one to a fresh seed as it stores it), or else the same
 * table one version on, so that each table's seal is a stored change under its own key.
 */
export function sealRestored(snapshot: TableSnapshot, now: number): TableSnapshot {
  if (betsInPlay(snapshot.gameState)) {
    const { credits, record } = voidGame(snapshot, now);
    return sealNext(
      snapshot,
      { ...freshGame(snapshot, "STATUS_SETUP"), outbox: [...snapshot.outbox, ...credits], finishedGame: record },
      now,
      false,
    );
  }
  if (snapshot.hands === null && snapshot.fairness !== null) return sealNext(snapshot, { fairness: null }, now, false);
  return sealNext(snapshot, {}, now, false);
}
