import type { Collection, Db } from "mongodb";
import { entryIdOf, type LedgerEntry } from "./domain/movement.js";
import { insertUnlessPresent, isDuplicateKey } from "@pokerodds/common/mongo";

/** `_id` is entryIdOf(playerId, sequence). */
type LedgerDocument = Omit<LedgerEntry, "entryId"> & { _id: string };

/**
 * A hint, never the truth: the sequence of an entry of the account that exists, usually its latest.
 * It is written after the entry, so it can lag behind the ledger (a lost write, a race that moved it
 * back), and nothing here trusts it further than the ledger confirms.
 */
interface AccountHeadDocument {
  /** The player id. */
  _id: string;
  sequence: number;
}

const toDocument = ({ entryId, ...fields }: LedgerEntry): LedgerDocument => ({ _id: entryId, ...fields });
const fromDocument = ({ _id, ...fields }: LedgerDocument): LedgerEntry => ({ entryId: _id, ...fields });

/**
 * The ledger collection: insert-only. Its unique indexes (the _id, which is the account and sequence,
 * and the idempotency key) are what make a movement safe; nothing here ever updates or deletes an
 * entry. Every read on a movement's way is by _id; only the rare and the bulk reads (a key's first
 * outcome after a refused insert, a page, the audit) query other fields.
 */
export class LedgerStore {
  private readonly entries: Collection<LedgerDocument>;
  private readonly heads: Collection<AccountHeadDocument>;

  constructor(db: Db) {
    this.entries = db.collection<LedgerDocument>("ledger");
    this.heads = db.collection<AccountHeadDocument>("accountHeads");
  }

  /** The account's entry at `sequence`, if it exists. */
  async entry(playerId: string, sequence: number): Promise<LedgerEntry | null> {
    const entry = await this.entries.findOne({ _id: entryIdOf(playerId, sequence) });
    return entry ? fromDocument(entry) : null;
  }

  /**
   * An entry of the account that exists, read from the ledger: the hinted one, which is the latest
   * unless the hint lags. A hint the ledger does not confirm (the entry is missing) is ignored, and
   * the account's first entry stands in for it. Null means the account has no entries at all:
   * sequences start at 1 and have no gaps.
   */
  async knownEntry(playerId: string): Promise<LedgerEntry | null> {
    const hint = await this.heads.findOne({ _id: playerId });
    if (hint && hint.sequence > 1) {
      const hinted = await this.entry(playerId, hint.sequence);
      if (hinted) return hinted;
      // Ahead of the ledger: it was restored from an older backup, or tampered with. Drop it, so
      // that the next insert writes a true one ($max would never bring it down).
      await this.heads.deleteOne({ _id: playerId, sequence: hint.sequence });
    }
    return this.entry(playerId, 1);
  }

  /**
   * The account's latest entry (its balance), or null when it has none yet: the known entry, then
   * its successors by _id until a sequence is missing. Sequences have no gaps (sequence n + 1 is only
   * ever written on top of a read of n), so the first missing one is one past the latest.
   */
  async head(playerId: string): Promise<LedgerEntry | null> {
    let head = await this.knownEntry(playerId);
    while (head) {
      const next = await this.entry(playerId, head.sequence + 1);
      if (!next) break;
      head = next;
    }
    return head;
  }

  /**
   * Moves the account's hint up to `sequence`, an entry that was just inserted. A read-then-write
   * on FerretDB, so a race can move it back to another existing entry: it lags, and that is harmless.
   */
  async advanceHint(playerId: string, sequence: number): Promise<void> {
    try {
      await this.heads.updateOne({ _id: playerId }, { $max: { sequence } }, { upsert: true });
    } catch (error) {
      // Two first hints raced to insert the document; the other one is in.
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** False when a unique index refused it: that sequence or that idempotency key is taken. */
  insert(entry: LedgerEntry): Promise<boolean> {
    return insertUnlessPresent(() => this.entries.insertOne(toDocument(entry)));
  }

  /** Loads entries in bulk, in order, failing on the first one an index refuses (benchmarks, fixtures). */
  async insertMany(entries: readonly LedgerEntry[]): Promise<void> {
    await this.entries.insertMany(entries.map(toDocument));
  }

  /** A scan on FerretDB: only after an insert that the idempotency key refused. */
  async findByKey(idempotencyKey: string): Promise<LedgerEntry | null> {
    const entry = await this.entries.findOne({ idempotencyKey });
    return entry ? fromDocument(entry) : null;
  }

  /** A scan on FerretDB (one query instead of one _id read per entry: cheaper for a page). */
  async page(playerId: string, afterSequence: number, limit: number): Promise<LedgerEntry[]> {
    const page = await this.entries
      .find({ playerId, sequence: { $gt: afterSequence } })
      .sort({ sequence: 1 })
      .limit(limit)
      .toArray();
    return page.map(fromDocument);
  }

  /** Every entry, ordered by account and sequence, as the audit reads them. */
  async *all(): AsyncIterable<LedgerEntry> {
    for await (const entry of this.entries.find({}).sort({ playerId: 1, sequence: 1 })) yield fromDocument(entry);
  }
}
