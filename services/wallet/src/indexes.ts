import type { Db } from "mongodb";

// Unique indexes are the concurrency control: FerretDB applies updates by read-then-write, but a
// unique insert is atomic there and on MongoDB alike.
export async function createIndexes(db: Db): Promise<void> {
  await db.collection("ledger").createIndexes([
    { key: { playerId: 1, sequence: 1 }, name: "account_sequence", unique: true },
    { key: { idempotencyKey: 1 }, name: "idempotency_key", unique: true },
  ]);
}
