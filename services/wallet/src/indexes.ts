import type { Db } from "mongodb";

// Unique indexes are the concurrency control: FerretDB applies updates by read-then-write, but a
// unique insert is atomic there and on MongoDB alike.
export async function createIndexes(db: Db): Promise<void> {
  // One index per command: FerretDB v1 drops the connection when a createIndexes command names
  // several indexes that already exist, i.e. on every restart.
  const ledger = db.collection("ledger");
  // Two writers that read the same balance both try its successor's sequence: only one succeeds.
  // It also serves "latest entry of an account" and ledger pages.
  await ledger.createIndex({ playerId: 1, sequence: 1 }, { name: "account_sequence", unique: true });
  // One outcome per idempotency key, applied or refused.
  await ledger.createIndex({ idempotencyKey: 1 }, { name: "idempotency_key", unique: true });
  // One personal table per player; the table id itself is the _id.
  await db.collection("personalTables").createIndex({ playerId: 1 }, { name: "player", unique: true });
}
