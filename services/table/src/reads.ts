// The state of one table, its versions as they are stored, and every table's head (the lobby, a player's seats).
import { NotFoundError } from "@pokerodds/common";
import { CoalescedRead } from "./coalesced-read.js";
import type { CallScope } from "./dependencies.js";
import {
  publicState,
  type Caller,
  type ExportedGame,
  type PublicTableState,
  type TableSnapshot,
} from "./domain/index.js";
import { findGame } from "./game-export.js";
import type { TableParts } from "./parts.js";
import type { Watch, WatchStart } from "./table-watch.js";
import { TableDirectory } from "./table-directory.js";

/** Any player may read a public table; a personal table its owner, or an ADMIN. */
export async function tableState(
  parts: TableParts,
  request: { caller: Caller; tableId: number },
  scope: CallScope,
): Promise<PublicTableState> {
  const table = await parts.directory.require(request.tableId, scope);
  TableDirectory.requireAccess(table, request.caller.playerId, request.caller.isAdmin);
  return publicState((await parts.store.latest(request.tableId)).snapshot);
}

/** GetGame: one finished game's record, readable by whoever may read the table's state (GetState's rule). */
export async function finishedGame(
  parts: TableParts,
  request: { caller: Caller; tableId: number; gameId: string },
  scope: CallScope,
): Promise<ExportedGame> {
  const table = await parts.directory.require(request.tableId, scope);
  TableDirectory.requireAccess(table, request.caller.playerId, request.caller.isAdmin);
  const game = await findGame(parts.store, request.tableId, request.gameId);
  if (!game) throw new NotFoundError(`table ${request.tableId} has no finished game ${request.gameId}`);
  return game;
}

/** WatchTable: readable by whoever may read the table's state (GetState's rule). */
export async function watchTable(
  parts: TableParts,
  request: { caller: Caller; tableId: number; start: WatchStart },
  scope: CallScope,
  watch: Watch,
): Promise<never> {
  const table = await parts.directory.require(request.tableId, scope);
  TableDirectory.requireAccess(table, request.caller.playerId, request.caller.isAdmin);
  return parts.watchers.follow(request.tableId, request.start, watch);
}

/**
 * Every table's latest snapshot (never-written tables left out), for the lobby and ListSeats. The
 * lobby is public and a read of every table's head, so concurrent calls share reads (CoalescedRead)
 * rather than each reading every table; no answer predates its call.
 */
export function headsReader(parts: TableParts): () => Promise<TableSnapshot[]> {
  const reads = new CoalescedRead(async () => {
    const latest = await Promise.all((await parts.directory.ids()).map((id) => parts.store.latest(id)));
    return latest.filter(({ stored }) => stored).map(({ snapshot }) => snapshot);
  });
  return () => reads.get();
}
