import { SequencedLog, type LogEntry } from "@pokerodds/common/sequenced-log";
import type { Appended } from "@pokerodds/common/sequenced-log";
import type { Db } from "mongodb";
import { entryIdOf, type LedgerEntry } from "./domain/movement.js";

export const LEDGER = "ledger";

/** A ledger entry as the log stores it: the account is the stream, the sequence its seq. */
type StoredEntry = LogEntry & Omit<LedgerEntry, "entryId" | "playerId" | "sequence" | "idempotencyKey">;

const toStored = ({ entryId: _, playerId, sequence, idempotencyKey, ...fields }: LedgerEntry): StoredEntry => ({
  stream: playerId,
  seq: sequence,
  key: idempotencyKey,
  ...fields,
});
const fromStored = ({ stream, seq, key, ...fields }: StoredEntry): LedgerEntry => ({
  entryId: entryIdOf(stream, seq),
  playerId: stream,
  sequence: seq,
  idempotencyKey: key,
  ...fields,
});
const fromAppended = (appended: Appended<StoredEntry>): Appended<LedgerEntry> => {
  switch (appended.kind) {
    case "appended":
      return { kind: "appended", entry: fromStored(appended.entry) };
    case "seqTaken":
      return { kind: "seqTaken", winner: fromStored(appended.winner) };
    case "keyTaken":
      return { kind: "keyTaken", first: fromStored(appended.first) };
  }
};

/**
 * The ledger: one sequenced log (common/sequenced-log.ts) whose streams are the accounts. Insert-only;
 * every read on a movement's way is an `_id` read, and so is a page. Only the audit reads it whole.
 */
export class LedgerStore {
  private readonly log: SequencedLog<StoredEntry>;

  constructor(db: Db) {
    this.log = new SequencedLog<StoredEntry>(db.collection(LEDGER));
  }

  /** The account's entry of `sequence`: one `_id` read. */
  async entry(playerId: string, sequence: number): Promise<LedgerEntry | null> {
    const stored = await this.log.entry(playerId, sequence);
    return stored ? fromStored(stored) : null;
  }

  /** The account's latest entry (its balance), or null when it has none yet. */
  async head(playerId: string): Promise<LedgerEntry | null> {
    const head = await this.log.latest(playerId);
    return head ? fromStored(head) : null;
  }

  /** Appends the entry, which must follow one read from the ledger; the log's unique inserts decide. */
  async append(entry: LedgerEntry): Promise<Appended<LedgerEntry>> {
    return fromAppended(await this.log.append(toStored(entry)));
  }

  /**
   * The entry of `key`, wherever it lies in its account, by its key document (an `_id` read). Not
   * the log's deep lookup, which scans the whole ledger on FerretDB, for a refused credit that the
   * table sends again every few seconds while the account is full (8 s at 100,000 entries). On
   * MongoDB a crash between an entry's insert and its key document's can hide the entry here: its
   * credit is then answered refused until the account has room, when its append is refused by the
   * key's unique index and replays the entry (SequencedLog.append): never applied twice.
   */
  async findByKey(key: string): Promise<LedgerEntry | null> {
    const entry = await this.log.findByKey(key);
    return entry ? fromStored(entry) : null;
  }

  /** Up to `limit` entries after `afterSequence`, in order: `_id` reads of the sequences that exist. */
  async page(playerId: string, afterSequence: number, limit: number): Promise<LedgerEntry[]> {
    const last = Math.min((await this.log.latest(playerId))?.seq ?? 0, afterSequence + limit);
    const sequences = Array.from({ length: Math.max(0, last - afterSequence) }, (_, i) => afterSequence + 1 + i);
    const entries = await Promise.all(sequences.map((seq) => this.log.entry(playerId, seq)));
    return entries.filter((entry) => entry !== null).map(fromStored);
  }

  /** Up to `limit` entries below `beforeSequence` (null: from the newest), newest first: `_id` reads too. */
  async pageBefore(playerId: string, beforeSequence: number | null, limit: number): Promise<LedgerEntry[]> {
    const latest = (await this.log.latest(playerId))?.seq ?? 0;
    const first = Math.min(latest, (beforeSequence ?? latest + 1) - 1);
    const sequences = Array.from({ length: Math.max(0, Math.min(limit, first)) }, (_, i) => first - i);
    const entries = await Promise.all(sequences.map((seq) => this.log.entry(playerId, seq)));
    return entries.filter((entry) => entry !== null).map(fromStored);
  }

  /** Loads entries in bulk (benchmarks, fixtures), failing on the first one an index refuses. */
  async load(entries: readonly LedgerEntry[]): Promise<void> {
    await this.log.load(entries.map(toStored));
  }

  /** Every entry, each account's in sequence order, as the audit reads them (accounts interleave). */
  async *all(): AsyncIterable<LedgerEntry> {
    for await (const entry of this.log.all()) yield fromStored(entry);
  }
}
