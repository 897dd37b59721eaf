// Delivering a table's outbox with a real snapshot store on embedded FerretDB: through a wallet port
// that fails one credit, the credits the wallet applied are marked delivered, the failed one stays
// owed for the next delivery, and its error reaches the caller; and recovery finds what is owed, on
// the tables active lately at every pass and on every table at a sweep.
import { createLogger } from "@pokerodds/common";
import { startFerretDB, type FerretDB } from "@pokerodds/launcher/ferretdb";
import { freePort } from "@pokerodds/launcher/ports";
import anyTest, { type TestFn } from "ava";
import { MongoClient, type Db } from "mongodb";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Movement, MovementOutcome, WalletPort } from "../src/dependencies.js";
import { applyLeave } from "../src/domain/index.js";
import { deliverOutbox } from "../src/outbox.js";
import type { TableParts } from "../src/parts.js";
import { recoverOnce } from "../src/recovery.js";
import { SnapshotStore } from "../src/snapshot-store.js";
import type { TransferStore } from "../src/transfer-store.js";
import { deepFreeze, newTable, sit, T0 } from "./helpers/fixtures.js";

interface Context {
  dataDir: string;
  database: FerretDB;
  mongo: MongoClient;
}
const test = anyTest as TestFn<Context>;

test.before(async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), "pokerodds-outbox-"));
  const database = await startFerretDB({ dataDir, port: await freePort(), output: "inherit" });
  t.context = { dataDir, database, mongo: new MongoClient(database.uri) };
});
test.after.always(async (t) => {
  await t.context.mongo?.close();
  await t.context.database?.stop();
  if (t.context.dataDir) await rm(t.context.dataDir, { recursive: true, force: true });
});

let databases = 0;
const freshDb = (t: { context: Context }): Db => t.context.mongo.db(`table-${++databases}`);

/** Table `tableId` after p1, p2 and p3 sat and left at `now`: it owes each of them their seat. */
function owingThree(tableId: number, now = T0) {
  let table = newTable(tableId);
  for (const playerId of ["p1", "p2", "p3"]) table = sit(table, playerId, 10_000, now);
  for (const playerId of ["p1", "p2", "p3"]) {
    table = deepFreeze(applyLeave(table, { playerId, transferId: `leave-${playerId}` }, now).next!);
  }
  return table;
}

/** A wallet port that records whom it credits, and fails the players named in `away`. */
function recordingWallet(away: readonly string[] = []) {
  const asked: string[] = [];
  const credit = async (movement: Movement): Promise<MovementOutcome> => {
    asked.push(movement.playerId);
    if (away.includes(movement.playerId)) throw new Error(`the wallet is away for ${movement.playerId}`);
    return { applied: true, balanceCents: movement.amountCents };
  };
  return { asked, wallet: { credit } as Partial<WalletPort> as WalletPort };
}

test("a failed credit holds up no other: the applied ones are marked delivered, it stays owed", async (t) => {
  const store = new SnapshotStore(freshDb(t));
  await store.load([owingThree(7)]);
  const { asked, wallet } = recordingWallet(["p2"]);
  const parts = { store, wallet, logger: createLogger("test") } as TableParts;

  await t.throwsAsync(deliverOutbox(parts, 7, {}), { message: "the wallet is away for p2" });
  t.deepEqual(asked.sort(), ["p1", "p2", "p3"]);
  const { snapshot } = await store.latest(7);
  t.deepEqual(
    snapshot.outbox.map((owed) => owed.playerId),
    ["p2"],
  );
});

test("recovery delivers what an active table owes at every pass, and what any table owes at a sweep", async (t) => {
  const store = new SnapshotStore(freshDb(t));
  // Owed for a minute (past the grace), by a table played then; and for a day, by one played then.
  const aMinuteAgo = Date.now() - 60_000;
  await store.load([owingThree(7, aMinuteAgo), owingThree(8, T0)]);
  await store.activity.note(7, aMinuteAgo);
  const { asked, wallet } = recordingWallet();
  const transfers = { listPending: async () => [] } as Partial<TransferStore> as TransferStore;
  const parts = { store, wallet, transfers, logger: createLogger("test") } as TableParts;
  const owedBy = async (tableId: number) => (await store.latest(tableId)).snapshot.outbox.length;

  await recoverOnce(parts, 15_000, { sweep: false });
  t.deepEqual([await owedBy(7), await owedBy(8)], [0, 3], "a pass looks at the tables active lately");
  t.is(asked.length, 3);
  await recoverOnce(parts, 15_000, { sweep: true });
  t.deepEqual([await owedBy(7), await owedBy(8)], [0, 0], "a sweep looks at every table");
  t.is(asked.length, 6);
});
