// An append-only log of sequenced streams in one collection, read only by `_id`: the storage under
// the wallet's ledger and the tables' histories.
//
// Three kinds of document share the collection; their `_id`s cannot collide, because an entry's
// ends in digits and the others end in a word:
//   entry  "<stream>:<seq>"  { stream, seq, key, ...data }  seq 1, 2, 3… per stream (or from firstSeq), never a gap
//   key    "<key>:key"       { entryId }                     where the entry of an idempotency key is
//   hint   "<stream>:head"   { hintSeq }                     an existing entry, a few behind the latest
// Only entries have `stream`, `seq` and `key`.
//
// The one guarantee everything rests on holds on MongoDB and on FerretDB v1 alike: an insert that a
// unique index refuses fails as a whole. Entry n + 1 is only ever written by a writer that read entry
// n, so its insert succeeds only when n was the latest (the `_id` is unique) and the key was never
// used (the sparse unique index on `key`). Nothing is updated in place but the hint, which only
// decides where reading starts and may lag.
//
// Round trips: an append is one `insertMany` (the entry, its key document and any documents the
// caller adds; ordered, so nothing follows a refused entry; one SQLite transaction on FerretDB, so
// there the key document exists exactly when its entry does, an insert that fails other than on a
// duplicate storing none of it: launcher/ferretdb/patches/insert-failure-atomic.patch). Finding the latest entry probes
// `_id`s forward from the newest entry this process knows (an LRU cache that, like the hint, is
// only ever a place to start), so a warm stream costs one read.
import type { Collection, Db } from "mongodb";
import { MongoBulkWriteError } from "mongodb";
import { UnavailableError } from "./errors.js";
import { hasWriteConcernError, isDuplicateKey } from "./mongo.js";
import { forgetOldest } from "./recency.js";

export interface LogEntry {
  stream: string;
  /** 1, 2, 3… within the stream. */
  seq: number;
  /** The idempotency key: unique across the whole log. */
  key: string;
}

/** What an append came to. */
export type Appended<E> =
  /** The entry is the stream's new latest. */
  | { kind: "appended"; entry: E }
  /** Another entry took the sequence first: it is the newest known, build on it. */
  | { kind: "seqTaken"; winner: E }
  /** The key was used before (possibly by this very entry, whose acknowledgement was lost). */
  | { kind: "keyTaken"; first: E };

interface SequencedLogOptions {
  /** Streams whose latest entry this process remembers. */
  cacheSize?: number;
  /** The hint is moved every this many entries of a stream (a cold read probes at most about as many). */
  hintStride?: number;
  /** Every stream's first sequence (1 unless the caller numbers from elsewhere). */
  firstSeq?: number;
}

/** Any document of the log: every `_id` here is a string. */
interface StoredDocument {
  _id: string;
}
interface KeyDocument {
  _id: string;
  entryId: string;
}
interface HintDocument {
  _id: string;
  hintSeq: number;
}

export const entryIdOf = (stream: string, seq: number): string => `${stream}:${seq}`;
const keyIdOf = (key: string): string => `${key}:key`;
const hintIdOf = (stream: string): string => `${stream}:head`;

export class SequencedLog<E extends LogEntry> {
  private readonly collection: Collection<StoredDocument>;
  private readonly keys: Collection<KeyDocument>;
  private readonly hints: Collection<HintDocument>;
  private readonly known = new Map<string, E>();
  /** Streams remembered at least (the configured cacheSize). */
  private readonly cacheSize: number;
  /** Streams remembered at most: cacheSize, or what `resize` asked for last if more. */
  private capacity: number;
  private readonly hintStride: number;
  private readonly firstSeq: number;

  constructor(collection: Collection, options: SequencedLogOptions = {}) {
    this.collection = collection as unknown as Collection<StoredDocument>;
    this.keys = collection as unknown as Collection<KeyDocument>;
    this.hints = collection as unknown as Collection<HintDocument>;
    this.cacheSize = options.cacheSize ?? 10_000;
    this.capacity = this.cacheSize;
    this.hintStride = options.hintStride ?? 16;
    this.firstSeq = options.firstSeq ?? 1;
  }

  /**
   * The index that makes a key's entry unique. Sparse, because key and hint documents have no `key`
   * (FerretDB ignores `sparse`, and its SQLite index lets any number of documents lack the field).
   */
  static async createIndexes(db: Db, collectionName: string): Promise<void> {
    await db.collection(collectionName).createIndex({ key: 1 }, { name: "log_key", unique: true, sparse: true });
  }

  /**
   * Room to remember `streams` streams (never fewer than cacheSize): a caller that reads a set of
   * streams in turn, again and again, sizes the cache to the set, or each pass would push out the
   * entries the next one needs first, and every read would start cold. A smaller set than before
   * forgets the streams read least lately, so memory follows the set rather than its peak.
   */
  resize(streams: number): void {
    this.capacity = Math.max(this.cacheSize, streams);
    forgetOldest(this.known, this.capacity);
  }

  /** The stream's entry at `seq`, if it exists. */
  async entry(stream: string, seq: number): Promise<E | null> {
    const doc = await this.collection.findOne({ _id: entryIdOf(stream, seq) });
    return doc ? this.fromDocument(doc) : null;
  }

  /** Whether the entry is stored: one `_id` read that brings back its `_id` alone. */
  async has(stream: string, seq: number): Promise<boolean> {
    return (await this.collection.findOne({ _id: entryIdOf(stream, seq) }, { projection: { _id: 1 } })) !== null;
  }

  /**
   * The stream's latest entry, or null when it has none. Sequences have no gaps, so entries 1..L
   * exist and none above: starting from the newest entry known (this process's cache, else the hint,
   * else the first entry), it probes `_id`s forward, one by one for a few steps, then doubling, and
   * closes in on L by bisection. A warm stream costs one read; a cold one about 2 log2 of its lag.
   */
  async latest(stream: string): Promise<E | null> {
    let head = this.known.get(stream) ?? (await this.hintedEntry(stream));
    if (!head) return null;
    let missing = 0;
    for (let hits = 0, step = 1; !missing; hits++, step = hits < 4 ? 1 : step * 2) {
      const next = await this.entry(stream, head.seq + step);
      if (next) head = next;
      else missing = head.seq + step;
    }
    while (missing - head.seq > 1) {
      const middle = Math.floor((head.seq + missing) / 2);
      const found = await this.entry(stream, middle);
      if (found) head = found;
      else missing = middle;
    }
    this.remember(head);
    return head;
  }

  /**
   * Appends `entry` as the latest of its stream. `entry.seq` must be one past an entry read from the
   * log (or 1): then the insert itself is the whole concurrency control.
   */
  async append(entry: E): Promise<Appended<E>> {
    const id = entryIdOf(entry.stream, entry.seq);
    const key: KeyDocument = { _id: keyIdOf(entry.key), entryId: id };
    if (await this.insertEntry([{ _id: id, ...entry }, key])) {
      this.remember(entry);
      // The entry is in: a hint that cannot be moved (the database just went away) only costs reads.
      if (entry.seq % this.hintStride === 0) await this.moveHint(entry.stream, entry.seq).catch(() => undefined);
      return { kind: "appended", entry };
    }
    // Refused: the sequence is taken, or the key, or both. The entry at our sequence says which.
    const taken = await this.entry(entry.stream, entry.seq);
    if (taken?.key === entry.key) return { kind: "keyTaken", first: taken };
    if (taken) {
      this.remember(taken);
      return { kind: "seqTaken", winner: taken };
    }
    const first = await this.findByKey(entry.key, { deep: true });
    if (first) return { kind: "keyTaken", first };
    // The refusing write is not visible yet: on MongoDB the unique indexes see a concurrent insert
    // as soon as the primary applies it, the majority reads only once it is replicated. The caller's
    // retry under the same key finds it.
    throw new UnavailableError(
      "the change was refused by a concurrent write not visible yet; retry with the same idempotency key",
    );
  }

  /**
   * The entry stored under `key`, by its key document. A key whose entry exists without its key
   * document (possible on MongoDB only, if the server fails between the two inserts of an append)
   * reads as absent, unless `deep` asks the key index too (indexed on MongoDB, a scan on FerretDB,
   * where it is never needed): for the rare path that must not miss it. Appending under such a key
   * again is refused and resolves it (see append).
   */
  async findByKey(key: string, { deep = false } = {}): Promise<E | null> {
    const where = await this.keys.findOne({ _id: keyIdOf(key) });
    const doc = where
      ? await this.collection.findOne({ _id: where.entryId })
      : deep
        ? await this.collection.findOne({ key })
        : null;
    return doc ? this.fromDocument(doc) : null;
  }

  /**
   * Every entry, streamed in storage order (each stream's entries in sequence order). The hint keeps
   * MongoDB off the sparse `log_key` index it would otherwise answer this filter from, in key order:
   * a reader that needs each stream in order would then hold nearly every entry until the first ones came.
   */
  async *all(): AsyncIterable<E> {
    for await (const doc of this.collection.find({ key: { $exists: true } }, { hint: { $natural: 1 } })) {
      yield this.fromDocument(doc);
    }
  }

  /** Loads entries in bulk (benchmarks, fixtures): key documents included, and each stream's hint. */
  async load(entries: readonly E[]): Promise<void> {
    const docs: StoredDocument[] = entries.flatMap((e) => [
      { _id: entryIdOf(e.stream, e.seq), ...e },
      { _id: keyIdOf(e.key), entryId: entryIdOf(e.stream, e.seq) },
    ]);
    await this.collection.insertMany(docs, { ordered: true });
    const heads = new Map<string, number>();
    for (const e of entries) heads.set(e.stream, Math.max(e.seq, heads.get(e.stream) ?? 0));
    // A hint at the first sequence tells a reader nothing it would not start from anyway.
    for (const [stream, seq] of heads) if (seq > this.firstSeq) await this.moveHint(stream, seq);
  }

  /**
   * True when the entry is in. Documents after it that are refused do not undo it. An entry the
   * primary took but a majority did not confirm is not in yet: a failover may roll it back, so it is
   * neither answered as appended nor remembered as the stream's latest (the next entry would then
   * follow a gap); the error goes up as an outage, and the retry under the same key finds the entry
   * in or appends it again.
   */
  private async insertEntry(docs: StoredDocument[]): Promise<boolean> {
    try {
      await this.collection.insertMany(docs, { ordered: true });
      return true;
    } catch (error) {
      if (hasWriteConcernError(error)) throw error;
      if (error instanceof MongoBulkWriteError && error.insertedCount > 0) return true;
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** The hinted entry, or the first when the hint is missing or ahead of the log (a restored backup). */
  private async hintedEntry(stream: string): Promise<E | null> {
    const hint = await this.hints.findOne({ _id: hintIdOf(stream) });
    if (hint && hint.hintSeq > this.firstSeq) {
      const hinted = await this.entry(stream, hint.hintSeq);
      if (hinted) return hinted;
      // $max would never bring it down: drop it, so the next hint written is true.
      await this.hints.deleteOne({ _id: hintIdOf(stream) });
    }
    return this.entry(stream, this.firstSeq);
  }

  /** A read-then-write on FerretDB: a race can move it back to another existing entry, which is harmless. */
  private async moveHint(stream: string, seq: number): Promise<void> {
    try {
      await this.hints.updateOne({ _id: hintIdOf(stream) }, { $max: { hintSeq: seq } }, { upsert: true });
    } catch (error) {
      // Two first hints raced to insert the document: the other one is in.
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** Keeps the newer of `entry` and the stream's cached one, as the stream used last (recency.ts). */
  private remember(entry: E): void {
    const cached = this.known.get(entry.stream);
    this.known.delete(entry.stream);
    this.known.set(entry.stream, cached && cached.seq > entry.seq ? cached : entry);
    forgetOldest(this.known, this.capacity);
  }

  private fromDocument({ _id, ...entry }: StoredDocument): E {
    return entry as E;
  }
}
