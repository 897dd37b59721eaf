import type { Db } from "mongodb";
import { ARCHIVE } from "./snapshot-store.js";

// Unique indexes are the concurrency control: FerretDB applies updates by read-then-write, but a
// unique insert is atomic there and on MongoDB alike. Every other collection is keyed by _id only.
export async function createIndexes(db: Db): Promise<void> {
  // One index per command: FerretDB v1 drops the connection when one createIndexes command names
  // several indexes that already exist, i.e. on every restart.
  // One stored change per operation key, ever: a replayed or concurrent duplicate operation loses.
  await db.collection(ARCHIVE).createIndex({ opKey: 1 }, { name: "op_key", unique: true });
}
