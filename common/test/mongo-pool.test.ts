// The database client's pool gives back what a burst opened (needs `npm run build:db`).
import { startFerretDB } from "@pokerodds/launcher/ferretdb";
import test from "ava";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createLogger } from "../src/logger.js";
import { openDatabase } from "../src/mongo.js";

const IDLE_MS = 300;
const BURST = 20;

test("connections a burst opened are closed once idle, and the pool opens again on demand", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "mongo-pool-"));
  const ferret = await startFerretDB({ dataDir: dir, output: "ignore" });
  const database = openDatabase({
    uri: ferret.uri,
    name: "pool",
    logger: createLogger("test"),
    setUp: async () => {},
    onStatusChange: () => {},
    onWritableChange: () => {},
    // No health ping while the test waits for the pool to empty.
    pingIntervalMs: 60_000,
    idleConnectionMs: IDLE_MS,
  });
  const open = new Set<number>();
  const closedIdle: number[] = [];
  database.client.on("connectionReady", (event) => open.add(event.connectionId as number));
  database.client.on("connectionClosed", (event) => {
    open.delete(event.connectionId as number);
    if (event.reason === "idle") closedIdle.push(event.connectionId as number);
  });
  try {
    await database.ready;
    const notes = database.db.collection<{ n: number }>("notes");
    await notes.insertOne({ n: 0 });
    // At once, the finds need a connection each (up to the pool's size).
    await Promise.all(Array.from({ length: BURST }, () => notes.find({ n: { $gte: 0 } }).toArray()));
    const afterBurst = open.size;
    t.true(afterBurst > 1, `the burst opened ${afterBurst} connection(s)`);

    // The driver prunes on its pool's background pass (every 100 ms by default).
    for (let waited = 0; open.size > 0 && waited < 20 * IDLE_MS; waited += 100) await sleep(100);
    t.is(open.size, 0, `${open.size} of ${afterBurst} connections still open after idling`);
    t.true(closedIdle.length >= afterBurst, `closed as idle: ${closedIdle.length}`);

    t.is((await notes.find({}).toArray()).length, 1, "a later command opens a connection again");
  } finally {
    await database.close();
    await ferret.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
