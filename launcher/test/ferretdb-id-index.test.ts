// The embedded FerretDB is built with launcher/ferretdb/patches/sqlite-id-index.patch, which makes
// the SQLite backend's `_id` lookups use the unique `_id` index (stock v1.24 scans the table for
// each). These tests run the binary `npm run build:db` built: the query plan of FerretDB's own
// `_id` query, what a lookup costs as the collection grows, and that reads, updates and deletes by
// `_id` still hit exactly the right document.
import anyTest, { type TestFn } from "ava";
import { MongoClient, ObjectId, type Db } from "mongodb";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFerretDB, type FerretDB } from "../src/ferretdb.js";

const test = anyTest as TestFn<{ dataDir: string; database: FerretDB; client: MongoClient; db: Db }>;

test.before(async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), "pokerodds-ferretdb-id-"));
  const database = await startFerretDB({ dataDir });
  const client = new MongoClient(database.uri);
  await client.connect();
  t.context = { dataDir, database, client, db: client.db("idindex") };
});

test.after.always(async (t) => {
  const { dataDir, database, client } = t.context;
  await client?.close();
  await database?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Item<Id> {
  _id: Id;
  n: number;
  tag?: string;
}

const key = (n: number) => `k${String(n).padStart(7, "0")}`;

/** Inserts the items numbered [from, to) with string `_id`s, in batches of 5,000. */
async function load(db: Db, collection: string, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += 5_000) {
    const end = Math.min(start + 5_000, to);
    const docs = Array.from({ length: end - start }, (_, i) => ({ _id: key(start + i), n: start + i }));
    await db.collection<Item<string>>(collection).insertMany(docs, { ordered: false });
  }
}

/** FerretDB's `explain` runs SQLite's EXPLAIN QUERY PLAN on the very query a find would send. */
async function queryPlan(db: Db, collection: string, id: unknown): Promise<string[]> {
  const explained = await db.command({ explain: { find: collection, filter: { _id: id } } });
  // Without the filter pushed down FerretDB would fetch every document and filter them itself.
  if (explained.filterPushdown !== true) throw new Error(`no filter pushdown: ${JSON.stringify(explained)}`);
  return (explained.queryPlanner as { Plan: string[] }).Plan;
}

test.serial("FerretDB's query for an _id searches the _id index, for string and ObjectId _ids", async (t) => {
  const { db } = t.context;
  await load(db, "plan", 0, 1_000);
  const objectIds = Array.from({ length: 100 }, () => new ObjectId());
  await db.collection<Item<ObjectId>>("plan_oid").insertMany(objectIds.map((_id, n) => ({ _id, n })));

  for (const [collection, id] of [
    ["plan", key(500)],
    ["plan", "absent"],
    ["plan_oid", objectIds[42]],
  ] as const) {
    const plan = await queryPlan(db, collection, id);
    t.log(`${collection} {_id: ${String(id)}}: ${plan.join(" | ")}`);
    // e.g. "id=3 parent=0 notused=0 detail=SEARCH plan_<hash> USING INDEX plan_<hash>__id_ (<expr>=?)";
    // stock v1.24 gives "... detail=SCAN plan_<hash>".
    t.true(
      plan.some((row) => /detail=SEARCH \S+ USING INDEX \S+__id_ \(<expr>=\?\)/.test(row)),
      plan.join("\n"),
    );
    t.false(
      plan.some((row) => /\bSCAN\b/.test(row)),
      plan.join("\n"),
    );
  }
});

test.serial("reads, updates and deletes by _id hit exactly the right document", async (t) => {
  const { db } = t.context;
  const items = db.collection<Item<string>>("crud");
  await load(db, "crud", 0, 2_000);

  t.deepEqual(await items.findOne({ _id: key(1234) }), { _id: key(1234), n: 1234 });
  t.deepEqual(await items.findOne({ _id: key(0) }), { _id: key(0), n: 0 });
  t.deepEqual(await items.findOne({ _id: key(1999) }), { _id: key(1999), n: 1999 });
  t.is(await items.findOne({ _id: "absent" }), null);
  t.is(await items.findOne({ _id: key(2000) }), null);
  // A prefix or a different JSON type of the same text is another _id.
  t.is(await items.findOne({ _id: "k000123" }), null);
  t.is(await db.collection<Item<number>>("crud").findOne({ _id: 1234 }), null);

  const updated = await items.updateOne({ _id: key(777) }, { $set: { tag: "updated" } });
  t.like(updated, { matchedCount: 1, modifiedCount: 1 });
  t.deepEqual(await items.find({ tag: "updated" }).toArray(), [{ _id: key(777), n: 777, tag: "updated" }]);
  t.deepEqual(await items.findOne({ _id: key(776) }), { _id: key(776), n: 776 });
  t.like(await items.updateOne({ _id: "absent" }, { $set: { tag: "nowhere" } }), { matchedCount: 0, modifiedCount: 0 });
  t.is(await items.countDocuments({ tag: "nowhere" }), 0);

  const replaced = await items.replaceOne({ _id: key(778) }, { n: -778 });
  t.like(replaced, { matchedCount: 1, modifiedCount: 1 });
  t.deepEqual(await items.findOne({ _id: key(778) }), { _id: key(778), n: -778 });

  t.like(await items.deleteOne({ _id: key(1500) }), { deletedCount: 1 });
  t.is(await items.findOne({ _id: key(1500) }), null);
  t.like(await items.deleteOne({ _id: key(1500) }), { deletedCount: 0 });
  t.like(await items.deleteOne({ _id: "absent" }), { deletedCount: 0 });
  t.like(await items.deleteMany({ _id: { $in: [key(10), key(11), "absent"] } }), { deletedCount: 2 });
  t.is(await items.countDocuments({}), 1_997);
  t.deepEqual(await items.findOne({ _id: key(1501) }), { _id: key(1501), n: 1501 });
  t.deepEqual(await items.findOne({ _id: key(12) }), { _id: key(12), n: 12 });

  // The unique _id index still refuses a duplicate.
  const duplicate = await items.insertOne({ _id: key(5), n: 5 }).catch((error: { code?: number }) => error);
  t.is((duplicate as { code?: number }).code, 11000);

  // ObjectId _ids: the same, through the other sjson representation.
  const oids = db.collection<Item<ObjectId>>("crud_oid");
  const ids = Array.from({ length: 300 }, () => new ObjectId());
  await oids.insertMany(ids.map((_id, n) => ({ _id, n })));
  t.deepEqual(await oids.findOne({ _id: ids[123] }), { _id: ids[123], n: 123 });
  t.is(await oids.findOne({ _id: new ObjectId() }), null);
  t.like(await oids.updateOne({ _id: ids[7] }, { $set: { tag: "updated" } }), { matchedCount: 1, modifiedCount: 1 });
  t.deepEqual(await oids.find({ tag: "updated" }).toArray(), [{ _id: ids[7], n: 7, tag: "updated" }]);
  t.like(await oids.deleteOne({ _id: ids[8] }), { deletedCount: 1 });
  t.is(await oids.findOne({ _id: ids[8] }), null);
  t.is(await oids.countDocuments({}), 299);
});

/** Median time of findOne by _id over `rounds` lookups spread evenly across [0, size). */
async function p50FindOne(db: Db, collection: string, size: number, rounds: number): Promise<number> {
  const items = db.collection<Item<string>>(collection);
  const lookups = Array.from({ length: rounds }, (_, i) => Math.floor(((i + 0.5) * size) / rounds));
  for (const n of lookups.slice(0, 20)) await items.findOne({ _id: key(n) }); // warm-up
  const times: number[] = [];
  for (const n of lookups) {
    const started = performance.now();
    const found = await items.findOne({ _id: key(n) });
    times.push(performance.now() - started);
    if (found?.n !== n) throw new Error(`findOne({_id: ${key(n)}}) returned ${JSON.stringify(found)}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

test.serial("findOne by _id costs about the same at 200,000 documents as at 1,000", async (t) => {
  const { db } = t.context;
  await load(db, "growth", 0, 1_000);
  const small = await p50FindOne(db, "growth", 1_000, 200);
  await load(db, "growth", 1_000, 200_000);
  const large = await p50FindOne(db, "growth", 200_000, 200);
  t.log(`p50 findOne by _id: ${small.toFixed(3)} ms at 1,000 documents, ${large.toFixed(3)} ms at 200,000`);
  // A scan (stock v1.24) reads on average half the table per lookup: far more than 2x at 200x the rows.
  t.true(large < 2 * small, `p50 ${large.toFixed(3)} ms at 200,000 vs ${small.toFixed(3)} ms at 1,000`);
});
