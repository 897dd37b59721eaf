// Delivering a table's outbox with a real snapshot store on embedded FerretDB: through a wallet port
// that fails one credit, the credits the wallet applied are marked delivered, the failed one stays
// owed for the next delivery, and its error reaches the caller; and recovery finds what is owed, on
// the tables active lately at every pass and on every table at a sweep.
import { createLogger } from "@pokerodds/common";
import test from "ava";
import type { Movement, MovementOutcome, WalletPort } from "../src/dependencies.js";
import { applyLeave, type TableSnapshot } from "../src/domain/index.js";
import { deliverOutbox } from "../src/outbox.js";
import type { TableParts } from "../src/parts.js";
import { recoverOnce, sweepOutboxes } from "../src/recovery.js";
import { SnapshotStore } from "../src/snapshot-store.js";
import type { TransferStore } from "../src/transfer-store.js";
import { embeddedDatabase } from "./helpers/database.js";
import { deepFreeze, newTable, sit, T0 } from "./helpers/fixtures.js";

const database = embeddedDatabase(test);

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
  const store = new SnapshotStore(database.fresh());
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
  const store = new SnapshotStore(database.fresh());
  // Table 7 is played through the store now (which notes it active); table 8 was played long ago.
  const play = (key: string, change: (latest: TableSnapshot, now: number) => TableSnapshot) =>
    store.apply(7, { key, fingerprint: "" }, (latest, now) => ({ next: change(latest, now), result: null }));
  for (const playerId of ["p1", "p2", "p3"]) {
    await play(`sit-${playerId}`, (latest, now) => sit(latest, playerId, 10_000, now));
    await play(
      `leave-${playerId}`,
      (latest, now) => applyLeave(latest, { playerId, transferId: `leave-${playerId}` }, now).next!,
    );
  }
  await store.load([owingThree(8, T0)]);
  const { asked, wallet } = recordingWallet();
  const transfers = { listPending: async () => [] } as Partial<TransferStore> as TransferStore;
  const parts = { store, wallet, transfers, logger: createLogger("test") } as TableParts;
  const owedBy = async (tableId: number) => (await store.latest(tableId)).snapshot.outbox.length;
  t.deepEqual([await owedBy(7), await owedBy(8)], [3, 3]);

  t.true(await recoverOnce(parts, 0));
  t.deepEqual([await owedBy(7), await owedBy(8)], [0, 3], "a pass looks at the tables active lately");
  t.is(asked.length, 3);
  t.true(await sweepOutboxes(parts, 0));
  t.deepEqual([await owedBy(7), await owedBy(8)], [0, 0], "a sweep looks at every table");
  t.is(asked.length, 6);
});

test("an operation's change is found without its key document among the versions since its claim, and only there", async (t) => {
  const db = database.fresh();
  const store = new SnapshotStore(db);
  const before = new Date(Date.now() - 1_000);
  const change = (key: string, playerId: string) =>
    store.apply(7, { key, fingerprint: key }, (latest, now) => ({
      next: sit(latest, playerId, 100, now),
      result: key,
    }));
  await change("first", "p1");
  await change("wanted", "p2");
  for (const playerId of ["p3", "p4", "p5"]) await change(`after-${playerId}`, playerId);
  // What a crash between an entry and its key document leaves on MongoDB.
  await db.collection("history").deleteOne({ _id: "wanted:key" as never });
  t.is(await store.findOp("wanted"), null);
  t.like(await store.findOpSince(7, "wanted", before), { result: "wanted", version: 3 });
  t.is(await store.findOpSince(7, "wanted", new Date(Date.now() + 60_000)), null, "nothing stored since then");
  t.is(await store.findOpSince(7, "never-stored", before), null);
});
