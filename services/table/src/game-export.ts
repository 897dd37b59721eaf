// ExportGames (ADMIN): the record of every finished game, for an external audit; and GetGame: one
// finished game's record, for a player verifying the game after it left the table's state.
//
// A game's record is in the snapshot of the change that finished it, and nothing indexes those
// versions: `_id` point reads are the only reads the embedded database serves from an index. So the
// export walks each table's versions in order by point reads, READ_AHEAD of them in flight while
// one is being sent. The sink's `send` resolves only when the stream can take the next message
// (gRPC flow control), so a slow caller slows the reads down: memory holds READ_AHEAD snapshots and
// one table's position, whatever the number of games. A cancelled call stops at the next version.
//
// Positioning without reading what comes before: a table's versions are stamped in time order (up
// to the replicas' clock skew), so the first version that can hold a game finished at or after a
// time is found by bisection. One game is found the same way: a table's game numbers only grow, and
// a game finishes at its river or, void, with the change that clears it.
import { ForbiddenError } from "@pokerodds/common";
import {
  exportedGame,
  gameNumberOf,
  holdsCardsOf,
  type Caller,
  type ExportedGame,
  type TableSnapshot,
} from "./domain/index.js";
import { readAhead } from "./read-ahead.js";
import type { SnapshotStore } from "./snapshot-store.js";

/** What the export reads: the tables, and each one's versions by number. */
export type GameLog = Pick<SnapshotStore, "tableIds" | "latest" | "version">;

export interface ExportFilter {
  /** Only this table; null: every table. */
  tableId: number | null;
  /** Only games finished at or after this time (epoch ms). */
  finishedAfter: number | null;
  /** Only games finished before this time (epoch ms). */
  finishedBefore: number | null;
  /** Only games after this one, as a record names it (its table and version). */
  after: { tableId: number; version: number } | null;
}

interface ExportSink {
  /** Called once the caller is authorized and the tables are listed, before the first game. */
  ready(): void;
  /** Sends one game; resolves when the next may be sent. */
  send(game: ExportedGame): Promise<void>;
  signal: AbortSignal;
}

/** Point reads in flight ahead of the version being sent. */
export const READ_AHEAD = 16;
/**
 * Time bounds are widened by this when positioning, so that replicas' clocks up to half of it apart
 * cannot hide a game: a version stamped more than this before a bound holds no game after it.
 */
export const CLOCK_MARGIN_MS = 5 * 60_000;
/** A table's first stored version (version 1, the empty table, is never stored). */
const FIRST_VERSION = 2;

/** Sends every finished game the filter admits, tables in id order, each table's in the order played. */
export async function exportGames(
  log: GameLog,
  caller: Caller,
  filter: ExportFilter,
  sink: ExportSink,
): Promise<number> {
  if (!caller.isAdmin) throw new ForbiddenError("the game export is for an ADMIN");
  const tables = filter.tableId === null ? await log.tableIds() : [filter.tableId];
  sink.ready();
  let sent = 0;
  for (const tableId of tables) {
    if (filter.after && tableId < filter.after.tableId) continue;
    sent += await exportTable(log, tableId, filter, sink);
  }
  return sent;
}

async function exportTable(log: GameLog, tableId: number, filter: ExportFilter, sink: ExportSink): Promise<number> {
  sink.signal.throwIfAborted();
  // The table as it is now: games finished while the export runs are the next export's.
  const { snapshot: head, stored } = await log.latest(tableId);
  if (!stored) return 0;
  const from = await startOf(log, tableId, head.version, filter);
  if (from > head.version) return 0;
  const stopAt = filter.finishedBefore === null ? Infinity : filter.finishedBefore + CLOCK_MARGIN_MS;
  // Reading from the version before `from` holds a void's cards.
  let previous: TableSnapshot | null = null;
  let sent = 0;
  const first = Math.max(FIRST_VERSION, from - 1);
  for await (const snapshot of readVersions(log, tableId, first, head.version, sink.signal)) {
    if (snapshot.updatedAt >= stopAt) break;
    const finished = snapshot.finishedGame;
    if (snapshot.version >= from && finished && inWindow(finished.finishedAt, filter)) {
      const played =
        holdsCardsOf(snapshot) === "this"
          ? snapshot
          : (previous ?? (await mustRead(log, tableId, snapshot.version - 1)));
      await sink.send(exportedGame(snapshot, played));
      sent++;
    }
    previous = snapshot;
  }
  return sent;
}

/**
 * The record of game `gameId` of the table, found by bisection (about 2 log2(versions) point reads);
 * null while it is not over, and for a game id the table never had (another table's included).
 */
export async function findGame(log: GameLog, tableId: number, gameId: string): Promise<ExportedGame | null> {
  const gameNumber = gameNumberOf(tableId, gameId);
  if (gameNumber === null) return null;
  const { snapshot: head, stored } = await log.latest(tableId);
  if (!stored || gameNumber > head.gameNumber) return null;
  // The game being played: not over, and no search of the history needed to say so.
  if (gameNumber === head.gameNumber && head.gameState !== "STATUS_RIVER") return null;
  const { snapshot: finishing } = await firstVersionWhere(
    log,
    tableId,
    FIRST_VERSION,
    head.version,
    (s) => s.gameNumber > gameNumber || (s.gameNumber === gameNumber && s.gameState === "STATUS_RIVER"),
  );
  // A game cleared before its deal (never played) finished nothing.
  if (!finishing || finishing.finishedGame?.gameId !== gameId) return null;
  const played = holdsCardsOf(finishing) === "this" ? finishing : await mustRead(log, tableId, finishing.version - 1);
  return exportedGame(finishing, played);
}

const inWindow = (finishedAt: number, { finishedAfter, finishedBefore }: ExportFilter): boolean =>
  (finishedAfter === null || finishedAt >= finishedAfter) && (finishedBefore === null || finishedAt < finishedBefore);

/** The first version of the table that may hold a game the filter admits. */
async function startOf(log: GameLog, tableId: number, last: number, filter: ExportFilter): Promise<number> {
  let from = filter.after?.tableId === tableId ? filter.after.version + 1 : FIRST_VERSION;
  if (filter.finishedAfter !== null && from <= last) {
    const bound = filter.finishedAfter - CLOCK_MARGIN_MS;
    from = (await firstVersionWhere(log, tableId, from, last, (s) => s.updatedAt >= bound)).version;
  }
  return from;
}

/**
 * The first version in lo..hi whose snapshot meets `reached` (false before it, true from it on) and
 * that snapshot, by bisection: about log2(hi - lo) point reads. hi + 1 and null when none does.
 */
async function firstVersionWhere(
  log: GameLog,
  tableId: number,
  lo: number,
  hi: number,
  reached: (snapshot: TableSnapshot) => boolean,
): Promise<{ version: number; snapshot: TableSnapshot | null }> {
  let found: TableSnapshot | null = null;
  while (lo <= hi) {
    const middle = Math.floor((lo + hi) / 2);
    const snapshot = await mustRead(log, tableId, middle);
    if (reached(snapshot)) {
      found = snapshot;
      hi = middle - 1;
    } else {
      lo = middle + 1;
    }
  }
  return { version: lo, snapshot: found };
}

/** Versions from..to in order, READ_AHEAD reads in flight; stops when the signal aborts. */
async function* readVersions(
  log: Pick<GameLog, "version">,
  tableId: number,
  from: number,
  to: number,
  signal: AbortSignal,
): AsyncGenerator<TableSnapshot> {
  for await (const { version, snapshot } of readAhead((v) => log.version(tableId, v), from, to, READ_AHEAD)) {
    signal.throwIfAborted();
    if (!snapshot) throw missing(tableId, version);
    yield snapshot;
  }
}

async function mustRead(log: GameLog, tableId: number, version: number): Promise<TableSnapshot> {
  const snapshot = await log.version(tableId, version);
  if (!snapshot) throw missing(tableId, version);
  return snapshot;
}

/** Versions 2..latest all exist (the log has no gaps): a missing one is a broken history. */
const missing = (tableId: number, version: number) =>
  new Error(`table ${tableId}: version ${version} is missing from its history`);
