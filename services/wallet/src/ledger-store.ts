import type { Collection, Db } from "mongodb";
import type { LedgerEntry } from "./domain/movement.js";
import { isDuplicateKey } from "./duplicate-key.js";

type LedgerDocument = Omit<LedgerEntry, "entryId"> & { _id: string };

const toDocument = ({ entryId, ...fields }: LedgerEntry): LedgerDocument => ({ _id: entryId, ...fields });
const fromDocument = ({ _id, ...fields }: LedgerDocument): LedgerEntry => ({ entryId: _id, ...fields });

/**
 * The ledger collection: insert-only. Its unique indexes (indexes.ts) on (playerId, sequence) and on
 * idempotencyKey are what make a movement safe; nothing here ever updates or deletes an entry.
 */
export class LedgerStore {
  private readonly entries: Collection<LedgerDocument>;

  constructor(db: Db) {
    this.entries = db.collection<LedgerDocument>("ledger");
  }

  /** The account's latest entry (its balance), or null when it has none yet. */
  async head(playerId: string): Promise<LedgerEntry | null> {
    const [latest] = await this.entries.find({ playerId }).sort({ sequence: -1 }).limit(1).toArray();
    return latest ? fromDocument(latest) : null;
  }

  /** False when a unique index refused it: that sequence or that idempotency key is taken. */
  async insert(entry: LedgerEntry): Promise<boolean> {
    try {
      await this.entries.insertOne(toDocument(entry));
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async findByKey(idempotencyKey: string): Promise<LedgerEntry | null> {
    const entry = await this.entries.findOne({ idempotencyKey });
    return entry ? fromDocument(entry) : null;
  }

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
