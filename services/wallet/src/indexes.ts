import { SequencedLog } from "@pokerodds/common/sequenced-log";
import type { Db } from "mongodb";
import { LEDGER } from "./ledger-store.js";

// Unique indexes are the concurrency control: FerretDB applies updates by read-then-write, but a
// unique insert is atomic there and on MongoDB alike.
export async function createIndexes(db: Db): Promise<void> {
  // One index per command: FerretDB v1 drops the connection when a createIndexes command names
  // several indexes that already exist, i.e. on every restart.
  // One outcome per idempotency key, applied or refused (the `_id` makes one entry per sequence).
  await SequencedLog.createIndexes(db, LEDGER);
  // One personal table per player; the table id itself is the _id.
  await db.collection("personalTables").createIndex({ playerId: 1 }, { name: "player", unique: true });
}
