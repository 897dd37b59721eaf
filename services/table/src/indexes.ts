import type { Db } from "mongodb";

// Unique indexes are the concurrency control: FerretDB applies updates by read-then-write, but a
// unique insert is atomic there and on MongoDB alike.
export async function createIndexes(db: Db): Promise<void> {
  await db.collection("seats").createIndexes([{ key: { tableId: 1, seatId: 1 }, name: "table_seat", unique: true }]);
  await db
    .collection("transfers")
    .createIndexes([{ key: { idempotencyKey: 1 }, name: "idempotency_key", unique: true }]);
}
