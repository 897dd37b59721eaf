import { SequencedLog } from "@pokerodds/common/sequenced-log";
import type { Db } from "mongodb";
import { ActivityIndex } from "./activity-index.js";
import { HISTORY } from "./snapshot-store.js";

// Unique indexes are the concurrency control: FerretDB applies updates by read-then-write, but a
// unique insert is atomic there and on MongoDB alike. Every other collection is keyed by _id only.
export async function createIndexes(db: Db): Promise<void> {
  // One stored change per operation key, ever: a replayed or concurrent duplicate operation loses.
  await SequencedLog.createIndexes(db, HISTORY);
  // One entry per table and bucket of the activity index, however many replicas note it.
  await ActivityIndex.createIndexes(db);
}
