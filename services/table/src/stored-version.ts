// How a version of a table is kept in its history: in full, or as what changed since the last
// version kept in full. Every change is a whole snapshot to the domain, but most change little: a
// bet adds one bet and one seat's balance, a NACK only the version number. Kept in full, each would
// copy every bet of the game (a game's 300 bets made every later version about 58 KB, and FerretDB's
// one writer slower with every byte), and a NACK, which costs nothing, a whole table.
//
// A version kept as changes holds the top-level fields that differ from the full version it names
// and the bets added since it. Reading it is the full version (one more `_id` read, usually cached)
// with those laid over it. So a version is at most two reads whatever the history, and its size
// stays bounded: a version is kept in full again once more than BETS_SINCE_FULL bets were added
// since the last full one, or when the game's bets no longer extend that version's (a new game).
import type { Bet, TableSnapshot } from "./domain/index.js";

/** Bets a version kept as changes may carry; past it, the version is kept in full. */
export const BETS_SINCE_FULL = 16;

/** What a version kept as changes stores besides its key and answer. */
export interface VersionChanges {
  /** The version kept in full that these changes apply to. */
  since: number;
  /** The top-level fields whose value is not the full version's, except the bets. */
  changes: Partial<TableSnapshot>;
  /** The bets placed since the full version, in order: the game's bets are the full version's and these. */
  newBets: readonly Bet[];
}

/**
 * `next` as changes to `full`, or null when it is to be kept in full. A field counts as unchanged
 * when it is the very value of `full` (the domain never mutates a snapshot, so a change makes a new
 * value): a field rebuilt equal is merely stored again.
 */
export function changesSince(full: TableSnapshot, next: TableSnapshot): VersionChanges | null {
  const added = next.bets.length - full.bets.length;
  if (added < 0 || added > BETS_SINCE_FULL || full.bets.some((bet, i) => next.bets[i] !== bet)) return null;
  const changes: Record<string, unknown> = {};
  for (const field of Object.keys(next) as (keyof TableSnapshot)[]) {
    if (field !== "bets" && next[field] !== full[field]) changes[field] = next[field];
  }
  return {
    since: full.version,
    changes: changes as Partial<TableSnapshot>,
    newBets: next.bets.slice(full.bets.length),
  };
}

/** The version that `changes` describe, from the full version it names. */
export function withChanges(full: TableSnapshot, { changes, newBets }: VersionChanges): TableSnapshot {
  return { ...full, ...changes, bets: newBets.length === 0 ? full.bets : [...full.bets, ...newBets] };
}
