// Which tables had a player's operation lately (the "active" index, the lobby's), or owe a credit
// (the "owing" index, recovery's), read by `_id` alone: the lobby then costs what is active and
// recovery what owes, not every table ever written (personal tables grow with the players, and a
// listing of the `tables` collection reads all of them). The two are kept in one collection, each
// under its own `_id`s.
//
// Time is cut into buckets of BUCKET_MS. Bucket b of an index is a stream of a sequenced log
// (common/sequenced-log.ts) whose entries list the tables noted in it. A process appends the tables
// waiting to be noted in one entry, after reading the bucket to its end: the tables already listed
// are left out, and an append that loses the race for its sequence reads on and tries again, so no
// table is listed twice in a bucket, whichever replicas note it. A table is noted before the
// version that makes it active is stored, so an active table is never missing; a table noted by a
// write that then failed is read and left out by its head's lastActivityAt. A table that owes a
// credit is noted in the owing index when the credit is stored and again by each recovery pass until
// it is delivered (recovery.ts), so recovery finds it from its checkpoint however long ago the
// table was played, and reads no table that owes nothing.
import { PerKeyQueue, UnavailableError } from "@pokerodds/common";
import { SequencedLog, type LogEntry } from "@pokerodds/common/sequenced-log";
import { isDuplicateKey } from "@pokerodds/common/mongo";
import type { Collection, Db } from "mongodb";
import pMap from "p-map";
import { randomUUID } from "node:crypto";
import { ACTIVE_WINDOW_MS } from "./domain/index.js";

export const ACTIVITY = "activity";

/**
 * A bucket's length: a lobby read probes an `_id` per bucket of its window besides the tables, and a
 * writer's clock may run at most this far ahead of a reader's (the read covers one bucket ahead).
 */
export const BUCKET_MS = 5 * 60_000;

/** Buckets read at once: as many as the lobby's window spans (a bucket ahead included), at one go. */
const BUCKETS_AT_ONCE = Math.ceil((ACTIVE_WINDOW_MS + BUCKET_MS) / BUCKET_MS) + 1;

/** Documents deleted by one command when pruning. */
const PRUNED_AT_ONCE = 1_000;

/** Appends racing other replicas' in one bucket: each lost race costs a read. */
const MAX_ATTEMPTS = 60;

type Noted = LogEntry & { tableIds: number[] };

/**
 * How far behind the oldest bucket a reader reads (the lobby's window, recovery's checkpoint) a
 * bucket is kept: a reader that took the checkpoint before it moved may still be reading.
 */
const KEPT_BEHIND_MS = 60 * 60_000;

/** The tables of the lobby (a player's operation) or of recovery (a credit owed). */
export type ActivityKind = "active" | "owing";

/**
 * Recovery's checkpoint over the owing index, a document of its own in the collection (entries are
 * `<kind>-<b>:<seq>`): none until recovery's first pass has ended, which reads every table once
 * (recovery.ts).
 */
const RECOVERED_ID = "recovery:owing-from";
interface Recovered {
  _id: string;
  /** Every table owing a credit is noted in a bucket from this time's on. */
  fromMs: number;
}

/** What this process has read of a bucket: its first `length` entries. */
interface Bucket {
  length: number;
  tables: Set<number>;
}

/** The bucket a time falls in. */
export const bucketOf = (at: number): number => Math.floor(at / BUCKET_MS);

export class ActivityIndex {
  private readonly log: SequencedLog<Noted>;
  /** The collection's documents as such: recovery's checkpoint, and every document when pruning. */
  private readonly documents: Collection<Recovered>;
  private readonly buckets = new Map<number, Bucket>();
  /** Tables waiting to be noted, per bucket: the next append of the bucket takes them all. */
  private readonly waiting = new Map<number, Set<number>>();
  /** One writer per bucket in this process: its own appends never race each other. */
  private readonly writers = new PerKeyQueue();

  constructor(
    db: Db,
    private readonly kind: ActivityKind,
  ) {
    // No hints: the index reads its buckets from the start, never their latest entry.
    this.log = new SequencedLog<Noted>(db.collection(ACTIVITY), { cacheSize: 64, hintStride: Number.MAX_SAFE_INTEGER });
    this.documents = db.collection(ACTIVITY);
  }

  static createIndexes(db: Db): Promise<void> {
    return SequencedLog.createIndexes(db, ACTIVITY);
  }

  /**
   * Notes that `tableId` was active at `at` (a snapshot's lastActivityAt). Free when this process
   * noted or read it in that bucket before; nothing to do when `at` is already out of the window.
   * Tables noted at once in a bucket share one append.
   */
  async note(tableId: number, at: number): Promise<void> {
    const bucket = bucketOf(at);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      if (bucket < this.oldestKept() || this.buckets.get(bucket)?.tables.has(tableId)) return;
      const waiting = this.waiting.get(bucket) ?? new Set<number>();
      this.waiting.set(bucket, waiting.add(tableId));
      // Another note's append may take this table along (or fail for it): then look again.
      await this.writers.run(String(bucket), () => this.appendWaiting(bucket));
    }
    throw new UnavailableError(`the activity of table ${tableId} could not be noted; retry`);
  }

  /**
   * Every table noted active within the lobby's window before `now` (and a bucket after it, for a
   * writer's clock ahead of this one's): a superset of the tables whose head says they are active.
   */
  activeAt(now: number): Promise<number[]> {
    return this.notedBetween(now - ACTIVE_WINDOW_MS, now + BUCKET_MS);
  }

  /** Every table noted between `from` and `to` (a superset of those whose head says so). */
  async notedBetween(from: number, to: number): Promise<number[]> {
    const buckets = [];
    for (let bucket = bucketOf(from); bucket <= bucketOf(to); bucket++) buckets.push(bucket);
    // A few at once: after an outage, recovery reads every bucket since its checkpoint.
    const read = await pMap(buckets, (bucket) => this.read(bucket), { concurrency: BUCKETS_AT_ONCE });
    return [...new Set(read.flatMap(({ tables }) => [...tables]))].sort((a, b) => a - b);
  }

  /** Recovery's checkpoint, kept over the owing index (recovery.ts); null while no pass has covered every table. */
  async recoveredFrom(): Promise<number | null> {
    return (await this.documents.findOne({ _id: RECOVERED_ID }))?.fromMs ?? null;
  }

  /**
   * Moves the checkpoint forward to `fromMs`. A read-then-write on FerretDB: a race can leave an
   * earlier replica's value, which only makes the next pass read a little more.
   */
  async markRecoveredFrom(fromMs: number): Promise<void> {
    try {
      await this.documents.updateOne({ _id: RECOVERED_ID }, { $max: { fromMs } }, { upsert: true });
    } catch (error) {
      // Two first checkpoints raced to insert the document: the other one is in.
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** Forgets recovery's checkpoint: the next pass reads every table, as the first one did. */
  async forgetRecovered(): Promise<void> {
    await this.documents.deleteOne({ _id: RECOVERED_ID });
  }

  /**
   * Deletes this index's buckets that no reader reads again: KEPT_BEHIND_MS before the lobby's window
   * (active), before recovery's checkpoint (owing; none before its first checkpoint). The collection
   * so holds about an hour and a half of buckets, and listing its ids (a scan on FerretDB) stays that
   * small. Returns the documents deleted.
   */
  async prune(now: number): Promise<number> {
    const from = this.kind === "active" ? now - ACTIVE_WINDOW_MS : await this.recoveredFrom();
    if (from === null) return 0;
    // Never from ahead of this clock: a checkpoint a clock ahead set would take the current buckets.
    const before = bucketOf(Math.min(from, now) - KEPT_BEHIND_MS);
    // Every document of a bucket has an `_id` from `<kind>-<bucket>:` on (its entries and their keys).
    const prefix = `${this.kind}-`;
    const ids = await this.documents
      .find({ _id: { $gte: prefix, $lt: `${this.kind}.` } }, { projection: { _id: 1 } })
      .toArray();
    const bucketOfId = (id: string) => Number(id.slice(prefix.length, id.indexOf(":")));
    const old = ids.map(({ _id }) => _id).filter((id) => bucketOfId(id) < before);
    for (let start = 0; start < old.length; start += PRUNED_AT_ONCE) {
      await this.documents.deleteMany({ _id: { $in: old.slice(start, start + PRUNED_AT_ONCE) } });
    }
    return old.length;
  }

  /** Appends the bucket's waiting tables that it does not list yet, as one entry after its last. */
  private async appendWaiting(bucket: number): Promise<void> {
    const waiting = this.waiting.get(bucket);
    if (!waiting) return;
    this.waiting.delete(bucket);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const read = await this.read(bucket);
      const tableIds = [...waiting].filter((tableId) => !read.tables.has(tableId));
      if (tableIds.length === 0) return;
      const stream = this.streamOf(bucket);
      const entry = { stream, seq: read.length + 1, key: `${stream}:${randomUUID()}`, tableIds };
      const appended = await this.log.append(entry);
      if (appended.kind === "appended") this.add(read, entry.seq, tableIds);
      // Taken by another replica's tables: read on and try after them.
      if (appended.kind !== "seqTaken") return;
    }
    // Its message reaches the client: it names no bucket.
    throw new UnavailableError("the table's activity could not be noted; retry");
  }

  /** The bucket as stored: what this process read of it, then the entries after that. */
  private async read(bucket: number): Promise<Bucket> {
    this.forgetOld();
    let read = this.buckets.get(bucket);
    if (!read) {
      read = { length: 0, tables: new Set() };
      this.buckets.set(bucket, read);
    }
    for (;;) {
      const seq = read.length + 1;
      const entry = await this.log.entry(this.streamOf(bucket), seq);
      if (!entry) return read;
      this.add(read, seq, entry.tableIds);
    }
  }

  private streamOf(bucket: number): string {
    return `${this.kind}-${bucket}`;
  }

  /** Entry `seq` read: counted once, whichever of two concurrent reads of the bucket gets there first. */
  private add(read: Bucket, seq: number, tableIds: readonly number[]): void {
    if (seq !== read.length + 1) return;
    read.length = seq;
    for (const tableId of tableIds) read.tables.add(tableId);
  }

  /** Buckets before the lobby's window (and one for clocks apart) are never read again. */
  private oldestKept(): number {
    return bucketOf(Date.now() - ACTIVE_WINDOW_MS) - 1;
  }

  private forgetOld(): void {
    const oldest = this.oldestKept();
    for (const bucket of this.buckets.keys()) if (bucket < oldest) this.buckets.delete(bucket);
    for (const bucket of this.waiting.keys()) if (bucket < oldest) this.waiting.delete(bucket);
  }
}
