// The sequenced log on the real embedded database (needs `npm run build:db`): concurrent appenders,
// replays, lagging or missing hints, and an entry whose key document a crash left out.
import { startFerretDB, type FerretDB } from "@pokerodds/launcher/ferretdb";
import anyTest, { type TestFn } from "ava";
import fc from "fast-check";
import { MongoBulkWriteError, MongoClient, type Collection, type Db } from "mongodb";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UnavailableError } from "../src/errors.js";
import { isDatabaseOutage } from "../src/mongo.js";
import { SequencedLog, type LogEntry } from "../src/sequenced-log.js";

interface Note extends LogEntry {
  writer: number;
  total: number;
}

interface Context {
  dir: string;
  ferret: FerretDB;
  clients: MongoClient[];
  db: Db;
}
const test = anyTest as TestFn<Context>;

test.before(async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "sequenced-log-"));
  const ferret = await startFerretDB({ dataDir: dir, output: "ignore" });
  const clients = [new MongoClient(ferret.uri), new MongoClient(ferret.uri)];
  const db = clients[0]!.db("log");
  await SequencedLog.createIndexes(db, "notes");
  t.context = { dir, ferret, clients, db };
});
test.after.always(async (t) => {
  await Promise.all(t.context.clients?.map((c) => c.close()) ?? []);
  await t.context.ferret?.stop();
  if (t.context.dir) await rm(t.context.dir, { recursive: true, force: true });
});

/** A log as a separate process would hold it: its own connection and an empty cache. */
const freshLog = (t: { context: Context }, index = 0, hintStride = 4) =>
  new SequencedLog<Note>(t.context.clients[index % 2]!.db("log").collection("notes"), { hintStride });

let streams = 0;
const newStream = () => `stream:${++streams}`;

/** Appends one note under `key` on top of the latest, retrying lost races; answers what it came to. */
async function appendNote(log: SequencedLog<Note>, stream: string, key: string, writer: number, amount: number) {
  let head = await log.latest(stream);
  for (;;) {
    const entry: Note = { stream, seq: (head?.seq ?? 0) + 1, key, writer, total: (head?.total ?? 0) + amount };
    const appended = await log.append(entry);
    if (appended.kind !== "seqTaken") return appended;
    head = appended.winner;
  }
}

async function entriesOf(log: SequencedLog<Note>, stream: string): Promise<Note[]> {
  const found: Note[] = [];
  for (let seq = 1; ; seq++) {
    const entry = await log.entry(stream, seq);
    if (!entry) return found;
    found.push(entry);
  }
}

test("concurrent appenders: one winner per sequence, every key once, no gap, each total built on its predecessor", async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 1, max: 6 }), async (writers, each) => {
      const stream = newStream();
      const logs = Array.from({ length: writers }, (_, i) => freshLog(t, i));
      await Promise.all(
        logs.map(async (log, w) => {
          for (let n = 0; n < each; n++) await appendNote(log, stream, `${stream}/${w}/${n}`, w, 1);
        }),
      );
      const entries = await entriesOf(freshLog(t), stream);
      t.is(entries.length, writers * each);
      t.deepEqual(
        entries.map((e) => e.seq),
        entries.map((_, i) => i + 1),
      );
      t.is(new Set(entries.map((e) => e.key)).size, writers * each);
      entries.forEach((e, i) => t.is(e.total, i + 1));
      t.is((await freshLog(t).latest(stream))?.seq, writers * each);
    }),
    { numRuns: 8 },
  );
});

test("a replay answers the first entry of its key, from any process, whatever was appended since", async (t) => {
  const stream = newStream();
  const log = freshLog(t);
  const first = await appendNote(log, stream, "replayed", 1, 10);
  t.is(first.kind, "appended");
  for (let n = 0; n < 5; n++) await appendNote(log, stream, `after-${n}`, 1, 1);
  // The same key again, with other data: the first entry is the answer, nothing new is stored.
  for (const other of [log, freshLog(t, 1)]) {
    const again = await appendNote(other, stream, "replayed", 2, 99);
    t.like(again, { kind: "keyTaken", first: { seq: 1, writer: 1, total: 10 } });
    t.like(await other.findByKey("replayed"), { seq: 1, total: 10 });
  }
  t.is((await freshLog(t).latest(stream))?.seq, 6);
});

test("a retry whose first append landed but was never acknowledged finds it at its own sequence", async (t) => {
  const stream = newStream();
  const log = freshLog(t);
  await appendNote(log, stream, "lost-ack", 1, 5);
  // The retry builds on what it read before the first attempt: the same sequence, the same key.
  const retry = await freshLog(t, 1).append({ stream, seq: 1, key: "lost-ack", writer: 1, total: 5 });
  t.like(retry, { kind: "keyTaken", first: { seq: 1 } });
});

test("the latest entry is found from a lagging, missing or ahead hint, and by a cold process", async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 70 }),
      fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 140 })),
      async (count, hint) => {
        const stream = newStream();
        const writer = freshLog(t);
        for (let n = 0; n < count; n++) await appendNote(writer, stream, `${stream}/${n}`, 1, 1);
        const hints = t.context.db.collection<{ _id: string; hintSeq: number }>("notes");
        if (hint === null) await hints.deleteOne({ _id: `${stream}:head` });
        else await hints.updateOne({ _id: `${stream}:head` }, { $set: { hintSeq: hint } }, { upsert: true });
        t.is((await freshLog(t, 1).latest(stream))?.seq ?? 0, count);
      },
    ),
    { numRuns: 15 },
  );
});

test("the cache of latest entries is least recently used, sized by resize: a stream it holds costs one read, any other more", async (t) => {
  const names = Array.from({ length: 4 }, newStream);
  const writer = freshLog(t);
  for (const stream of names) for (const n of [1, 2]) await appendNote(writer, stream, `${stream}/${n}`, 1, 1);
  const client = new MongoClient(t.context.ferret.uri, { monitorCommands: true });
  t.teardown(() => client.close());
  let finds = 0;
  client.on("commandStarted", (event) => {
    if (event.commandName === "find") finds++;
  });
  const CACHE_SIZE = 2;
  const step = fc.oneof(
    { arbitrary: fc.record({ read: fc.integer({ min: 0, max: names.length - 1 }) }), weight: 4 },
    { arbitrary: fc.record({ resize: fc.integer({ min: 0, max: names.length }) }), weight: 1 },
  );
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 8, maxLength: 30 }), async (steps) => {
      const log = new SequencedLog<Note>(client.db("log").collection("notes"), { cacheSize: CACHE_SIZE });
      // The model: the streams held, read least lately first, and how many it may hold.
      const held: string[] = [];
      let capacity = CACHE_SIZE;
      const forget = () => held.splice(0, Math.max(0, held.length - capacity));
      for (const next of steps) {
        if ("resize" in next) {
          log.resize(next.resize);
          capacity = Math.max(CACHE_SIZE, next.resize);
          forget();
          continue;
        }
        const stream = names[next.read]!;
        finds = 0;
        const latest = await log.latest(stream);
        if (latest?.seq !== 2) return false;
        if (held.includes(stream) !== (finds === 1)) return false;
        if (held.includes(stream)) held.splice(held.indexOf(stream), 1);
        held.push(stream);
        forget();
      }
      return true;
    }),
    { numRuns: 40 },
  );
  t.pass();
});

test("has() tells the stored entries of a stream from those not stored", async (t) => {
  const stream = newStream();
  const log = freshLog(t);
  for (let n = 0; n < 5; n++) await appendNote(log, stream, `${stream}/${n}`, 1, 1);
  const reader = freshLog(t, 1);
  t.deepEqual(await Promise.all([0, 1, 4, 5, 6].map((seq) => reader.has(stream, seq))), [
    false,
    true,
    true,
    true,
    false,
  ]);
  t.false(await reader.has(newStream(), 1));
});

test("a crash between the entry and its key document (possible on MongoDB) still resolves the key", async (t) => {
  const stream = newStream();
  const notes = t.context.db.collection("notes");
  // What an append leaves when the server fails between its two inserts: the entry alone.
  await notes.insertOne({ _id: `${stream}:1` as never, stream, seq: 1, key: "orphan", writer: 1, total: 7 });
  const log = freshLog(t, 1);
  t.is(await log.findByKey("orphan"), null);
  const again = await appendNote(log, stream, "orphan", 2, 1);
  t.like(again, { kind: "keyTaken", first: { seq: 1, total: 7 } });
  // And a writer never builds a second entry for the key on top of it.
  t.is((await log.latest(stream))?.seq, 1);
});

test("an append refused by a write it cannot read yet (MongoDB's majority reads lag its unique indexes) is UNAVAILABLE, to be retried", async (t) => {
  const stream = newStream();
  const other = await freshLog(t, 0).append({ stream, seq: 1, key: "theirs", writer: 1, total: 1 });
  t.is(other.kind, "appended");
  // Our reads as a majority read sees a concurrent append the primary has applied but not yet
  // replicated: its unique index entries refuse our insert, its documents are not there to read.
  const notes = t.context.clients[1]!.db("log").collection("notes");
  const unseen = new Set<unknown>([`${stream}:1`, "theirs:key"]);
  const lagging = new Proxy(notes, {
    get(target, name, receiver) {
      if (name !== "findOne") return Reflect.get(target, name, receiver) as unknown;
      return async (filter: { _id?: string }) => (unseen.has(filter._id) ? null : target.findOne(filter as never));
    },
  });
  const log = new SequencedLog<Note>(lagging);
  const refused = await t.throwsAsync(log.append({ stream, seq: 1, key: "mine", writer: 2, total: 1 }), {
    instanceOf: UnavailableError,
  });
  t.regex(refused.message, /retry with the same idempotency key/);
  // Once the write is visible, the same append is told it lost the sequence.
  unseen.clear();
  t.like(await log.append({ stream, seq: 1, key: "mine", writer: 2, total: 1 }), { kind: "seqTaken" });
});

/**
 * A collection whose next insertMany does what MongoDB's primary does when it steps down before a
 * majority confirmed the write: the documents are written, the driver throws a bulk write error
 * carrying a write concern error (and their insertedCount); then, if `rolledBack`, the failover
 * undoes them.
 */
function unconfirmedInsert(collection: Collection, rolledBack: boolean): Collection {
  let armed = true;
  return new Proxy(collection, {
    get(target, name, receiver) {
      if (name !== "insertMany" || !armed) return Reflect.get(target, name, receiver) as unknown;
      return async (docs: { _id: string }[], options: object) => {
        armed = false;
        const written = await target.insertMany(docs as never, options);
        if (rolledBack) await target.deleteMany({ _id: { $in: docs.map((doc) => doc._id) } } as never);
        const result = {
          insertedCount: written.insertedCount,
          getWriteConcernError: () => ({ code: 189, errmsg: "PrimarySteppedDown" }),
        };
        throw new MongoBulkWriteError({ message: "PrimarySteppedDown", code: 189 } as never, result as never);
      };
    },
  });
}

test("an append a majority did not confirm is an outage, not appended: a rollback leaves no gap, a kept write is found by its key", async (t) => {
  for (const rolledBack of [true, false]) {
    const stream = newStream();
    const notes = t.context.clients[0]!.db("log").collection("notes");
    await appendNote(freshLog(t), stream, `${stream}/first`, 1, 1);
    const log = new SequencedLog<Note>(unconfirmedInsert(notes, rolledBack));
    t.is((await log.latest(stream))?.seq, 1);
    const entry: Note = { stream, seq: 2, key: `${stream}/unconfirmed`, writer: 1, total: 2 };
    const unknown = await t.throwsAsync(log.append(entry));
    t.true(isDatabaseOutage(unknown), "a 503, retried under the same key");
    // The writer must not take the unconfirmed entry as the stream's latest (its next would be 3).
    t.is((await log.latest(stream))?.seq, rolledBack ? 1 : 2);
    // The retry under the same key: appended again after a rollback, its first outcome otherwise.
    t.like(await log.append(entry), rolledBack ? { kind: "appended" } : { kind: "keyTaken", first: { seq: 2 } });
    t.deepEqual(
      (await entriesOf(freshLog(t, 1), stream)).map((note) => note.seq),
      [1, 2],
    );
  }
});

test("all() streams every entry once, each stream in sequence order, and no key or hint document", async (t) => {
  const a = newStream();
  const b = newStream();
  // Its own client, to see the command: in storage order, never from the key index (MongoDB would
  // answer the filter from that sparse index, in key order, without the hint).
  const monitored = new MongoClient(t.context.ferret.uri, { monitorCommands: true });
  t.teardown(() => monitored.close());
  const finds: unknown[] = [];
  monitored.on("commandStarted", (event) => {
    if (event.commandName === "find") finds.push(event.command.hint);
  });
  const log = new SequencedLog<Note>(monitored.db("log").collection("notes"));
  for (let n = 0; n < 9; n++) await appendNote(log, n % 2 ? a : b, `${a}/${b}/${n}`, 1, 1);
  const seen = new Map<string, number[]>();
  for await (const entry of log.all()) {
    if (entry.stream === a || entry.stream === b)
      seen.set(entry.stream, [...(seen.get(entry.stream) ?? []), entry.seq]);
  }
  t.deepEqual(seen.get(a), [1, 2, 3, 4]);
  t.deepEqual(seen.get(b), [1, 2, 3, 4, 5]);
  t.deepEqual(finds.at(-1), { $natural: 1 });
});

test("streams numbered from another first sequence are found from it", async (t) => {
  const stream = newStream();
  const collection = t.context.clients[0]!.db("log").collection("notes");
  const writer = new SequencedLog<Note>(collection, { firstSeq: 2, hintStride: 1_000 });
  t.is(await writer.latest(stream), null);
  for (let seq = 2; seq <= 6; seq++)
    t.is((await writer.append({ stream, seq, key: `${stream}/${seq}`, writer: 1, total: seq })).kind, "appended");
  const cold = new SequencedLog<Note>(t.context.clients[1]!.db("log").collection("notes"), { firstSeq: 2 });
  t.is((await cold.latest(stream))?.seq, 6);
});
