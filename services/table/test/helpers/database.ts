// One embedded FerretDB for a test file, in a temporary directory, with a fresh database per test:
// for the store-level tests that need the real database but no service process.
import { startFerretDB, type FerretDB } from "@pokerodds/launcher/ferretdb";
import type { TestFn } from "ava";
import { MongoClient, type Db } from "mongodb";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface EmbeddedDatabase {
  /** A database no other test of the file uses, on connection `client` (0 or 1: two replicas' own). */
  fresh(client?: number): Db;
  /** The same database on the other connection. */
  on(db: Db, client: number): Db;
}

/** Starts the database before the file's tests and removes it after them. */
export function embeddedDatabase(test: TestFn<unknown>): EmbeddedDatabase {
  let dir = "";
  let ferret: FerretDB | undefined;
  const clients: MongoClient[] = [];
  test.before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pokerodds-table-store-"));
    ferret = await startFerretDB({ dataDir: dir, output: "ignore" });
    clients.push(new MongoClient(ferret.uri), new MongoClient(ferret.uri));
  });
  test.after.always(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await ferret?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  let databases = 0;
  return {
    fresh: (client = 0) => clients[client]!.db(`table-${++databases}`),
    on: (db, client) => clients[client]!.db(db.databaseName),
  };
}
