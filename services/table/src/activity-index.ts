// Which tables had a player's operation lately, read by `_id` alone: the lobby and recovery's
// frequent pass then cost what is active, not every table ever written (personal tables grow with
// the players, and a listing of the `tables` collection reads all of them).
//
// Time is cut into buckets of BUCKET_MS. Bucket b is a stream of a sequenced log
// (common/sequenced-log.ts) whose entries are the tables active in it, each once (the entry's key
// names the bucket and the table, so two replicas noting one table store it once). A table is
// noted before the version that makes it active is stored, so an active table is never missing; a
// table noted by a write that then failed is read and left out by its head's lastActivityAt.
import { PerKeyQueue, UnavailableError } from "@pokerodds/common";
import { SequencedLog, type LogEntry } from "@pokerodds/common/sequenced-log";
import type { Db } from "mongodb";
import { ACTIVE_WINDOW_MS } from "./domain/index.js";

export const ACTIVITY = "activity";

/** A bucket's length: a lobby read probes one `_id` per bucket of its window besides the tables. */
export const BUCKET_MS = 5 * 60_000;

/** Tables of one bucket racing to note themselves on other replicas: each lost race costs a read. */
const MAX_ATTEMPTS = 60;

type Noted = LogEntry & { tableId: number };

/** What this process has read of a bucket: its first `length` entries. */
interface Bucket {
  length: number;
  tables: Set<number>;
}

const bucketOf = (at: number): number => Math.floor(at / BUCKET_MS);
const streamOf = (bucket: number): string => `active-${bucket}`;

export class ActivityIndex {
  private readonly log: SequencedLog<Noted>;
  private readonly buckets = new Map<number, Bucket>();
  /** One writer per bucket in this process: its own notes never race each other. */
  private readonly writers = new PerKeyQueue();

  constructor(db: Db) {
    this.log = new SequencedLog<Noted>(db.collection(ACTIVITY), { cacheSize: 64 });
  }

  static createIndexes(db: Db): Promise<void> {
    return SequencedLog.createIndexes(db, ACTIVITY);
  }

  /**
   * Notes that `tableId` was active at `at` (a snapshot's lastActivityAt). Free when this process
   * noted or read it in that bucket before; nothing to do when `at` is already out of the window.
   */
  async note(tableId: number, at: number): Promise<void> {
    const bucket = bucketOf(at);
    if (bucket < this.oldestKept() || this.buckets.get(bucket)?.tables.has(tableId)) return;
    await this.writers.run(String(bucket), async () => {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const read = await this.read(bucket);
        if (read.tables.has(tableId)) return;
        const stream = streamOf(bucket);
        const entry = { stream, seq: read.length + 1, key: `${stream}:${tableId}`, tableId };
        const appended = await this.log.append(entry);
        // Taken by another table of the bucket (another replica's): read on and try after it.
        if (appended.kind === "seqTaken") continue;
        // Appended, or noted before (the key is taken): the next read finds its entry either way.
        if (appended.kind === "appended") this.add(read, entry.seq, tableId);
        return;
      }
      throw new UnavailableError(`the activity of table ${tableId} could not be noted; retry`);
    });
  }

  /** Every table noted active between `from` and `to` (a superset of those whose head says so). */
  async activeBetween(from: number, to: number): Promise<number[]> {
    const tables = new Set<number>();
    for (let bucket = bucketOf(from); bucket <= bucketOf(to); bucket++) {
      for (const tableId of (await this.read(bucket)).tables) tables.add(tableId);
    }
    return [...tables].sort((a, b) => a - b);
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
      const entry = await this.log.entry(streamOf(bucket), seq);
      if (!entry) return read;
      this.add(read, seq, entry.tableId);
    }
  }

  /** Entry `seq` read: counted once, whichever of two concurrent reads of the bucket gets there first. */
  private add(read: Bucket, seq: number, tableId: number): void {
    if (seq !== read.length + 1) return;
    read.length = seq;
    read.tables.add(tableId);
  }

  /** Buckets before the lobby's window (and one for clocks apart) are never read again. */
  private oldestKept(): number {
    return bucketOf(Date.now() - ACTIVE_WINDOW_MS) - 1;
  }

  private forgetOld(): void {
    const oldest = this.oldestKept();
    for (const bucket of this.buckets.keys()) if (bucket < oldest) this.buckets.delete(bucket);
  }
}
