// The transfer store on embedded FerretDB, read the way MongoDB's majority reads see a concurrent
// writer's insert that the primary has applied but not yet replicated: its unique index refuses our
// insert, and our read cannot find it yet. The request is then UNAVAILABLE, for a retry under its key.
import { UnavailableError } from "@pokerodds/common";
import test from "ava";
import type { Db } from "mongodb";
import { TransferStore, type TransferClaim } from "../src/transfer-store.js";
import { embeddedDatabase } from "./helpers/database.js";

const database = embeddedDatabase(test);

/** The database as a lagging reader sees it: every read of `hidden` finds nothing. */
function lagging(db: Db, hidden: string): Db {
  const collection = (name: string) => {
    const real = db.collection(name);
    return new Proxy(real, {
      get: (target, field, receiver) =>
        field === "findOne"
          ? async (filter: { _id?: string }) => (filter._id === hidden ? null : target.findOne(filter as never))
          : (Reflect.get(target, field, receiver) as unknown),
    });
  };
  return { collection } as Partial<Db> as Db;
}

const claimOf = (id: string): TransferClaim => ({
  _id: id,
  kind: "sit",
  playerId: "p1",
  tableId: 7,
  amountCents: 5_000,
  idempotencyKey: "k1",
  state: "PENDING",
  outcome: null,
  playerName: "p1",
  avatarImageUrl: "",
  sessionId: "",
  createdAt: new Date(),
});

test("a claim or an outcome refused by a write not visible yet is UNAVAILABLE, then found once it is", async (t) => {
  const db = database.fresh();
  const writer = new TransferStore(db);
  t.deepEqual(await writer.claim(claimOf("t1")), { claimed: true });
  await writer.recordOutcome("t1", { ok: true, value: 1 });

  const behind = new TransferStore(lagging(database.on(db, 1), "t1"));
  const claimed = await t.throwsAsync(behind.claim(claimOf("t1")), { instanceOf: UnavailableError });
  t.regex(claimed.message, /retry with the same idempotency key/);
  await t.throwsAsync(behind.recordOutcome("t1", { ok: true, value: 2 }), { instanceOf: UnavailableError });

  const caughtUp = new TransferStore(database.on(db, 1));
  t.like(await caughtUp.claim(claimOf("t1")), { claimed: false, existing: { _id: "t1" } });
  t.deepEqual(await caughtUp.recordOutcome("t1", { ok: true, value: 2 }), { ok: true, value: 1 });
});
