// The activity indexes on the real embedded database: what one replica notes another reads, each table
// once per bucket however many replicas note it at once, tables noted at once sharing appends, only
// the buckets asked for, the active and owing indexes apart, and each pruned behind its own reader.
import test from "ava";
import fc from "fast-check";
import type { Db } from "mongodb";
import { ACTIVITY, ActivityIndex, BUCKET_MS, type ActivityKind } from "../src/activity-index.js";
import { ACTIVE_WINDOW_MS } from "../src/domain/index.js";
import { embeddedDatabase } from "./helpers/database.js";

const database = embeddedDatabase(test);

/** A database of its own for each test (the buckets are the current time's, shared otherwise). */
async function freshDatabase(): Promise<Db> {
  const db = database.fresh();
  await ActivityIndex.createIndexes(db);
  return db;
}

/** The index as a separate replica holds it: its own connection and nothing read yet. */
const replica = (db: Db, index: number, kind: ActivityKind = "active"): ActivityIndex =>
  new ActivityIndex(database.on(db, index % 2), kind);

/** Every table listed by the stored entries, as often as it is listed. */
async function listed(db: Db): Promise<number[]> {
  const entries = await db
    .collection<{ tableIds: number[] }>(ACTIVITY)
    .find({ key: { $exists: true } })
    .toArray();
  return entries.flatMap((entry) => entry.tableIds).sort((a, b) => a - b);
}

test("a table noted by one replica is read by another, and a second note stores nothing", async (t) => {
  const db = await freshDatabase();
  const now = Date.now();
  const [one, two] = [replica(db, 0), replica(db, 1)];
  await one.note(7, now);
  t.deepEqual(await two.notedBetween(now - ACTIVE_WINDOW_MS, now), [7]);
  await two.note(7, now);
  await replica(db, 0).note(7, now);
  t.deepEqual(await listed(db), [7]);
});

test("replicas noting tables at once store each table once per bucket and miss none", async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.nat(3), fc.integer({ min: 1, max: 30 })), { minLength: 1, maxLength: 40 }),
      async (notes) => {
        const db = await freshDatabase();
        const now = Date.now();
        const replicas = [0, 1, 2, 3].map((index) => replica(db, index));
        await Promise.all(notes.map(([index, tableId]) => replicas[index]!.note(tableId, now)));
        const expected = [...new Set(notes.map(([, tableId]) => tableId))].sort((a, b) => a - b);
        t.deepEqual(await replica(db, 0).notedBetween(now, now), expected);
        t.deepEqual(await listed(db), expected, "each table listed once");
      },
    ),
    { numRuns: 8 },
  );
});

test("a read covers the buckets of its window only; a note already out of the window stores nothing", async (t) => {
  const db = await freshDatabase();
  const now = Date.now();
  const index = replica(db, 0);
  await index.note(1, now);
  await index.note(2, now - 2 * BUCKET_MS);
  await index.note(3, now - ACTIVE_WINDOW_MS - 3 * BUCKET_MS);
  t.deepEqual(await replica(db, 1).notedBetween(now, now), [1]);
  t.deepEqual(await replica(db, 1).notedBetween(now - 2 * BUCKET_MS, now), [1, 2]);
  t.deepEqual(await replica(db, 1).notedBetween(now - ACTIVE_WINDOW_MS - 3 * BUCKET_MS, now), [1, 2]);
  t.deepEqual(await listed(db), [1, 2]);
});

test("tables noted at once by one replica share appends", async (t) => {
  const db = await freshDatabase();
  const now = Date.now();
  const index = replica(db, 0);
  const tables = Array.from({ length: 50 }, (_, i) => i + 1);
  await Promise.all(tables.map((tableId) => index.note(tableId, now)));
  t.deepEqual(await replica(db, 1).notedBetween(now, now), tables);
  const entries = await db.collection(ACTIVITY).countDocuments({ key: { $exists: true } });
  t.true(entries <= 2, `${entries} entries for 50 tables noted at once`);
});

/** Bucket `bucket` as an earlier replica left it: one entry listing `tableIds`, and its key document. */
async function storedBucket(db: Db, kind: ActivityKind, bucket: number, tableIds: number[]): Promise<void> {
  const stream = `${kind}-${bucket}`;
  const key = `${stream}:written-before`;
  const documents = db.collection<{ _id: string; [field: string]: unknown }>(ACTIVITY);
  await documents.insertMany([
    { _id: `${stream}:1`, stream, seq: 1, key, tableIds },
    { _id: `${key}:key`, entryId: `${stream}:1` },
  ]);
}

test("pruning deletes each index's buckets an hour behind their reader: the lobby's window, recovery's checkpoint", async (t) => {
  const db = await freshDatabase();
  const now = Date.now();
  const bucket = (at: number) => Math.floor(at / BUCKET_MS);
  const hours = (n: number) => n * 60 * 60_000;
  for (const kind of ["active", "owing"] as const) {
    await storedBucket(db, kind, bucket(now - hours(3)), [kind === "active" ? 1 : 11]);
    await storedBucket(db, kind, bucket(now - hours(6)), [kind === "active" ? 2 : 12]);
  }
  const [active, owing] = [replica(db, 0, "active"), replica(db, 0, "owing")];
  await active.note(3, now);
  await owing.note(13, now);
  const left = async () => (await listed(db)).join(",");

  t.is(
    await active.prune(now),
    4,
    "the active buckets 3 and 6 hours back (the window is 30 minutes): entries and keys",
  );
  t.is(await left(), "3,11,12,13", "the owing ones are recovery's");
  t.is(await owing.prune(now), 0, "nothing before recovery's first checkpoint");
  await owing.markRecoveredFrom(now - hours(4));
  t.is(await owing.prune(now), 2, "the owing bucket 6 hours back: its entry and its key document");
  t.is(await left(), "3,11,13", "the one 3 hours back is kept for recovery, whose checkpoint is 4 hours back");
  await owing.markRecoveredFrom(now - BUCKET_MS);
  t.is(await owing.prune(now), 2);
  t.is(await left(), "3,13");
  t.is(await owing.recoveredFrom(), now - BUCKET_MS, "the checkpoint stays");
  t.deepEqual(await replica(db, 1, "active").activeAt(now), [3], "each index reads its own tables only");
  t.deepEqual(await replica(db, 1, "owing").notedBetween(now - BUCKET_MS, now), [13]);
  // A checkpoint a clock three hours ahead set takes nothing of the hour before this clock's now.
  await owing.markRecoveredFrom(now + hours(3));
  t.is(await owing.prune(now), 0);
  t.is(await left(), "3,13");
});
