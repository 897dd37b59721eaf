// The seal after a restore on the embedded database: once per table and restore, whether two
// replicas seal at once or a replica starts again with the same name.
import { createLogger } from "@pokerodds/common";
import test from "ava";
import type { Db } from "mongodb";
import type { TableSnapshot } from "../src/domain/index.js";
import { createIndexes } from "../src/indexes.js";
import { sealAfterRestore } from "../src/restore-seal.js";
import { SnapshotStore } from "../src/snapshot-store.js";
import { embeddedDatabase } from "./helpers/database.js";
import { FAIRNESS, advanceTo, bet, newTable, sit } from "./helpers/fixtures.js";

const database = embeddedDatabase(test);
const logger = createLogger("restore-seal-test");
logger.level = "silent";

/** Table `tableId` with p1 and p2 seated at `state`, a bet of p1 on it when the game is in play. */
function table(tableId: number, state: TableSnapshot["gameState"]): TableSnapshot {
  const seated = sit(sit(newTable(tableId), "p1"), "p2");
  if (state === "STATUS_SETUP") return { ...seated, fairness: FAIRNESS };
  return advanceTo(bet(advanceTo(seated, "STATUS_HOLE"), "p1", 0, 300), state);
}

/** The tables stored as their first version: 1 at the flop, 2 undealt with a seed, 3 at the river. */
async function restored(
  db: Db,
  tables = [table(1, "STATUS_FLOP"), table(2, "STATUS_SETUP"), table(3, "STATUS_RIVER")],
) {
  await createIndexes(db); // as the service's set-up does before it seals
  await new SnapshotStore(db).load(tables.map((snapshot) => ({ ...snapshot, version: 2 })));
}

const heads = async (db: Db, tableIds: readonly number[]) => {
  const store = new SnapshotStore(db); // a process that has read nothing yet
  return Promise.all(tableIds.map(async (tableId) => (await store.latest(tableId)).snapshot));
};

test("two replicas sealing at once seal each table once", async (t) => {
  const db = database.fresh();
  await restored(db);
  await Promise.all([sealAfterRestore(db, "nightly", logger), sealAfterRestore(database.on(db, 1), "nightly", logger)]);
  const [inPlay, undealt, settled] = await heads(db, [1, 2, 3]);
  t.deepEqual(
    [inPlay, undealt, settled].map((s) => s!.version),
    [3, 3, 3],
  );
  t.like(inPlay, { gameState: "STATUS_SETUP", bets: [], finishedGame: { outcome: "VOID", refundsCents: 300 } });
  t.is(inPlay!.outbox.length, 1);
  t.truthy(undealt!.fairness);
  t.not(undealt!.fairness!.seedCommitment, FAIRNESS.seedCommitment, "a new seed, committed as it was stored");
  t.like(settled, { gameState: "STATUS_RIVER", fairness: table(3, "STATUS_RIVER").fairness });
});

test("a start with the same name seals nothing again, even a table written since; another restore's name does", async (t) => {
  const db = database.fresh();
  await restored(db);
  await sealAfterRestore(db, "nightly", logger);
  // Played since: a game dealt on table 1, and a table 4 first written after the seal.
  const store = new SnapshotStore(db);
  await store.apply(1, { key: "deal", fingerprint: "" }, (latest) => ({
    // Dealt from the fixtures' seed: the deal checks the cards against the committed one.
    next: { ...advanceTo({ ...latest, fairness: FAIRNESS }, "STATUS_HOLE"), version: latest.version + 1 },
    result: null,
  }));
  await new SnapshotStore(db).load([{ ...table(4, "STATUS_TURN"), version: 2 }]);
  const before = await heads(db, [1, 2, 3, 4]);

  await sealAfterRestore(db, "nightly", logger);
  t.deepEqual(await heads(db, [1, 2, 3, 4]), before);

  await sealAfterRestore(db, "weekly", logger);
  const after = await heads(db, [1, 2, 3, 4]);
  t.deepEqual(
    after.map((s) => s!.version),
    before.map((s) => s!.version + 1),
  );
  // Tables 1 and 4 had a game in play, table 2 a game not dealt yet, table 3 a settled one.
  t.deepEqual(
    after.map((s) => s!.finishedGame?.outcome ?? s!.gameState),
    ["VOID", before[1]!.gameState, "STATUS_RIVER", "VOID"],
  );
  t.not(after[1]!.fairness!.seedCommitment, before[1]!.fairness!.seedCommitment);
});

/**
 * The database as a replica sees it that read the restore's document before another replica wrote
 * it: its first read of `restores` finds nothing, whatever is there by then.
 */
function readRestoresEarly(db: Db): Db {
  let early = true;
  const restores = new Proxy(db.collection("restores"), {
    get(target, name) {
      if (name === "findOne" && early) {
        early = false;
        return () => Promise.resolve(null);
      }
      const value: unknown = Reflect.get(target, name);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return new Proxy(db, {
    get(target, name) {
      if (name === "collection") {
        return (collection: string) => (collection === "restores" ? restores : target.collection(collection));
      }
      const value: unknown = Reflect.get(target, name);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

test("a replica that lists the tables once another has sealed them all leaves a table written since alone", async (t) => {
  const db = database.fresh();
  await restored(db);
  await sealAfterRestore(db, "nightly", logger);
  // Through the replica that sealed: a table first written since, its game in play with a bet.
  await new SnapshotStore(db).load([{ ...table(4, "STATUS_TURN"), version: 2 }]);
  const [before] = await heads(db, [4]);

  // A replica that found no restore's document just before the other one wrote it.
  await sealAfterRestore(readRestoresEarly(database.on(db, 1)), "nightly", logger);
  const [after] = await heads(db, [4]);
  t.deepEqual(after, before, "its game stays in play, its bet open");
});

test("the restore's document counts the games voided by a pass that a crash cut short", async (t) => {
  const db = database.fresh();
  await restored(db, [table(1, "STATUS_FLOP"), table(2, "STATUS_TURN"), table(3, "STATUS_RIVER")]);
  await sealAfterRestore(db, "nightly", logger);
  // As if the process had stopped just before writing the document: the next start seals again.
  await db.collection("restores").deleteMany({});
  await sealAfterRestore(db, "nightly", logger);
  t.like(await db.collection("restores").findOne({ _id: "nightly" as never }), { tables: 3, voided: 2 });
});
