// The database goes away: health says NOT_SERVING and every RPC answers UNAVAILABLE (a 503 at the
// gateway), never an internal error; when it is back, the service serves again by itself. A database
// that stalls instead holds a bet past its call's end: it is not placed once the database answers.
import { status } from "@grpc/grpc-js";
import { setTimeout } from "node:timers/promises";
import anyTest, { type TestFn } from "ava";
import { statusOf, waitForHealth } from "../../../test/helpers/grpc-services.js";
import { admin, balanceOf, newPlayer, startTableCluster, type TableCluster } from "./helpers/table-cluster.js";

const test = anyTest as TestFn<TableCluster>;

test.before(async (t) => {
  t.context = await startTableCluster();
});
test.after.always(async (t) => {
  await t.context.stop?.();
});

test.serial("UNAVAILABLE while the database is down, serving again once it is back", async (t) => {
  const cluster = t.context;
  const caller = await newPlayer(cluster, "patient");
  const table = cluster.table();
  await table.sit({ caller, tableId: 1, buyInCents: 1_000, idempotencyKey: "s" });

  await cluster.stopDatabase();
  await waitForHealth("table", cluster.replicas[0]!.port, "NOT_SERVING");
  t.is(await statusOf(table.getState({ caller: admin(), tableId: 1 })), status.UNAVAILABLE);
  t.is(await statusOf(table.listTables({ cachedEtag: "" })), status.UNAVAILABLE);
  t.is(await statusOf(table.leave({ caller, tableId: 1, idempotencyKey: "l" })), status.UNAVAILABLE);
  t.is(await statusOf(table.audit({ caller: admin() })), status.UNAVAILABLE);

  await cluster.startDatabase();
  await waitForHealth("table", cluster.replicas[0]!.port, "SERVING");
  // The same leave, retried with its key once the database is back, completes once.
  t.like(await table.leave({ caller, tableId: 1, idempotencyKey: "l" }), { creditsReturnedCents: 1_000 });
  t.is(await balanceOf(cluster, "patient"), 100_000);
});

// The bet's read of its table's head waits on the stalled database past the call's deadline; once the
// database answers, the bet is not placed (the store checks the call: `gaveUp`): the player was told
// it failed, and the stage may have moved on by then. The database answers a moment after the
// deadline, once the service has surely seen the call end (its own deadline timer, the client's
// cancel): answered at once, the database's reply can be read before the cancel (both wait on the
// service's sockets), and such a bet is placed, as its client's "outcome unknown" allows (CI, once).
test.serial("a bet whose call ended while the database stalled is not placed once it answers", async (t) => {
  const cluster = t.context;
  const caller = await newPlayer(cluster, "stalled");
  const table = cluster.table();
  const sit = await table.sit({ caller, tableId: 2, buyInCents: 1_000, idempotencyKey: "s" });
  await table.advance({ caller, tableId: 2 }); // the deal
  const seatBalance = async () =>
    (await table.getState({ caller: admin(), tableId: 2 })).state!.seats.find((s) => s.playerId === "stalled")!
      .seatBalanceCents;
  const before = await seatBalance();

  const database = cluster.pauseDatabase();
  const bet = { caller, tableId: 2, seatIndex: sit.seatId, handIndex: 0, betAmountCents: 100, idempotencyKey: "b" };
  try {
    t.is(await statusOf(table.bet(bet, { deadlineMs: 1_000 })), status.DEADLINE_EXCEEDED);
    // The service's deadline runs from when it received the call, which a starved machine delayed
    // past a 500 ms hold (CI, under load): the hold outlasts such a delay.
    await setTimeout(3_000);
  } finally {
    database.resume();
  }
  // Another bet at the table waits its turn behind the held one: once it is answered, the held one
  // has been decided.
  t.true((await table.bet({ ...bet, betAmountCents: 10, idempotencyKey: "c" })).acknowledged);
  t.is(await seatBalance(), before - 10, "no stake taken by the bet whose call ended");
  t.is((await table.bet(bet)).acknowledged, true, "the same bet, sent again, is placed now");
  t.is(await seatBalance(), before - 110);
});
