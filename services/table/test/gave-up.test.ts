// A change whose caller gave up before it was decided is not made: the table's store checks the
// caller's signal when the change's turn at its table comes and after each read of the head it
// decides on, before anything is written (a database that stalls past the call's deadline otherwise
// had a bet placed late, at a stage its player no longer saw, after the client's 503).
import { startFerretDB, type FerretDB } from "@pokerodds/launcher/ferretdb";
import test, { type ExecutionContext } from "ava";
import { MongoClient } from "mongodb";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyTable, type TableSnapshot } from "../src/domain/index.js";
import { createIndexes } from "../src/indexes.js";
import { SnapshotStore } from "../src/snapshot-store.js";

let dir = "";
let ferret: FerretDB | undefined;
test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), "pokerodds-gave-up-"));
  ferret = await startFerretDB({ dataDir: dir, output: "ignore" });
});
test.after.always(async () => {
  await ferret?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A store (a process that has read nothing yet) on a database of its own, with table 1 at version 2. */
async function coldStore(t: ExecutionContext, name: string) {
  const client = new MongoClient(ferret!.uri, { monitorCommands: true });
  t.teardown(() => client.close());
  const db = client.db(name);
  await createIndexes(db);
  await new SnapshotStore(db).load([{ ...emptyTable(1, Date.now()), version: 2 }]);
  return { client, store: new SnapshotStore(db), fresh: () => new SnapshotStore(db) };
}

const nextVersion = (latest: TableSnapshot, now: number) => ({
  next: { ...latest, version: latest.version + 1, updatedAt: now },
  result: null,
});

test("a change whose caller gave up while its head was read is not made", async (t) => {
  const { client, store, fresh } = await coldStore(t, "gave-up");
  const call = new AbortController();
  // The caller's deadline passes while the head is read (as when the database stalls).
  client.on("commandStarted", (event) => {
    if (event.commandName === "find") call.abort(new Error("the call ended"));
  });
  await t.throwsAsync(store.apply(1, { key: "k1", fingerprint: "" }, nextVersion, call.signal), {
    message: "the call ended",
  });
  t.is((await fresh().latest(1)).snapshot.version, 2, "nothing stored");
});

test("the same change with its caller still there is made", async (t) => {
  const { store, fresh } = await coldStore(t, "still-there");
  const applied = await store.apply(1, { key: "k1", fingerprint: "" }, nextVersion, new AbortController().signal);
  t.is(applied.kind, "stored");
  t.is((await fresh().latest(1)).snapshot.version, 3);
});
