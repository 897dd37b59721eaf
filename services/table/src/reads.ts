// The state of one table, its versions as they are stored, the lobby and a player's seats.
import { NotFoundError } from "@pokerodds/common";
import { requireGameId } from "@pokerodds/common/limits";
import { CoalescedRead } from "@pokerodds/common/coalesced-read";
import type { CallScope } from "./dependencies.js";
import {
  lobbyEntry,
  lobbyListedUntil,
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
import { createHash } from "node:crypto";

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
  const gameId = requireGameId("game_id", request.gameId);
  const table = await parts.directory.require(request.tableId, scope);
  TableDirectory.requireAccess(table, request.caller.playerId, request.caller.isAdmin);
  const game = await findGame(parts.store, request.tableId, gameId);
  if (!game) throw new NotFoundError(`table ${request.tableId} has no finished game ${gameId}`);
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
 * which decides (lobbyOf). A pass over them costs a read per active table, so calls share passes
 * (CoalescedRead), and each answer lays over its pass every change this replica stored since that
 * pass began: this replica's own changes show at once with few active tables, within the relisting
 * age with many (below).
 * - A pass that began at most the pass age ago answers, with no read. The pass age is `maxAgeMs`,
 *   or, with many active tables, their number over LOBBY_HEAD_READS_PER_S (`passAge`): at 4,000
 *   active tables, passes a second apart took about half of the 2 cores (the database and this
 *   service) while anyone polled the lobby; now they read at most that many heads a second.
 * - An older one answers too while it began at most the pass age and twice its own duration ago,
 *   and the call starts a new pass for the calls after it rather than wait for it: at thousands of
 *   active tables a pass takes most of a second, which every such call would otherwise wait. The
 *   next pass, taking about as long, ends within that limit, so a crowd polling the lobby never
 *   waits, and another replica's change shows within the pass age and two passes' time (4 s and
 *   about 1.6 s at 4,000 active tables; the lobby is a listing, not a promise per table: a table's
 *   own state is read fresh).
 * - Otherwise (the lobby's first call, one after a pause, any call with a `maxAgeMs` of 0) the call
 *   waits for a pass: the running one if it began within that limit.
 * A crowd polling the lobby costs at most a pass per pass age, however many they are, and a pass
 * costs the active tables, however many were ever written.
 *
 * The lobby listed is kept (`Listed`) until a new pass, an active table leaving the window, or the
 * relisting age after a change stored here that changes what a table adds to it (a bet does not):
 * listing them again for every call cost, at 4,000 active tables, about 3 ms of this service's CPU
 * a call and 2 ms of the gateway's (bench/lobby.ts). A caller that names the etag of the lobby it
 * holds is told `unchanged`, and nothing is sent.
 */
export function lobbyReader(
  parts: TableParts,
  maxAgeMs: number,
  { headReadsPerS = LOBBY_HEAD_READS_PER_S, tablesListedPerS = LOBBY_TABLES_LISTED_PER_S } = {},
): (cachedEtag: string) => Promise<LobbyAnswer> {
  // Times on the monotonic clock: a wall clock stepped back would keep an old pass answering.
  let last: { beganAt: number; tookMs: number; heads: TableSnapshot[]; tablesRead: number } | undefined;
  let listed: Listed | undefined;
  let passing = false;
  const ageOfLast = () => (last === undefined ? Infinity : performance.now() - last.beganAt);
  const passAgeMs = () => passAge(maxAgeMs, last?.tablesRead ?? 0, headReadsPerS);
  const staleLimitMs = () => (last === undefined || maxAgeMs === 0 ? 0 : passAgeMs() + 2 * last.tookMs);
  // What this replica stored while a pass runs or may answer (a pass reads only what was stored
  // before it began); nothing while the lobby goes unread, so this holds no more than those moments' writes.
  const storedLately = new Map<number, { snapshot: TableSnapshot; at: number }>();
  parts.store.onStored((snapshot) => {
    if (passing || ageOfLast() <= staleLimitMs()) {
      storedLately.set(snapshot.tableId, { snapshot, at: performance.now() });
      if (listed && !listed.shows(snapshot)) listed.outdated = true;
    }
  });
  const passes = new CoalescedRead(async () => {
    const beganAt = performance.now();
    passing = true;
    try {
      const active = await parts.store.activity.activeAt(Date.now());
      parts.store.cacheActive("lobby", active.length);
      const heads = await storedHeads(parts, active);
      for (const [tableId, { at }] of storedLately) if (at < beganAt) storedLately.delete(tableId);
      last = { beganAt, tookMs: performance.now() - beganAt, heads, tablesRead: active.length };
    } finally {
      passing = false;
    }
  });
  return async (cachedEtag) => {
    const age = ageOfLast();
    const limit = staleLimitMs();
    // A pass already running serves a call if it began within the age the call accepts: else a
    // crowd arriving during a pass would start another, two passes per interval instead of one.
    if (age > limit) await passes.get(Math.max(passAgeMs(), limit));
    // A failed pass is the next waiting call's error; until then the last one answers.
    else if (age > passAgeMs()) passes.get(passAgeMs()).catch(() => {});
    const now = Date.now();
    if (!listed || !listed.answers(last!.heads, now, tablesListedPerS)) {
      listed = new Listed(last!.heads, newestOf(last!.heads, storedLately.values()), now);
    }
    return listed.answer(cachedEtag);
  };
}

/** Head reads a second that the lobby's passes make at most, however many tables are active. */
export const LOBBY_HEAD_READS_PER_S = 1_000;

/** The age a lobby's pass over `tablesRead` heads may reach before calls start the next: `maxAgeMs`, or longer for many tables. */
export function passAge(maxAgeMs: number, tablesRead: number, headReadsPerS = LOBBY_HEAD_READS_PER_S): number {
  return maxAgeMs === 0 ? 0 : Math.max(maxAgeMs, (1000 * tablesRead) / headReadsPerS);
}

/**
 * Tables a second that listing the lobby again for this replica's changes costs at most: at 4,000
 * active tables, a listing at most every 200 ms (relistAge), however many changes come; a few
 * tables are listed again at once. Listed again for each change, the lobby was listed as often as
 * players moved (each sit, leave and stage), and each listing was sent whole to the gateway, which
 * wrote its JSON again: 8 players sitting and leaving at 4,000 active tables cut 32 clients' lobby
 * to 0.29x-0.36x of the lobby alone (0.38x-0.42x since), the moves to about half (bench/lobby.ts).
 */
export const LOBBY_TABLES_LISTED_PER_S = 20_000;

/** How long a lobby listed from `tables` tables stands against this replica's changes once listed. */
export function relistAge(tables: number, tablesListedPerS = LOBBY_TABLES_LISTED_PER_S): number {
  return (1000 * tables) / tablesListedPerS;
}

/** ListTables' answer: the lobby and its etag, or (`unchanged`) only that the caller's is still the lobby. */
export type LobbyAnswer = Lobby & { etag: string; unchanged: boolean };

/** One lobby listed from a pass's heads and the changes stored since, and until when it stands. */
class Listed {
  private readonly lobby: Lobby;
  private readonly etag: string;
  /** What each table read adds to it (lobbyEntry), to tell a change that alters it from one that does not. */
  private readonly entries: Map<number, string | null>;
  private readonly until: number;
  /** When it was listed, on the monotonic clock. */
  private readonly listedAt = performance.now();
  /** A change stored here since alters what it shows: it stands only until its relisting age. */
  outdated = false;

  constructor(
    private readonly passHeads: readonly TableSnapshot[],
    tables: readonly TableSnapshot[],
    private readonly at: number,
  ) {
    this.lobby = lobbyOf(tables, at);
    this.etag = createHash("sha256").update(JSON.stringify(this.lobby)).digest("base64url");
    this.entries = new Map(tables.map((table) => [table.tableId, lobbyEntry(table, at)]));
    this.until = lobbyListedUntil(tables, at);
  }

  /**
   * Whether this is still the lobby to answer at `now`: of the pass with these heads, within its
   * tables' window (a clock stepped back: not known), and, outdated, younger than its relisting age.
   */
  answers(passHeads: readonly TableSnapshot[], now: number, tablesListedPerS: number): boolean {
    if (passHeads !== this.passHeads || now < this.at || now > this.until) return false;
    return !this.outdated || performance.now() - this.listedAt < relistAge(this.entries.size, tablesListedPerS);
  }

  /** Whether the lobby with `snapshot` laid over it is this one. */
  shows(snapshot: TableSnapshot): boolean {
    return (this.entries.get(snapshot.tableId) ?? null) === lobbyEntry(snapshot, Date.now());
  }

  answer(cachedEtag: string): LobbyAnswer {
    if (cachedEtag === this.etag) return { tables: [], totalActivePlayers: 0, etag: this.etag, unchanged: true };
    return { ...this.lobby, etag: this.etag, unchanged: false };
  }
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
