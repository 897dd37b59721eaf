// The activity index on the real embedded database: what one replica notes another reads, each table
// once per bucket however many replicas note it at once, and only the buckets asked for.
import { startFerretDB, type FerretDB } from "@pokerodds/launcher/ferretdb";
import anyTest, { type TestFn } from "ava";
import fc from "fast-check";
import { MongoClient, type Db } from "mongodb";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ACTIVITY, ActivityIndex, BUCKET_MS } from "../src/activity-index.js";
import { ACTIVE_WINDOW_MS } from "../src/domain/index.js";

interface Context {
  dir: string;
  ferret: FerretDB;
  clients: MongoClient[];
}
const test = anyTest as TestFn<Context>;

test.before(async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "activity-index-"));
  const ferret = await startFerretDB({ dataDir: dir, output: "ignore" });
  const clients = [new MongoClient(ferret.uri), new MongoClient(ferret.uri)];
  t.context = { dir, ferret, clients };
});
test.after.always(async (t) => {
  await Promise.all(t.context.clients?.map((c) => c.close()) ?? []);
  await t.context.ferret?.stop();
  if (t.context.dir) await rm(t.context.dir, { recursive: true, force: true });
});

let databases = 0;
/** A database of its own for each test (the buckets are the current time's, shared otherwise). */
async function freshDatabase(t: { context: Context }): Promise<string> {
  const name = `activity-${++databases}`;
  await ActivityIndex.createIndexes(t.context.clients[0]!.db(name));
  return name;
}

/** The index as a separate replica holds it: its own connection and nothing read yet. */
const replica = (t: { context: Context }, name: string, index: number): ActivityIndex =>
  new ActivityIndex(t.context.clients[index % 2]!.db(name));

const entriesIn = (db: Db) => db.collection(ACTIVITY).countDocuments({ key: { $exists: true } });

test("a table noted by one replica is read by another, and a second note stores nothing", async (t) => {
  const name = await freshDatabase(t);
  const now = Date.now();
  const [one, two] = [replica(t, name, 0), replica(t, name, 1)];
  await one.note(7, now);
  t.deepEqual(await two.activeBetween(now - ACTIVE_WINDOW_MS, now), [7]);
  await two.note(7, now);
  await replica(t, name, 0).note(7, now);
  t.is(await entriesIn(t.context.clients[0]!.db(name)), 1);
});

test("replicas noting tables at once store each table once per bucket and miss none", async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.nat(3), fc.integer({ min: 1, max: 30 })), { minLength: 1, maxLength: 40 }),
      async (notes) => {
        const name = await freshDatabase(t);
        const now = Date.now();
        const replicas = [0, 1, 2, 3].map((index) => replica(t, name, index));
        await Promise.all(notes.map(([index, tableId]) => replicas[index]!.note(tableId, now)));
        const expected = [...new Set(notes.map(([, tableId]) => tableId))].sort((a, b) => a - b);
        t.deepEqual(await replica(t, name, 0).activeBetween(now, now), expected);
        t.is(await entriesIn(t.context.clients[0]!.db(name)), expected.length);
      },
    ),
    { numRuns: 8 },
  );
});

test("a read covers the buckets of its window only; a note already out of the window stores nothing", async (t) => {
  const name = await freshDatabase(t);
  const now = Date.now();
  const index = replica(t, name, 0);
  await index.note(1, now);
  await index.note(2, now - 2 * BUCKET_MS);
  await index.note(3, now - ACTIVE_WINDOW_MS - 3 * BUCKET_MS);
  t.deepEqual(await replica(t, name, 1).activeBetween(now, now), [1]);
  t.deepEqual(await replica(t, name, 1).activeBetween(now - 2 * BUCKET_MS, now), [1, 2]);
  t.deepEqual(await replica(t, name, 1).activeBetween(now - ACTIVE_WINDOW_MS - 3 * BUCKET_MS, now), [1, 2]);
  t.is(await entriesIn(t.context.clients[0]!.db(name)), 2);
});
