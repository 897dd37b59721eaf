// The activity index on the real embedded database: what one replica notes another reads, each table
// once per bucket however many replicas note it at once, tables noted at once sharing appends, and
// only the buckets asked for.
import test from "ava";
import fc from "fast-check";
import type { Db } from "mongodb";
import { ACTIVITY, ActivityIndex, BUCKET_MS } from "../src/activity-index.js";
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
const replica = (db: Db, index: number): ActivityIndex => new ActivityIndex(database.on(db, index % 2));

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
  t.deepEqual(await two.activeBetween(now - ACTIVE_WINDOW_MS, now), [7]);
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
        t.deepEqual(await replica(db, 0).activeBetween(now, now), expected);
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
  t.deepEqual(await replica(db, 1).activeBetween(now, now), [1]);
  t.deepEqual(await replica(db, 1).activeBetween(now - 2 * BUCKET_MS, now), [1, 2]);
  t.deepEqual(await replica(db, 1).activeBetween(now - ACTIVE_WINDOW_MS - 3 * BUCKET_MS, now), [1, 2]);
  t.deepEqual(await listed(db), [1, 2]);
});

test("tables noted at once by one replica share appends", async (t) => {
  const db = await freshDatabase();
  const now = Date.now();
  const index = replica(db, 0);
  const tables = Array.from({ length: 50 }, (_, i) => i + 1);
  await Promise.all(tables.map((tableId) => index.note(tableId, now)));
  t.deepEqual(await replica(db, 1).activeBetween(now, now), tables);
  const entries = await db.collection(ACTIVITY).countDocuments({ key: { $exists: true } });
  t.true(entries <= 2, `${entries} entries for 50 tables noted at once`);
});

/** Bucket `bucket` as an earlier replica left it: one entry listing `tableIds`, and its key document. */
async function storedBucket(db: Db, bucket: number, tableIds: number[]): Promise<void> {
  const stream = `active-${bucket}`;
  const key = `${stream}:written-before`;
  const documents = db.collection<{ _id: string; [field: string]: unknown }>(ACTIVITY);
  await documents.insertMany([
    { _id: `${stream}:1`, stream, seq: 1, key, tableIds },
    { _id: `${key}:key`, entryId: `${stream}:1` },
  ]);
}

test("pruning deletes the buckets an hour behind both the lobby's window and recovery's checkpoint", async (t) => {
  const db = await freshDatabase();
  const index = replica(db, 0);
  const now = Date.now();
  const bucket = (at: number) => Math.floor(at / BUCKET_MS);
  const hours = (n: number) => n * 60 * 60_000;
  await storedBucket(db, bucket(now - hours(3)), [1]);
  await storedBucket(db, bucket(now - hours(6)), [2]);
  await index.note(3, now);
  const left = async () => (await listed(db)).join(",");

  t.is(await index.prune(now), 0, "nothing before recovery's first checkpoint");
  await index.markRecoveredFrom(now - hours(4));
  t.is(await index.prune(now), 2, "the bucket 6 hours back: its entry and its key document");
  t.is(await left(), "1,3", "the one 3 hours back is kept for recovery, whose checkpoint is 4 hours back");
  await index.markRecoveredFrom(now - BUCKET_MS);
  t.is(await index.prune(now), 2);
  t.is(await left(), "3");
  t.is(await index.recoveredFrom(), now - BUCKET_MS, "the checkpoint stays");
  t.deepEqual(await replica(db, 1).activeAt(now), [3]);
});
