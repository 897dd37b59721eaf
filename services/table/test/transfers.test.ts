// Sit, top-up and leave against a real wallet on embedded FerretDB: money moves exactly once,
// refusals move nothing, replays answer the first result, and a reused key with other terms is
// refused.
import { status } from "@grpc/grpc-js";
import anyTest, { type TestFn } from "ava";
import { Role } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { MAX_AMOUNT_CENTS } from "@pokerodds/common/limits";
import { statusOf } from "../../../test/helpers/grpc-services.js";
import {
  admin,
  balanceOf,
  moneyCheck,
  newPlayer,
  startTableCluster,
  type TableCluster,
} from "./helpers/table-cluster.js";

const test = anyTest as TestFn<TableCluster>;

test.before(async (t) => {
  t.context = await startTableCluster();
});
test.after.always(async (t) => {
  await t.context.stop?.();
});

const WELCOME = 100_000;

const pendingOf = (cluster: TableCluster, playerId: string) =>
  cluster.db.collection("pendingTransfers").find({ "claim.playerId": playerId }).toArray();

async function seatOf(cluster: TableCluster, tableId: number, playerId: string) {
  const { state } = await cluster.table().getState({ caller: { playerId, role: Role.ROLE_BASIC_USER }, tableId });
  return state!.seats.find((s) => s.playerId === playerId);
}

test("sit, top up and leave move each amount exactly once", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const caller = await newPlayer(cluster, "alice");

  const sat = await table.sit({ caller, tableId: 1, buyInCents: 25_000, idempotencyKey: "sit-1" });
  t.like(sat, { acknowledged: true, seatId: 1, seatBalanceCents: 25_000 });
  t.is(await balanceOf(cluster, "alice"), WELCOME - 25_000);
  t.like(await seatOf(cluster, 1, "alice"), { seatId: 1, seatBalanceCents: 25_000, playerName: "Player alice" });

  const topped = await table.topUp({ caller, tableId: 1, amountCents: 5_050, idempotencyKey: "top-1" });
  t.like(topped, { acknowledged: true, newSeatBalanceCents: 30_050, newAccountBalanceCents: WELCOME - 30_050 });
  t.is(await balanceOf(cluster, "alice"), WELCOME - 30_050);

  const left = await table.leave({ caller, tableId: 1, idempotencyKey: "leave-1" });
  t.like(left, { acknowledged: true, creditsReturnedCents: 30_050, newAccountBalanceCents: WELCOME });
  t.is(await balanceOf(cluster, "alice"), WELCOME);
  t.is(await seatOf(cluster, 1, "alice"), undefined);

  // Leaving again (a new key): not seated, nothing moves.
  t.like(await table.leave({ caller, tableId: 1, idempotencyKey: "leave-2" }), {
    acknowledged: true,
    creditsReturnedCents: 0,
    newAccountBalanceCents: WELCOME,
  });
  t.is(await balanceOf(cluster, "alice"), WELCOME);
});

test("replays answer the first result and move nothing again; another request under the key is refused", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const caller = await newPlayer(cluster, "bob");
  const sitRequest = { caller, tableId: 2, buyInCents: 10_000, idempotencyKey: "bob-sit" };
  const first = await table.sit(sitRequest);
  const again = await Promise.all([table.sit(sitRequest), table.sit(sitRequest)]);
  for (const answer of again) t.deepEqual(answer, first);
  t.is(await balanceOf(cluster, "bob"), WELCOME - 10_000);

  const topRequest = { caller, tableId: 2, amountCents: 1_000, idempotencyKey: "bob-top" };
  const topped = await table.topUp(topRequest);
  t.deepEqual(await table.topUp(topRequest), topped);
  t.is(await balanceOf(cluster, "bob"), WELCOME - 11_000);

  // The same key with other terms: another amount, another table, another kind.
  t.is(await statusOf(table.sit({ ...sitRequest, buyInCents: 10_001 })), status.ALREADY_EXISTS);
  t.is(await statusOf(table.sit({ ...sitRequest, tableId: 3 })), status.ALREADY_EXISTS);
  t.is(await statusOf(table.topUp({ ...topRequest, amountCents: 999 })), status.ALREADY_EXISTS);
  t.is(await statusOf(table.leave({ caller, tableId: 2, idempotencyKey: "bob-sit" })), status.ALREADY_EXISTS);
  // A refused request leaves no pending entry under its terms: none for recovery, none in the audit.
  t.deepEqual(await pendingOf(cluster, "bob"), []);

  const leaveRequest = { caller, tableId: 2, idempotencyKey: "bob-leave" };
  const left = await table.leave(leaveRequest);
  t.is(left.creditsReturnedCents, 11_000);
  t.deepEqual(await table.leave(leaveRequest), left);
  t.is(await balanceOf(cluster, "bob"), WELCOME);

  // After leaving, replays of the sit and top-up still answer their first result and move nothing.
  t.deepEqual(await table.sit(sitRequest), first);
  t.deepEqual(await table.topUp(topRequest), topped);
  t.is(await balanceOf(cluster, "bob"), WELCOME);
  t.is(await seatOf(cluster, 2, "bob"), undefined);
  // A replay marks its transfer pending before it finds the claim taken: it leaves no work behind
  // for recovery to "resume".
  t.deepEqual(await pendingOf(cluster, "bob"), []);
});

test("NACKs move nothing: an account short of the buy-in, a second seat, a full table", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const carol = await newPlayer(cluster, "carol");

  const short = await table.sit({ caller: carol, tableId: 4, buyInCents: WELCOME + 1, idempotencyKey: "c1" });
  t.like(short, { acknowledged: false, message: "insufficient account balance" });
  t.is(await balanceOf(cluster, "carol"), WELCOME);
  t.is(await seatOf(cluster, 4, "carol"), undefined);
  // A refusal is an outcome too: replayed as such, even once the account could cover it.
  t.deepEqual(await table.sit({ caller: carol, tableId: 4, buyInCents: WELCOME + 1, idempotencyKey: "c1" }), short);
  // The statement tells it, once: the buy-in was asked for and refused, nothing moved.
  const { entries } = await cluster.wallet.listLedger({ playerId: "carol", afterSequence: 0, limit: 100 });
  t.like(
    entries.map(({ reason, amountCents, applied, balanceAfterCents }) => ({
      reason,
      amountCents,
      applied,
      balanceAfterCents,
    })),
    [
      { reason: "welcome", amountCents: WELCOME, applied: true, balanceAfterCents: WELCOME },
      { reason: "sit", amountCents: 0, applied: false, balanceAfterCents: WELCOME },
    ],
  );
  t.is(entries.length, 2);

  await table.sit({ caller: carol, tableId: 4, buyInCents: 60_000, idempotencyKey: "c2" });
  // Already seated: the seat the player holds, as it is.
  t.deepEqual(await table.sit({ caller: carol, tableId: 4, buyInCents: 100, idempotencyKey: "c3" }), {
    acknowledged: false,
    message: "already seated at this table",
    seatId: 1,
    seatBalanceCents: 60_000,
  });
  t.like(await table.topUp({ caller: carol, tableId: 4, amountCents: 40_001, idempotencyKey: "c4" }), {
    acknowledged: false,
    message: "insufficient account balance",
    newSeatBalanceCents: 60_000,
    newAccountBalanceCents: 40_000,
  });
  t.is(await balanceOf(cluster, "carol"), 40_000);

  for (let i = 1; i <= 5; i++) {
    const other = await newPlayer(cluster, `filler-${i}`);
    t.like(await table.sit({ caller: other, tableId: 4, buyInCents: 100, idempotencyKey: "f" }), {
      acknowledged: true,
    });
  }
  const late = await newPlayer(cluster, "late");
  t.like(await table.sit({ caller: late, tableId: 4, buyInCents: 100, idempotencyKey: "l" }), {
    acknowledged: false,
    message: "table full",
  });
  t.is(await balanceOf(cluster, "late"), WELCOME);

  // Seated no more, another amount under the NACK's key would move money: refused, and it shows no
  // open transfer of that amount.
  await table.leave({ caller: carol, tableId: 4, idempotencyKey: "c5" });
  const underNack = table.sit({ caller: carol, tableId: 4, buyInCents: 1_000, idempotencyKey: "c3" });
  t.is(await statusOf(underNack), status.ALREADY_EXISTS);
  t.deepEqual(await pendingOf(cluster, "carol"), []);
  const { openTransfers } = await table.audit({ caller: admin() });
  t.deepEqual(
    openTransfers.filter((transfer) => transfer.playerId === "carol"),
    [],
  );
});

test("a player whose first profile read stopped before its welcome credit is refused a seat, never seated later", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  // What a first profile read leaves when cut short between its two writes: the player, no account.
  await cluster.walletDb.collection("players").insertOne({
    _id: "halfway" as never,
    username: "halfway@example.com",
    displayName: "Player halfway",
    role: "BASIC_USER",
    avatarImageUrl: "/avatars/default.png",
    isActive: true,
    createdAt: new Date(),
  });
  const caller = { playerId: "halfway", role: Role.ROLE_BASIC_USER };
  t.like(await table.sit({ caller, tableId: 7, buyInCents: 30_000, idempotencyKey: "h1" }), {
    acknowledged: false,
    message: "insufficient account balance",
  });
  // Nothing left for recovery: the sit was refused before it became a transfer. (It used to stay
  // pending behind a 404, and recovery seated the player once the next profile read opened the account.)
  t.deepEqual(await pendingOf(cluster, "halfway"), []);
  await newPlayer(cluster, "halfway");
  await new Promise((resolve) => setTimeout(resolve, 3_000)); // past recovery's grace (1.5 s) and a few passes
  t.is(await balanceOf(cluster, "halfway"), WELCOME);
  t.is(await seatOf(cluster, 7, "halfway"), undefined);
});

test("refusals: top-up when not seated, unknown tables, another player's personal table, bad input", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const dave = await newPlayer(cluster, "dave");
  t.is(
    await statusOf(table.topUp({ caller: dave, tableId: 5, amountCents: 100, idempotencyKey: "d1" })),
    status.FAILED_PRECONDITION,
  );
  t.is(await balanceOf(cluster, "dave"), WELCOME);
  t.is(
    await statusOf(table.sit({ caller: dave, tableId: 21, buyInCents: 100, idempotencyKey: "d2" })),
    status.NOT_FOUND,
  );
  t.is(
    await statusOf(table.sit({ caller: dave, tableId: 1001, buyInCents: 100, idempotencyKey: "d3" })),
    status.NOT_FOUND,
  );
  t.is(
    await statusOf(table.sit({ caller: dave, tableId: 0, buyInCents: 100, idempotencyKey: "d4" })),
    status.INVALID_ARGUMENT,
  );
  t.is(
    await statusOf(table.sit({ caller: dave, tableId: 5, buyInCents: 0, idempotencyKey: "d5" })),
    status.INVALID_ARGUMENT,
  );
  t.is(
    await statusOf(table.sit({ caller: dave, tableId: 5, buyInCents: 100, idempotencyKey: "" })),
    status.INVALID_ARGUMENT,
  );
  t.is(
    await statusOf(table.sit({ caller: undefined, tableId: 5, buyInCents: 100, idempotencyKey: "x" })),
    status.INVALID_ARGUMENT,
  );
  // A player the wallet has never seen (no profile read, so no account): no money, a NACK, not a 404.
  t.like(
    await table.sit({
      caller: { playerId: "ghost", role: Role.ROLE_BASIC_USER },
      tableId: 5,
      buyInCents: 100,
      idempotencyKey: "g",
    }),
    { acknowledged: false, message: "insufficient account balance" },
  );

  // A paying user's personal table: only they sit there, only they (or an ADMIN) read it.
  const owner = await newPlayer(cluster, "owner", Role.ROLE_PAYING_USER);
  const profile = await cluster.wallet.getPlayer({ playerId: "owner" });
  const personal = profile.profile!.personalTableId!;
  t.true(personal >= 1001);
  t.is(
    await statusOf(table.sit({ caller: dave, tableId: personal, buyInCents: 100, idempotencyKey: "d6" })),
    status.PERMISSION_DENIED,
  );
  t.is(await statusOf(table.getState({ caller: dave, tableId: personal })), status.PERMISSION_DENIED);
  t.like(await table.sit({ caller: owner, tableId: personal, buyInCents: 500, idempotencyKey: "o1" }), {
    acknowledged: true,
  });
  t.is((await table.getState({ caller: owner, tableId: personal })).state!.seats.length, 1);
  // Nor tops up, bets or leaves there: a 403 like the sit's, not "not seated" or a leave of nothing.
  for (const refused of [
    table.topUp({ caller: dave, tableId: personal, amountCents: 100, idempotencyKey: "d7" }),
    table.bet({
      caller: dave,
      tableId: personal,
      seatIndex: 1,
      handIndex: 0,
      betAmountCents: 100,
      idempotencyKey: "d8",
    }),
    table.leave({ caller: dave, tableId: personal, idempotencyKey: "d9" }),
  ]) {
    t.is(await statusOf(refused), status.PERMISSION_DENIED);
  }
  t.is(
    (await table.getState({ caller: { playerId: "root", role: Role.ROLE_ADMIN }, tableId: personal })).state!.seats
      .length,
    1,
  );
  t.is(await balanceOf(cluster, "dave"), WELCOME);
});

test.after("money is conserved across every account and table", async (t) => {
  const check = await moneyCheck(t.context);
  t.true(check.conserved, JSON.stringify(check.detail));
});

test("a seat grown past one request's limit leaves whole: the wallet takes a credit as large as any balance", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const caller = await newPlayer(cluster, "whale");
  const movement = (idempotencyKey: string) => ({
    movement: { playerId: "whale", amountCents: MAX_AMOUNT_CENTS, idempotencyKey, reason: "", reference: "" },
  });
  await cluster.wallet.deposit(movement("whale-deposit-1"));
  await cluster.wallet.deposit(movement("whale-deposit-2"));
  await table.sit({ caller, tableId: 6, buyInCents: MAX_AMOUNT_CENTS, idempotencyKey: "whale-sit" });
  const topped = await table.topUp({ caller, tableId: 6, amountCents: MAX_AMOUNT_CENTS, idempotencyKey: "whale-top" });
  t.like(topped, { acknowledged: true, newSeatBalanceCents: 2 * MAX_AMOUNT_CENTS });

  const left = await table.leave({ caller, tableId: 6, idempotencyKey: "whale-leave" });
  t.like(left, { acknowledged: true, creditsReturnedCents: 2 * MAX_AMOUNT_CENTS });
  t.is(await balanceOf(cluster, "whale"), WELCOME + 2 * MAX_AMOUNT_CENTS);
});
