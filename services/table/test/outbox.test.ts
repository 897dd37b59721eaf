// Delivering a table's outbox with a real snapshot store on embedded FerretDB: through a wallet port
// that fails one credit, the credits the wallet applied are marked delivered, the failed one stays
// owed for the next delivery, and its error reaches the caller; and recovery finds what is owed:
// every table once on a store without its checkpoint, then the tables noted since, where a table
// owing a credit stays until the credit is delivered.
import { createLogger, type Logger } from "@pokerodds/common";
import test from "ava";
import type { Movement, MovementOutcome, WalletPort } from "../src/dependencies.js";
import { applyLeave, type CreditReason, type TableSnapshot } from "../src/domain/index.js";
import { creditsRefused } from "../src/metrics.js";
import { deliverOutbox, movementOf } from "../src/outbox.js";
import type { TableParts } from "../src/parts.js";
import { deliverCredits } from "../src/recovery.js";
import { BUCKET_MS } from "../src/activity-index.js";
import { SnapshotStore } from "../src/snapshot-store.js";
import { embeddedDatabase } from "./helpers/database.js";
import { deepFreeze, newTable, sit, T0 } from "./helpers/fixtures.js";

const database = embeddedDatabase(test);
/** For the two-replica test, whose wallets fail on purpose in every round: the warnings would only fill the output. */
const quiet = createLogger("test");
quiet.level = "error";

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

test("each credit reaches the wallet under its kind's reason, which the player's statement shows", (t) => {
  const credit = (reason: CreditReason) => ({
    ...{ key: `k-${reason}`, playerId: "p1", amountCents: 100, reason },
    ...{ reference: "T1-1", createdAt: T0 },
  });
  t.is(movementOf(1, credit("LEAVE")).reason, "leave");
  t.is(movementOf(1, credit("PAYOUT")).reason, "payout");
  t.is(movementOf(1, credit("VOID_REFUND")).reason, "void-refund");
});

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

test("a request's delivery logs through the request's logger (its requestId), not the process's", async (t) => {
  const store = new SnapshotStore(database.fresh());
  await store.load([owingThree(9)]);
  const refusing = { credit: async () => ({ applied: false, balanceCents: 0 }) } as Partial<WalletPort> as WalletPort;
  const lines: string[] = [];
  const logger = (who: string) =>
    ({ error: (_fields: unknown, message: string) => lines.push(`${who}: ${message}`) }) as unknown as Logger;
  await deliverOutbox({ store, wallet: refusing, logger: logger("process") } as TableParts, 9, {
    logger: logger("request"),
  });
  t.deepEqual(
    lines,
    Array(3).fill(
      "request: the wallet refused a table credit (its account is at the balance limit): it stays owed, and is sent again",
    ),
  );
});

// Serial: the counter is the process's, and other tests here refuse credits too.
test.serial(
  "each credit the wallet refuses is counted, for an alert: it stays owed until the account has room",
  async (t) => {
    const store = new SnapshotStore(database.fresh());
    await store.load([owingThree(11)]);
    const credit = async (movement: Movement): Promise<MovementOutcome> =>
      movement.playerId === "p2"
        ? { applied: false, balanceCents: 0 }
        : { applied: true, balanceCents: movement.amountCents };
    const refusingP2 = { credit } as Partial<WalletPort> as WalletPort;
    const refused = async () => (await creditsRefused.get()).values[0]?.value ?? 0;
    const before = await refused();
    await deliverOutbox({ store, wallet: refusingP2, logger: createLogger("test") } as TableParts, 11, {});
    t.is(await refused(), before + 1);
    t.deepEqual(
      (await store.latest(11)).snapshot.outbox.map((owed) => owed.playerId),
      ["p2"],
    );
  },
);

test("two replicas delivering different credits at once both mark theirs: neither passes for the other's replay", async (t) => {
  for (let round = 0; round < 10; round++) {
    const db = database.fresh(0);
    const one = new SnapshotStore(db);
    const two = new SnapshotStore(database.on(db, 1));
    await one.load([owingThree(7)]);
    await two.latest(7);
    // Each replica's wallet call for the others fails (a replica that reads the table after the
    // other marked its credits has only the rest to deliver): one marks p1 delivered, the other p2 and p3.
    await Promise.allSettled([
      deliverOutbox({ store: one, wallet: recordingWallet(["p2", "p3"]).wallet, logger: quiet } as TableParts, 7, {}),
      deliverOutbox({ store: two, wallet: recordingWallet(["p1"]).wallet, logger: quiet } as TableParts, 7, {}),
    ]);
    t.deepEqual((await one.latest(7)).snapshot.outbox, [], `round ${round}`);
  }
});

/** Table `tableId` played through the store now (which notes it): three players sat and left. */
async function playOwingThree(store: SnapshotStore, tableId: number) {
  const play = (key: string, change: (latest: TableSnapshot, now: number) => TableSnapshot) =>
    store.apply(tableId, { key, fingerprint: "" }, (latest, now) => ({ next: change(latest, now), result: null }));
  for (const playerId of ["p1", "p2", "p3"]) {
    await play(`sit-${tableId}-${playerId}`, (latest, now) => sit(latest, playerId, 10_000, now));
    await play(
      `leave-${tableId}-${playerId}`,
      (latest, now) => applyLeave(latest, { playerId, transferId: `leave-${tableId}-${playerId}` }, now).next!,
    );
  }
}

function recoveryParts(store: SnapshotStore, wallet: WalletPort): TableParts {
  return { store, wallet, logger: createLogger("test") } as TableParts;
}

const owedBy = async (store: SnapshotStore, tableId: number) => (await store.latest(tableId)).snapshot.outbox.length;

test("recovery reads every table once on a store without its checkpoint, then only the tables noted owing since", async (t) => {
  const store = new SnapshotStore(database.fresh());
  // Table 7 is played through the store (which notes it owing); table 8 is loaded without a note,
  // so only a pass that reads every table finds it.
  await playOwingThree(store, 7);
  await store.load([owingThree(8)]);
  const { asked, wallet } = recordingWallet();
  const parts = recoveryParts(store, wallet);
  t.is(await store.owing.recoveredFrom(), null);

  const before = Date.now();
  t.true(await deliverCredits(parts, 0));
  t.deepEqual([await owedBy(store, 7), await owedBy(store, 8)], [0, 0], "the first pass reads every table");
  t.is(asked.length, 6);
  t.true((await store.owing.recoveredFrom())! >= before - BUCKET_MS, "the checkpoint moved to this pass");

  // Written without a note, as no operation can write now, then noted active only (as a player's
  // operation notes a table): the next pass reads neither.
  await store.load([owingThree(9)]);
  await store.activity.note(9, Date.now());
  t.true(await deliverCredits(parts, 0));
  t.is(await owedBy(store, 9), 3, "a pass with a checkpoint reads the tables noted owing alone");
  t.is(asked.length, 6);
});

test.serial(
  "a version that owes, stored a bucket after its owing note (a stalled process), is noted again when stored",
  async (t) => {
    const store = new SnapshotStore(database.fresh());
    await store.load([sit(sit(newTable(6), "p1", 10_000, Date.now()), "p2", 10_000, Date.now())]);
    const realNow = Date.now;
    const stalledFor = 2 * BUCKET_MS;
    // The store takes its time for the change first: that time is two buckets back.
    let calls = 0;
    Date.now = () => (calls++ === 0 ? realNow() - stalledFor : realNow());
    try {
      await store.apply(6, { key: "leave-p1", fingerprint: "" }, (latest, now) => ({
        next: applyLeave(latest, { playerId: "p1", transferId: "leave-p1" }, now).next!,
        result: null,
      }));
    } finally {
      Date.now = realNow;
    }
    const now = Date.now();
    t.deepEqual(await store.owing.notedBetween(now - stalledFor, now - stalledFor), [6], "noted before it was stored");
    t.deepEqual(await store.owing.notedBetween(now, now), [6], "and again when it was, in the bucket of then");
  },
);

test("a table owing a credit the wallet does not take is noted again at every pass until it is delivered", async (t) => {
  const store = new SnapshotStore(database.fresh());
  await store.load([owingThree(8)]);
  // Noted 20 minutes ago, and recovery's checkpoint from 25 minutes ago.
  const now = Date.now();
  await store.owing.note(8, now - 20 * 60_000);
  await store.owing.markRecoveredFrom(now - 25 * 60_000);
  const away = recordingWallet(["p1", "p2", "p3"]);

  t.true(await deliverCredits(recoveryParts(store, away.wallet), 0), "every owing table is noted: the pass holds");
  t.is(away.asked.length, 3);
  t.is(await owedBy(store, 8), 3);
  const from = (await store.owing.recoveredFrom())!;
  t.true(from >= now - BUCKET_MS, "the checkpoint moved past the table's old note");
  t.deepEqual(await store.owing.notedBetween(from, Date.now()), [8], "the table is noted since the checkpoint");

  const back = recordingWallet();
  t.true(await deliverCredits(recoveryParts(store, back.wallet), 0));
  t.is(await owedBy(store, 8), 0);
});

test("a version that owes a new credit notes its table owing, whenever the table was last played", async (t) => {
  const store = new SnapshotStore(database.fresh());
  // Played at T0, long ago: neither table is in the index.
  await store.load([owingThree(7), owingThree(8)]);
  const change = (tableId: number, outbox: (latest: TableSnapshot) => TableSnapshot["outbox"]) =>
    store.apply(tableId, { key: `change-${tableId}`, fingerprint: "" }, (latest) => ({
      next: { ...latest, version: latest.version + 1, outbox: outbox(latest) },
      result: null,
    }));
  await change(7, (latest) => [...latest.outbox, { ...latest.outbox[0]!, key: "a-new-credit" }]);
  await change(8, (latest) => latest.outbox.slice(1));
  const now = Date.now();
  t.deepEqual(await store.owing.notedBetween(now - BUCKET_MS, now), [7]);
  t.deepEqual(await store.activity.activeAt(now), [], "no player played: not active");
});

test("an operation's change is found without its key document among the versions since its claim, and only there, so many at most", async (t) => {
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
  // Versions 6 to 3, newest first: the fourth read finds it.
  t.like(await store.findOpSince(7, "wanted", before, 4), { result: "wanted", version: 3 });
  t.is(await store.findOpSince(7, "wanted", before, 3), null, "past the bound");
  t.is(await store.findOpSince(7, "wanted", new Date(Date.now() + 60_000), 64), null, "nothing stored since then");
  t.is(await store.findOpSince(7, "never-stored", before, 64), null);
});

test("a checkpoint ahead of this clock (set before the clock stepped back) makes the pass read every table", async (t) => {
  const store = new SnapshotStore(database.fresh());
  // Recovery ran while this process's clock led by an hour; then NTP stepped it back, and a leave
  // noted its table owing now: before the checkpoint, in no bucket a pass from it reads.
  const now = Date.now();
  await store.owing.markRecoveredFrom(now + 60 * 60_000 - BUCKET_MS);
  await playOwingThree(store, 7);
  const { asked, wallet } = recordingWallet();
  t.true(await deliverCredits(recoveryParts(store, wallet), 0));
  t.is(await owedBy(store, 7), 0, "read and delivered");
  t.is(asked.length, 3);
  const from = (await store.owing.recoveredFrom())!;
  t.true(from <= Date.now() - BUCKET_MS, "the checkpoint starts again from this clock");
});

test("a credit stamped further ahead than clocks may lead (by a clock since stepped back) is delivered at once", async (t) => {
  const store = new SnapshotStore(database.fresh());
  await store.load([owingThree(8, Date.now() + 60 * 60_000)]);
  const { asked, wallet } = recordingWallet();
  t.true(await deliverCredits(recoveryParts(store, wallet), 60_000));
  t.is(await owedBy(store, 8), 0);
  t.is(asked.length, 3);
});
