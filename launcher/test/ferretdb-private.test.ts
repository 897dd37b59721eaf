// The embedded FerretDB has no authentication, so it is reached only through a Unix socket in its own
// directory, which only this user may enter: on loopback TCP any user of the machine could read every
// unrevealed server seed and append ledger entries, or take the port while the database restarted.
import test from "ava";
import { MongoClient } from "mongodb";
import { chmod, mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFerretDB } from "../src/ferretdb.js";

test("the database listens on a socket in a directory of this user's alone, also one it finds open, and again after a kill", async (t) => {
  const parent = await mkdtemp(join(tmpdir(), "pokerodds-ferretdb-private-"));
  t.teardown(() => rm(parent, { recursive: true, force: true }));
  const dataDir = join(parent, "db");
  await mkdir(dataDir);
  await chmod(dataDir, 0o755);
  let database = await startFerretDB({ dataDir, output: "ignore" });
  t.is(database.uri, `mongodb://${encodeURIComponent(join(dataDir, "ferretdb.sock"))}/?retryWrites=false`);
  t.is((await stat(dataDir)).mode & 0o777, 0o700);
  t.true((await stat(database.socketPath)).isSocket());
  // A database killed leaves its socket behind: the next one takes its place at the same address.
  database.child.process.kill("SIGKILL");
  await database.child.exited;
  database = await startFerretDB({ dataDir, output: "ignore" });
  t.teardown(() => database.stop());
  const client = new MongoClient(database.uri);
  t.teardown(() => client.close());
  await client.db("private").collection("notes").insertOne({ note: 1 });
  t.is(await client.db("private").collection("notes").countDocuments(), 1);
});

test("a directory path too long for a Unix socket is refused before the database starts", async (t) => {
  const dataDir = join(tmpdir(), "x".repeat(120));
  await t.throwsAsync(startFerretDB({ dataDir, output: "ignore" }), { message: /longer than a Unix socket may be/ });
});
