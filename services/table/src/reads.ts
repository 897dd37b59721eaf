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
 * which decides (lobbyOf). A pass over them costs a read per active table, so calls share passes: a
 * call is answered from the last pass, or the one running, when it began at most `maxAgeMs` before
 * the call (else from a pass that begins after it, shared with the calls that come meanwhile:
 * CoalescedRead), with every change this replica stored since that pass began laid over it. So this replica's own changes show
 * at once, another replica's within `maxAgeMs` (the lobby is a listing, not a promise per table: a
 * table's own state is read fresh), and a crowd polling the lobby costs at most a pass per `maxAgeMs`
 * however many they are. It costs the active tables, however many were ever written.
 */
export function lobbyReader(parts: TableParts, maxAgeMs: number): () => Promise<Lobby> {
  // Ages on the monotonic clock: a wall clock stepped back would keep an old pass answering.
  let last: { beganAt: number; heads: TableSnapshot[] } | undefined;
  let passing = false;
  const answersFromLast = () => last !== undefined && performance.now() - last.beganAt <= maxAgeMs;
  // What this replica stored while a pass runs or answers (a pass reads only what was stored before
  // it began); nothing while the lobby is not read, so this holds no more than those moments' writes.
  const storedLately = new Map<number, { snapshot: TableSnapshot; at: number }>();
  parts.store.onStored((snapshot) => {
    if (passing || answersFromLast()) storedLately.set(snapshot.tableId, { snapshot, at: performance.now() });
  });
  const passes = new CoalescedRead(async () => {
    const beganAt = performance.now();
    passing = true;
    try {
      const active = await parts.store.activity.activeAt(Date.now());
      parts.store.cacheActive(active.length);
      const heads = await storedHeads(parts, active);
      for (const [tableId, { at }] of storedLately) if (at < beganAt) storedLately.delete(tableId);
      last = { beganAt, heads };
    } finally {
      passing = false;
    }
  });
  return async () => {
    // A pass already running serves the call if it began within the maximum age: else a crowd
    // arriving during a pass would wait for another, two passes per interval instead of one.
    if (!answersFromLast()) await passes.get(maxAgeMs);
    return lobbyOf(newestOf(last!.heads, storedLately.values()), Date.now());
  };
}

/** Each table's newest snapshot of a pass's heads and the ones stored since. */
function newestOf(heads: readonly TableSnapshot[], stored: Iterable<{ snapshot: TableSnapshot }>): TableSnapshot[] {
  const newest = new Map(heads.map((head) => [head.tableId, head]));
  for (const { snapshot } of stored) {
    if ((newest.get(snapshot.tableId)?.version ?? 0) < snapshot.version) newest.set(snapshot.tableId, snapshot);
  }
  return [...newest.values()];
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
