// A write on a pooled connection that the server has just closed (mongo-closed-write.ts), on the real
// embedded database behind a proxy that can close every connection at once (needs `npm run build:db`).
import { startFerretDB } from "@pokerodds/launcher/ferretdb";
import test from "ava";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createLogger } from "../src/logger.js";
import { isDatabaseOutage, openDatabase } from "../src/mongo.js";
import { writesEndedByClose } from "../src/mongo-closed-write.js";

/** Far longer than any answer here takes, and than the driver's own bounds in this test. */
const HUNG_AFTER_MS = 10_000;

/** A loopback proxy to the database's socket that can end its clients' connections, as a server going away does (FIN). */
async function closingProxy(socketPath: string) {
  const clientSides = new Set<Socket>();
  const server = createServer((clientSide) => {
    const serverSide = connect(socketPath);
    clientSide.pipe(serverSide).pipe(clientSide);
    clientSides.add(clientSide);
    const drop = () => {
      clientSides.delete(clientSide);
      clientSide.destroy();
      serverSide.destroy();
    };
    for (const socket of [clientSide, serverSide]) socket.on("error", drop).on("close", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    endAll: () => clientSides.forEach((socket) => socket.end()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

test("a write on a connection the server has just closed fails as an outage instead of waiting forever", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "closed-write-"));
  const ferret = await startFerretDB({ dataDir: dir, output: "ignore" });
  const proxy = await closingProxy(ferret.socketPath);
  // One pooled connection, so the next operation takes the very connection that was closed.
  const uri = `mongodb://127.0.0.1:${proxy.port}/?directConnection=true&maxPoolSize=1&retryWrites=false`;
  const options = {
    uri,
    name: "closed-write",
    logger: createLogger("test"),
    setUp: async () => {},
    onStatusChange: () => {},
    onWritableChange: () => {},
  };
  const database = openDatabase(options);
  try {
    await database.ready;
    const notes = database.db.collection<{ round: number }>("notes");
    const outcomes: string[] = [];
    const ended = async () => (await writesEndedByClose.get()).values[0]?.value ?? 0;
    const endedBefore = await ended();
    // The window lasts one turn of the event loop, a turn or two after the server's FIN: writing 0 to
    // 7 turns later, round by round, meets it in some (two turns later, round 2, on this machine).
    for (let round = 0; round < 24; round++) {
      await notes.findOne({}); // the connection is up and idle in the pool
      proxy.endAll();
      await turns(round % 8);
      const write = notes.insertOne({ round }).then(
        () => "written",
        (error: unknown) => (isDatabaseOutage(error) ? "outage" : `other error: ${String(error)}`),
      );
      const outcome = await Promise.race([write, sleep(HUNG_AFTER_MS, "still waiting", { ref: false })]);
      outcomes.push(outcome);
      if (outcome === "still waiting") break;
    }
    t.false(outcomes.includes("still waiting"), `outcomes by round: ${outcomes.join(", ")}`);
    t.deepEqual(
      outcomes.filter((o) => o !== "written" && o !== "outage"),
      [],
    );
    t.true((await ended()) > endedBefore, "some write met the window (else this test proves nothing)");
  } finally {
    await database.close();
    await proxy.close();
    await ferret.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
