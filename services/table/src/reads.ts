// The state of one table, its versions as they are stored, and the lobby.
import { CoalescedRead } from "./coalesced-read.js";
import type { CallScope } from "./dependencies.js";
import {
  lobbySummary,
  publicState,
  seatedPlayerCount,
  seatsOf,
  type Caller,
  type PlayerSeat,
  type LobbySummary,
  type PublicTableState,
} from "./domain/index.js";
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

/** The caller's seats at every table (one head read per table, as the lobby's), active or not. */
export async function playerSeats(parts: TableParts, caller: Caller): Promise<PlayerSeat[]> {
  const latest = await Promise.all((await parts.directory.ids()).map((id) => parts.store.latest(id)));
  return seatsOf(
    latest.map(({ snapshot }) => snapshot),
    caller.playerId,
  );
}

export interface Lobby {
  tables: Omit<LobbySummary, "active">[];
  totalActivePlayers: number;
}

/**
 * The lobby of this process: public and unauthenticated, and a read of every table's head, so
 * concurrent calls share reads (CoalescedRead) rather than each reading every table.
 */
export function lobbyReader(parts: TableParts): () => Promise<Lobby> {
  const reads = new CoalescedRead(() => lobby(parts));
  return () => reads.get();
}

/** Tables a player operation touched within the last 30 minutes; never-written tables are not active. */
async function lobby(parts: TableParts): Promise<Lobby> {
  const now = Date.now();
  const latest = await Promise.all((await parts.directory.ids()).map((id) => parts.store.latest(id)));
  const active = latest
    .filter(({ stored }) => stored)
    .map(({ snapshot }) => ({ snapshot, summary: lobbySummary(snapshot, now) }))
    .filter(({ summary }) => summary.active);
  const tables = active.map(({ summary: { tableId, playerCount, gameState } }) => ({
    tableId,
    playerCount,
    gameState,
  }));
  return { tables, totalActivePlayers: seatedPlayerCount(active.map(({ snapshot }) => snapshot)) };
}
