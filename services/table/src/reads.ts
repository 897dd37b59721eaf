// The state of one table, its versions as they are stored, the lobby and a player's seats.
import { NotFoundError } from "@pokerodds/common";
import { CoalescedRead } from "./coalesced-read.js";
import type { CallScope } from "./dependencies.js";
import {
  lobbyOf,
  publicState,
  seatsOf,
  type Caller,
  type Lobby,
  type PlayerSeat,
  type ExportedGame,
  type PublicTableState,
  type TableSnapshot,
} from "./domain/index.js";
import { findGame } from "./game-export.js";
import type { TableParts } from "./parts.js";
import type { Watch, WatchStart } from "./table-watch.js";
import { TableDirectory } from "./table-directory.js";
import { HEADS_AT_ONCE } from "./snapshot-store.js";
import pMap from "p-map";

/** Any player may read a public table; a personal table its owner, or an ADMIN. */
export async function tableState(
  parts: TableParts,
  request: { caller: Caller; tableId: number },
  scope: CallScope,
): Promise<{ state: PublicTableState; version: number }> {
  const table = await parts.directory.require(request.tableId, scope);
  TableDirectory.requireAccess(table, request.caller.playerId, request.caller.isAdmin);
  const { snapshot } = await parts.store.latest(request.tableId);
  return { state: publicState(snapshot), version: snapshot.version };
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
 * The lobby: the tables noted active within its window (activity-index.ts), each read from its head,
 * which decides (lobbyOf). The lobby is public, so concurrent calls share reads (CoalescedRead);
 * no answer predates its call. It costs the active tables, however many were ever written.
 */
export function lobbyReader(parts: TableParts): () => Promise<Lobby> {
  const reads = new CoalescedRead(async () => {
    const now = Date.now();
    const active = await parts.store.activity.activeAt(now);
    parts.store.cacheActive(active.length);
    return lobbyOf(await storedHeads(parts, active), now);
  });
  return () => reads.get();
}

/**
 * ListSeats: the player's seats, read from the heads of the tables where the player can sit: the
 * shared ones (one read for the calls that come at once, as the lobby's) while the wallet names the
 * player's personal table.
 */
export function seatsReader(parts: TableParts): (playerId: string, scope: CallScope) => Promise<PlayerSeat[]> {
  const shared = new CoalescedRead(async () => storedHeads(parts, await parts.directory.sharedTables()));
  return async (playerId, scope) => {
    const [sharedHeads, personal] = await Promise.all([
      shared.get(),
      parts.directory.personalTableOf(playerId, scope).then((id) => storedHeads(parts, id === null ? [] : [id])),
    ]);
    return seatsOf([...sharedHeads, ...personal], playerId);
  };
}

/** The latest snapshots of these tables, never-written ones left out; a few read at a time, as every pass over tables. */
async function storedHeads(parts: TableParts, tableIds: readonly number[]): Promise<TableSnapshot[]> {
  const latest = await pMap(tableIds, (id) => parts.store.latest(id), { concurrency: HEADS_AT_ONCE });
  return latest.filter(({ stored }) => stored).map(({ snapshot }) => snapshot);
}
