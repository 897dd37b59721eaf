// Delivering a table's outbox with a real snapshot store on embedded FerretDB, through a wallet
// port that fails one credit: the credits the wallet applied are marked delivered, the failed one
// stays owed for the next delivery, and its error reaches the caller.
import { createLogger } from "@pokerodds/common";
import { startFerretDB } from "@pokerodds/launcher/ferretdb";
import { freePort } from "@pokerodds/launcher/ports";
import test from "ava";
import { MongoClient } from "mongodb";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Movement, MovementOutcome, WalletPort } from "../src/dependencies.js";
import { applyLeave } from "../src/domain/index.js";
import { deliverOutbox } from "../src/outbox.js";
import type { TableParts } from "../src/parts.js";
import { SnapshotStore } from "../src/snapshot-store.js";
import { deepFreeze, newTable, sit, T0 } from "./helpers/fixtures.js";

test("a failed credit holds up no other: the applied ones are marked delivered, it stays owed", async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), "pokerodds-outbox-"));
  const database = await startFerretDB({ dataDir, port: await freePort(), output: "inherit" });
  const mongo = new MongoClient(database.uri);
  try {
    const store = new SnapshotStore(mongo.db("table"));
    let table = newTable(7);
    for (const playerId of ["p1", "p2", "p3"]) table = sit(table, playerId);
    for (const playerId of ["p1", "p2", "p3"]) {
      table = deepFreeze(applyLeave(table, { playerId, transferId: `leave-${playerId}` }, T0).next!);
    }
    await store.load([table]);

    const asked: string[] = [];
    const credit = async (movement: Movement): Promise<MovementOutcome> => {
      asked.push(movement.playerId);
      if (movement.playerId === "p2") throw new Error("the wallet is away for p2");
      return { applied: true, balanceCents: movement.amountCents };
    };
    const parts = { store, wallet: { credit } as Partial<WalletPort>, logger: createLogger("test") } as TableParts;

    await t.throwsAsync(deliverOutbox(parts, 7, {}), { message: "the wallet is away for p2" });
    t.deepEqual(asked.sort(), ["p1", "p2", "p3"]);
    const { snapshot } = await store.latest(7);
    t.deepEqual(
      snapshot.outbox.map((owed) => owed.playerId),
      ["p2"],
    );
  } finally {
    await mongo.close();
    await database.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
