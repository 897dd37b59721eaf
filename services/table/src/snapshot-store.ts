// The table's history, and the one place where a table changes: one sequenced log
// (common/sequenced-log.ts) whose streams are the tables. Version n of table t is the entry
// "<t>:<n>", holding the operation's key, its answer and the snapshot: in full, or as its changes
// since the last version kept in full (stored-version.ts).
//
// Concurrency control is the log's unique insert: a writer computes version v + 1 from version v,
// and its insert succeeds only if nobody took v + 1 (versions are contiguous, so v was then the
// latest) and the operation key was never used. The entry is the head the moment it is stored:
// there is nothing to publish afterwards, so a crash between two writes leaves nothing half done.
//
// Round trips: reading a table is one `_id` probe of the version after the newest this process
// knows; a change adds one insert (the entry and its key document in one command). A table's first
// change also registers the table, and a player's operation notes the table in the active index, a
// new credit owed in the owing one (activity-index.ts: a few commands the first time in a bucket,
// then none).
import { backoff, IdempotencyMismatchError, PerKeyQueue, UnavailableError } from "@pokerodds/common";
import { insertUnlessPresent } from "@pokerodds/common/mongo";
import { forgetOldest } from "@pokerodds/common/recency";
import { SequencedLog, type LogEntry } from "@pokerodds/common/sequenced-log";
import type { Collection, Db } from "mongodb";
import pMap from "p-map";
import { newServerSeed } from "@pokerodds/common/server-seed";
import { emptyTable, owesNewCredit, withCommittedDeck, type Outcome, type TableSnapshot } from "./domain/index.js";
import { ActivityIndex, bucketOf } from "./activity-index.js";
import { changesSince, withChanges, type VersionChanges } from "./stored-version.js";
import { gamesFinished, payoutsCents } from "./metrics.js";

export const HISTORY = "history";
const TABLES = "tables";

/** Enough for 16+ writers of two replicas on one table; beyond it the caller retries with its key. */
const MAX_ATTEMPTS = 60;

/** One stored version of a table: its snapshot in full, or its changes since one. */
type Change = LogEntry & {
  /** The request terms of the operation, so a key replayed with other terms is refused. */
  fingerprint: string;
  /** The operation's answer, replayed to a retry under the same key. */
  result: unknown;
  createdAt: Date;
} & ({ snapshot: TableSnapshot; since?: never } | (VersionChanges & { snapshot?: never }));

/** A stored version read back, and the version kept in full that it was built from (itself, if kept so). */
interface Resolved {
  snapshot: TableSnapshot;
  full: TableSnapshot;
}

/**
 * Heads read at once where every table, or every active one, is read (the audit, recovery, the
 * lobby): all at once would queue every table's read ahead of the players' requests.
 */
export const HEADS_AT_ONCE = 8;

/**
 * Tables whose latest version and versions kept in full this process remembers at least (FullVersions),
 * besides the tables active lately (cacheActive).
 */
const CACHED_TABLES = 500;

/** The passes that read a set of tables again and again, each sizing the caches to its set (cacheActive). */
type TablesPass = "lobby" | "recovery";

/**
 * A table's versions kept in full that this process read or wrote: the newest, which the table's
 * operations build on, and the last older one read (a walk through the history, an export or a
 * watcher catching up), so that neither costs the other a read.
 */
interface FullVersions {
  newest: TableSnapshot;
  older?: TableSnapshot;
}

interface StoredOp {
  version: number;
  fingerprint: string;
  result: unknown;
}

export interface StoredOperation {
  /** Unique per change ever stored; a function of the new version for housekeeping changes. */
  key: string | ((version: number) => string);
  fingerprint: string;
}

interface Latest {
  snapshot: TableSnapshot;
  /** False for a table never written: the domain's empty table, version 1, not stored. */
  stored: boolean;
}

type Applied<R> =
  /** This call stored the change. */
  | { kind: "stored"; result: R; snapshot: TableSnapshot }
  /** The domain changed nothing (a NACK, a replay it recognised): nothing stored. */
  | { kind: "unchanged"; result: R; snapshot: TableSnapshot }
  /** The operation key had been applied before: its first answer. */
  | { kind: "replayed"; result: R; version: number };

const opOf = (change: Change): StoredOp => ({
  version: change.seq,
  fingerprint: change.fingerprint,
  result: change.result,
});

/**
 * How far ahead of this process's clock a change may be timed, to follow the version before it.
 * Replicas' clocks further apart than this are a fault to mend (NTP), not a time to take on: a
 * replica hours ahead would otherwise hold every later change on its tables at its time.
 */
export const MAX_CLOCK_LEAD_MS = 5_000;

/**
 * A change's time: this process's clock, or the version before it when that is later by at most
 * MAX_CLOCK_LEAD_MS. So a table's history does not go back in time while replicas' clocks agree to
 * within that, and a bet is never timed after the close that follows it (domain/stage-times.ts).
 * Recovery's notes keep the clock itself, which their buckets are read by.
 */
const changeTime = (clock: number, previous: number): number =>
  Math.max(clock, Math.min(previous, clock + MAX_CLOCK_LEAD_MS));

export class SnapshotStore {
  private readonly log: SequencedLog<Change>;
  private readonly tables: Collection<{ _id: number; createdAt: Date }>;
  private readonly queue = new PerKeyQueue();
  private readonly storedListeners = new Set<(snapshot: TableSnapshot) => void>();
  private readonly fullVersions = new Map<number, FullVersions>();
  private fullCapacity = CACHED_TABLES;
  /** How many tables each pass read last time. */
  private readonly passTables = new Map<TablesPass, number>();
  /** The tables with a player's operation lately: the lobby's pass. */
  readonly activity: ActivityIndex;
  /** The tables owing a credit: recovery's frequent pass. */
  readonly owing: ActivityIndex;

  constructor(db: Db) {
    // A few hundred tables' snapshots at most are remembered (each a few KB to a few tens of KB).
    // A table's first stored version is 2: version 1 is the domain's empty table, never stored.
    this.log = new SequencedLog<Change>(db.collection(HISTORY), { cacheSize: CACHED_TABLES, firstSeq: 2 });
    this.tables = db.collection(TABLES);
    this.activity = new ActivityIndex(db, "active");
    this.owing = new ActivityIndex(db, "owing");
  }

  /** The latest snapshot (the empty table if none). */
  async latest(tableId: number): Promise<Latest> {
    const { snapshot, stored } = await this.head(tableId);
    return { snapshot, stored };
  }

  /**
   * Sizes the caches to hold the heads of the `tables` a pass reads (the lobby's over the tables
   * active lately, recovery's over those owing a credit) besides the others: with more active tables
   * than cached, each pass pushed out the heads the next one read first, and every head read, the
   * players' too, started cold (~10 reads instead of 1). The larger of the two passes' last sets
   * decides, so the caches shrink again once fewer tables are active (the heads read least lately
   * are forgotten), rather than holding the busiest hour's tables for good.
   */
  cacheActive(pass: TablesPass, tables: number): void {
    this.passTables.set(pass, tables);
    this.fullCapacity = CACHED_TABLES + Math.max(...this.passTables.values());
    this.log.resize(this.fullCapacity);
    forgetOldest(this.fullVersions, this.fullCapacity);
  }

  /** Whether the table has a version after `version` (one `_id` read): none means `version` is its latest. */
  async storedAfter(tableId: number, version: number): Promise<boolean> {
    return this.log.has(String(tableId), version + 1);
  }

  /** The snapshot stored as `version` (one `_id` read), or null when there is none (yet). */
  async version(tableId: number, version: number): Promise<TableSnapshot | null> {
    const change = await this.log.entry(String(tableId), version);
    return change ? (await this.resolve(tableId, change)).snapshot : null;
  }

  /**
   * Calls `listener` with every snapshot this process stores, as soon as it is stored (the watchers
   * of this replica learn of its own changes without a read). It runs inside the change's write and
   * must not throw. Returns the unsubscribe.
   */
  onStored(listener: (snapshot: TableSnapshot) => void): () => void {
    this.storedListeners.add(listener);
    return () => this.storedListeners.delete(listener);
  }

  /** Tables with at least one stored version (public ones included). */
  async tableIds(): Promise<number[]> {
    const docs = await this.tables.find({}).toArray();
    return docs.map((d) => d._id).sort((a, b) => a - b);
  }

  /**
   * Those of `tableIds` with a stored version: one `_id` read each, a few at once, whatever the
   * number of tables written (a range of `_id`s scans the collection on FerretDB).
   */
  async registeredAmong(tableIds: readonly number[]): Promise<number[]> {
    const registered = await pMap(tableIds, (tableId) => this.isRegistered(tableId), { concurrency: HEADS_AT_ONCE });
    return tableIds.filter((_, i) => registered[i]);
  }

  async isRegistered(tableId: number): Promise<boolean> {
    return (await this.tables.findOne({ _id: tableId })) !== null;
  }

  /** The stored change of an operation key, if any, by its key document. */
  async findOp(opKey: string): Promise<StoredOp | null> {
    const change = await this.log.findByKey(opKey);
    return change ? opOf(change) : null;
  }

  /**
   * The same, and when the key document is missing (on MongoDB only, after a crash between an
   * entry's insert and its key document's) the table's versions stored since `since`, newest first,
   * `maxVersions` at most: `_id` reads of what was stored since then, never a read of the whole
   * history (the log's `deep` lookup scans it on FerretDB, and a caller could ask for keys that were
   * never stored). The bound keeps a busy table's walk short: a request that finds nothing under its
   * key (a leave that lost the race for the seat) walked every version of the last seconds.
   */
  async findOpSince(tableId: number, opKey: string, since: Date, maxVersions: number): Promise<StoredOp | null> {
    const found = await this.findOp(opKey);
    if (found) return found;
    const stream = String(tableId);
    let change = await this.log.latest(stream);
    for (let read = 1; change && change.createdAt >= since && read <= maxVersions; read++) {
      if (change.key === opKey) return opOf(change);
      change = await this.log.entry(stream, change.seq - 1);
    }
    return null;
  }

  /**
   * Loads versions in bulk (benchmarks, fixtures), each under its own key, kept in full: each table's
   * consecutive versions, of one table or of many.
   */
  async load(snapshots: readonly TableSnapshot[]): Promise<void> {
    const tableIds = [...new Set(snapshots.map((snapshot) => snapshot.tableId))];
    if (tableIds.length === 0) return;
    // Unordered: a table registered before stays so, and the others are registered all the same.
    await insertUnlessPresent(() =>
      this.tables.insertMany(
        tableIds.map((_id) => ({ _id, createdAt: new Date() })),
        { ordered: false },
      ),
    );
    await this.log.load(
      snapshots.map((snapshot) => ({
        stream: String(snapshot.tableId),
        seq: snapshot.version,
        key: `load:${snapshot.tableId}:${snapshot.version}`,
        fingerprint: "",
        snapshot,
        result: null,
        createdAt: new Date(snapshot.updatedAt),
      })),
    );
  }

  /**
   * Applies `decide` to the latest snapshot and stores its next snapshot under the operation's key,
   * deciding again on a fresher snapshot whenever another writer got there first. `decide` may
   * throw (a refusal); it runs once per attempt, on the snapshot the attempt would replace. Nothing
   * is done if `signal` aborts (its caller gave up) while the change waits for the table's earlier
   * ones, or reads the head an attempt decides on.
   */
  apply<R>(
    tableId: number,
    op: StoredOperation,
    decide: (latest: TableSnapshot, now: number) => Outcome<R>,
    signal?: AbortSignal,
  ): Promise<Applied<R>> {
    return this.queue.run(String(tableId), () => this.applyInTurn(tableId, op, decide, signal), signal);
  }

  /** `apply`, once this process's earlier changes of the table are done. */
  private async applyInTurn<R>(
    tableId: number,
    op: StoredOperation,
    decide: (latest: TableSnapshot, now: number) => Outcome<R>,
    signal: AbortSignal | undefined,
  ): Promise<Applied<R>> {
    let base = await this.head(tableId);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      // Read, nothing written yet: a caller that gave up meanwhile (a stalled read) has it not made.
      signal?.throwIfAborted();
      const clock = Date.now();
      const now = changeTime(clock, base.snapshot.updatedAt);
      const decided = decide(base.snapshot, now);
      const { result } = decided;
      if (!decided.next) return { kind: "unchanged", result, snapshot: base.snapshot };
      // Every game is committed to its deck in the first version that stores it (docs/provably-fair.md).
      const next = withCommittedDeck(decided.next, newServerSeed);
      if (next.tableId !== tableId || next.version !== base.snapshot.version + 1) {
        throw new Error(`table ${tableId}: the domain produced version ${next.version} from ${base.snapshot.version}`);
      }
      // Every table that ever holds money is listed before its first version exists.
      if (!base.stored) await insertUnlessPresent(() => this.tables.insertOne({ _id: tableId, createdAt: new Date() }));
      // Before the version: an active table, or one owing a credit, is never missing from the index.
      if (!base.stored || next.lastActivityAt !== base.snapshot.lastActivityAt)
        await this.activity.note(tableId, next.lastActivityAt);
      const owes = owesNewCredit(base.snapshot, next);
      if (owes) await this.owing.note(tableId, clock);
      const key = typeof op.key === "function" ? op.key(next.version) : op.key;
      const changes = base.stored ? changesSince(base.full, next) : null;
      const change: Change = {
        stream: String(tableId),
        seq: next.version,
        key,
        fingerprint: op.fingerprint,
        ...(changes ?? { snapshot: next }),
        result,
        createdAt: new Date(now),
      };
      const appended = await this.log.append(change);
      if (appended.kind === "appended") {
        this.rememberFull(changes ? base.full : next);
        countFinishedGame(next);
        for (const listener of this.storedListeners) listener(next);
        if (owes) await this.noteStillOwing(tableId, clock);
        return { kind: "stored", result, snapshot: next };
      }
      if (appended.kind === "keyTaken") {
        if (appended.first.fingerprint !== op.fingerprint) {
          throw new IdempotencyMismatchError();
        }
        return { kind: "replayed", result: appended.first.result as R, version: appended.first.seq };
      }
      base = { ...(await this.resolve(tableId, appended.winner)), stored: true };
      // Only another replica can have won (this one queues its own writers): spread out.
      await backoff(attempt);
    }
    throw new UnavailableError(`table ${tableId} is busy; retry with the same idempotency key`);
  }

  /**
   * A version that owes is noted before it is stored, at `notedAt`. Stored in a later bucket (a
   * stalled process or insert), recovery may meanwhile have read the head before it and moved its
   * checkpoint past that note: the table is noted again now. The version is in either way; a note
   * that fails now leaves only the gap the stall opened.
   */
  private async noteStillOwing(tableId: number, notedAt: number): Promise<void> {
    if (bucketOf(Date.now()) === bucketOf(notedAt)) return;
    await this.owing.note(tableId, Date.now()).catch(() => undefined);
  }

  /** The latest version (the empty table, version 1, if none is stored). */
  private async head(tableId: number): Promise<Resolved & { stored: boolean }> {
    const change = await this.log.latest(String(tableId));
    if (!change) {
      const empty = emptyTable(tableId, Date.now());
      return { snapshot: empty, full: empty, stored: false };
    }
    return { ...(await this.resolve(tableId, change)), stored: true };
  }

  /** A stored version's snapshot: kept in full, or rebuilt from the full version its changes name. */
  private async resolve(tableId: number, change: Change): Promise<Resolved> {
    if (change.snapshot) return { snapshot: change.snapshot, full: change.snapshot };
    const known = this.fullVersions.get(tableId);
    let full = [known?.newest, known?.older].find((snapshot) => snapshot?.version === change.since);
    if (!full) {
      full = (await this.log.entry(String(tableId), change.since))?.snapshot;
      if (!full) throw new Error(`table ${tableId}: version ${change.since}, under ${change.seq}, is not kept in full`);
    }
    this.rememberFull(full);
    return { snapshot: withChanges(full, change), full };
  }

  /** Keeps `snapshot` among its table's versions kept in full, as the table used last (recency.ts). */
  private rememberFull(snapshot: TableSnapshot): void {
    const known = this.fullVersions.get(snapshot.tableId);
    this.fullVersions.delete(snapshot.tableId);
    this.fullVersions.set(snapshot.tableId, keptInFull(known, snapshot));
    forgetOldest(this.fullVersions, this.fullCapacity);
  }
}

/** A table's versions kept in full once `snapshot` is among them: as the newest, or else as the older one. */
function keptInFull(known: FullVersions | undefined, snapshot: TableSnapshot): FullVersions {
  if (!known) return { newest: snapshot };
  if (snapshot === known.newest || snapshot === known.older) return known;
  if (snapshot.version >= known.newest.version) return { newest: snapshot, older: known.older };
  return { newest: known.newest, older: snapshot };
}

function countFinishedGame(snapshot: TableSnapshot): void {
  const record = snapshot.finishedGame;
  if (!record) return;
  gamesFinished.inc({ outcome: record.outcome });
  payoutsCents.inc(record.payoutsCents);
}
