// WatchTable: a table's stored versions, pushed to its watchers as they appear.
//
// Any replica may store a table's next version, and FerretDB has no change streams, so each replica
// keeps one feed per watched table: its own writes reach the feed at once (SnapshotStore.onStored),
// other replicas' by polling the log for the version after the feed's head, one `_id` point read per
// table per interval however many watchers it has. Versions are contiguous and never change once
// stored, so a version number is a cursor valid on every replica: a watcher that moves to another
// replica (its replica died) and asks for the versions after the last one it got misses nothing and
// repeats nothing. A watcher reads at its own pace (from the feed's recent snapshots, else the log);
// one too far behind skips to the current state rather than replaying history.
import { UnavailableError, WakeList, type Logger } from "@pokerodds/common";
import { WATCH_REPLAY_MAX } from "@pokerodds/common/limits";
import type { TableSnapshot } from "./domain/index.js";
import { readAhead } from "./read-ahead.js";
import type { SnapshotStore } from "./snapshot-store.js";
import { watchStreams } from "./metrics.js";

/** Snapshots a feed keeps in memory: its watchers rarely read the log. */
const RECENT = 16;
/** Versions of a watcher's replay read at once. */
export const REPLAY_READS_AT_ONCE = 8;

interface WatchSettings {
  /** How often a watched table's log is probed for other replicas' versions. */
  pollIntervalMs: number;
  logger: Logger;
}

/** Where a watch begins, the watcher's cursor and what it asks without one. */
export interface WatchStart {
  /** The versions after this one; 0: no cursor. */
  afterVersion: number;
  /**
   * Without a cursor, or with one too far behind: the last this many versions (at most
   * WATCH_REPLAY_MAX), not the current one alone.
   */
  recentVersions: number;
}

/** Where a watch starts: the versions after the cursor, unless it is unknown, ahead or too far behind. */
export function firstVersion({ afterVersion, recentVersions }: WatchStart, head: number): number {
  if (afterVersion > head) return head;
  const recent = Math.max(1, head + 1 - Math.min(Math.max(recentVersions, 1), WATCH_REPLAY_MAX));
  if (afterVersion <= 0) return recent;
  return head - afterVersion > WATCH_REPLAY_MAX ? recent : afterVersion + 1;
}

/** One table's versions as this replica learns them; shared by the table's watchers here. */
class TableFeed {
  head = 0;
  watchers = 0;
  readonly ready: Promise<void>;
  private readonly recent = new Map<number, TableSnapshot>();
  private readonly waiting = new WakeList();
  private readonly timer: NodeJS.Timeout;
  private reading: Promise<void> | undefined;
  /** Whether the last read of the log failed (the database is away): the head may be behind. */
  failing = false;

  constructor(
    readonly tableId: number,
    private readonly store: SnapshotStore,
    private readonly settings: WatchSettings,
  ) {
    this.ready = store.latest(tableId).then(({ snapshot }) => this.advance(snapshot));
    this.ready.catch(() => {}); // each watcher awaits it and ends with the error
    this.timer = setInterval(() => void this.catchUp(), settings.pollIntervalMs).unref();
  }

  /** A version this process stored: the next one goes out at once; one further on first needs those between. */
  stored(snapshot: TableSnapshot): void {
    if (snapshot.version <= this.head) return;
    this.recent.set(snapshot.version, snapshot);
    if (snapshot.version === this.head + 1) this.advance(snapshot);
    else void this.catchUp();
  }

  /** Reads the versions after the head until one is missing; one read at a time per feed. */
  catchUp(): Promise<void> {
    this.reading ??= this.readAhead().finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** The snapshot of `version`, or null when the log no longer has it (version 1 is never stored). */
  async snapshot(version: number): Promise<TableSnapshot | null> {
    return this.recent.get(version) ?? (await this.store.version(this.tableId, version));
  }

  /** Resolves when the head moves; rejects with the signal's reason when it aborts first. */
  changed(signal: AbortSignal): Promise<void> {
    return this.waiting.wait(signal);
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async readAhead(): Promise<void> {
    try {
      for (;;) {
        const next = this.head + 1;
        const snapshot = this.recent.get(next) ?? (await this.store.version(this.tableId, next));
        if (!snapshot) break;
        // This process may have stored it meanwhile (the head moved on): read on from there.
        if (next === this.head + 1) this.advance(snapshot);
      }
      if (this.failing) this.settings.logger.info({ tableId: this.tableId }, "table watch: the log answers again");
      this.failing = false;
    } catch (error) {
      // The database is away: the next tick tries again; watchers stay open and miss nothing.
      if (!this.failing) this.settings.logger.warn({ err: error, tableId: this.tableId }, "table watch: poll failed");
      this.failing = true;
    }
  }

  private advance(snapshot: TableSnapshot): void {
    if (snapshot.version <= this.head) return;
    this.head = snapshot.version;
    this.recent.set(snapshot.version, snapshot);
    for (const version of this.recent.keys()) if (version <= this.head - RECENT) this.recent.delete(version);
    this.waiting.wake();
  }
}

export interface Watch {
  /** Called once the table's current version is known, before the first snapshot is sent. */
  ready(): void;
  /** Sends one version; `latestVersion` is the table's latest as this replica knows it. */
  send(version: number, snapshot: TableSnapshot, latestVersion: number): Promise<void>;
  signal: AbortSignal;
}

/** Every watched table's feed on this replica; a feed lives while its table has watchers here. */
export class TableWatchers {
  private readonly feeds = new Map<number, TableFeed>();

  constructor(
    private readonly store: SnapshotStore,
    private readonly settings: WatchSettings,
  ) {
    store.onStored((snapshot) => this.feeds.get(snapshot.tableId)?.stored(snapshot));
  }

  /** Sends the table's versions from `start` (see firstVersion), then each new one, until the signal aborts. */
  async follow(tableId: number, start: WatchStart, watch: Watch): Promise<never> {
    const { afterVersion } = start;
    const feed = this.join(tableId);
    try {
      await feed.ready;
      // A cursor ahead of this feed may be a version another replica stored since the last poll.
      if (afterVersion > feed.head) await feed.catchUp();
      // Still ahead after a failed read, it may be real: refuse (the caller subscribes again) rather
      // than send this feed's head as the current state, which would take the client back.
      if (afterVersion > feed.head && feed.failing) throw new UnavailableError("the table's log cannot be read");
      watch.ready();
      let next = firstVersion(start, feed.head);
      // The replay up to the head known now: most of it is older than the recent snapshots, and its
      // reads in a row would hold the watcher's first versions for as many round trips.
      const replay = readAhead((version) => feed.snapshot(version), next, feed.head, REPLAY_READS_AT_ONCE);
      for await (const { version, snapshot } of replay) {
        watch.signal.throwIfAborted();
        if (snapshot) await watch.send(version, snapshot, feed.head);
        next = version + 1;
      }
      for (;;) {
        watch.signal.throwIfAborted();
        if (feed.head - next >= WATCH_REPLAY_MAX) next = feed.head;
        if (next > feed.head) {
          await feed.changed(watch.signal);
          continue;
        }
        const snapshot = await feed.snapshot(next);
        if (snapshot) await watch.send(next, snapshot, feed.head);
        // Only version 1 (the empty table) is never stored: the first stored version follows it.
        next++;
      }
    } finally {
      this.leave(feed);
    }
  }

  private join(tableId: number): TableFeed {
    let feed = this.feeds.get(tableId);
    if (!feed) {
      feed = new TableFeed(tableId, this.store, this.settings);
      this.feeds.set(tableId, feed);
    }
    feed.watchers++;
    watchStreams.inc();
    return feed;
  }

  private leave(feed: TableFeed): void {
    watchStreams.dec();
    if (--feed.watchers > 0) return;
    feed.close();
    if (this.feeds.get(feed.tableId) === feed) this.feeds.delete(feed.tableId);
  }
}
