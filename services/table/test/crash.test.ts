// kill -9 of a table service process in the middle of a money movement, then a fresh process:
// recovery (or the client's retry) completes the interrupted transfer, and every cent moves once.
// TABLE_CRASH_POINT makes the process SIGKILL itself at a named step (test-only; see crash-point.ts).
import { status } from "@grpc/grpc-js";
import anyTest, { type ExecutionContext, type TestFn } from "ava";
import { setTimeout as sleep } from "node:timers/promises";
import type { CrashPoint } from "../src/crash-point.js";
import { transferIdOf } from "../src/request-ids.js";
import type { TransferClaim } from "../src/transfer-store.js";
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
  t.context = await startTableCluster({ tables: 0 });
});
test.after.always(async (t) => {
  await t.context.stop?.();
});

const WELCOME = 100_000;

/** Crash tests share the cluster's processes: one at a time. */
const serial = test.serial;

/** Starts a replica that dies at `point`, runs `call` (which the crash interrupts), then a healthy replica. */
async function crashDuring(t: ExecutionContext<TableCluster>, point: CrashPoint, call: () => Promise<unknown>) {
  const cluster = t.context;
  for (const replica of [...cluster.replicas]) await cluster.killTable(replica);
  const doomed = await cluster.startTable({ TABLE_CRASH_POINT: point });
  await t.throwsAsync(call, undefined, `the call dies with the process at ${point}`);
  await doomed.child.exited;
  cluster.replicas.splice(cluster.replicas.indexOf(doomed), 1);
  await cluster.startTable();
}

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(200)) {
    if (await check()) return;
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}

const seatOf = async (cluster: TableCluster, tableId: number, playerId: string) =>
  (await cluster.table().getState({ caller: admin(), tableId })).state!.seats.find((s) => s.playerId === playerId);

/**
 * A transfer as a process that died mid-way leaves it for recovery: its pending entry, and with
 * `claimed` its claim too, asked for the seat session of `sitKey`, stamped `createdAt` (now).
 */
async function leftPending(
  cluster: TableCluster,
  terms: Pick<TransferClaim, "kind" | "playerId" | "tableId" | "amountCents" | "idempotencyKey">,
  sitKey: string,
  { claimed, createdAt = new Date() }: { claimed: boolean; createdAt?: Date },
): Promise<void> {
  const claim: TransferClaim = {
    _id: transferIdOf(terms.playerId, terms.idempotencyKey),
    ...terms,
    state: "PENDING",
    outcome: null,
    playerName: "",
    avatarImageUrl: "",
    sessionId: transferIdOf(terms.playerId, sitKey),
    createdAt,
  };
  if (claimed) await cluster.db.collection<TransferClaim>("transfers").insertOne(claim);
  await cluster.db
    .collection<{ _id: string; claim: TransferClaim; createdAt: Date }>("pendingTransfers")
    .insertOne({ _id: claim._id, claim, createdAt: claim.createdAt });
}

const openTransfers = async (cluster: TableCluster) =>
  (await cluster.table().audit({ caller: admin() })).openTransfers.length;

serial("killed between the debit and the seat: recovery seats the player once, the replay answers it", async (t) => {
  const cluster = t.context;
  const caller = await newPlayer(cluster, "crash-sit");
  const request = { caller, tableId: 1, buyInCents: 12_345, idempotencyKey: "sit" };
  await crashDuring(t, "sit:after-debit", () => cluster.table().sit(request));
  t.is(await balanceOf(cluster, "crash-sit"), WELCOME - 12_345, "the debit happened before the crash");

  await eventually(
    "recovery",
    async () => (await seatOf(cluster, 1, "crash-sit")) !== undefined && (await openTransfers(cluster)) === 0,
  );
  t.like(await seatOf(cluster, 1, "crash-sit"), { seatBalanceCents: 12_345 });
  t.like(await cluster.table().sit(request), { acknowledged: true, seatBalanceCents: 12_345 });
  t.is(await balanceOf(cluster, "crash-sit"), WELCOME - 12_345);
});

serial("killed between the debit and the seat: the client's retry completes it before recovery would", async (t) => {
  const cluster = t.context;
  const caller = await newPlayer(cluster, "crash-retry");
  const request = { caller, tableId: 1, buyInCents: 2_000, idempotencyKey: "sit" };
  await crashDuring(t, "sit:after-debit", () => cluster.table().sit(request));
  const retried = await cluster.table().sit(request);
  t.like(retried, { acknowledged: true, seatBalanceCents: 2_000 });
  t.deepEqual(await cluster.table().sit(request), retried);
  t.is(await balanceOf(cluster, "crash-retry"), WELCOME - 2_000);
});

serial("killed after the seat was credited, before the outcome was recorded", async (t) => {
  const cluster = t.context;
  const caller = await newPlayer(cluster, "crash-credited");
  const request = { caller, tableId: 2, buyInCents: 3_000, idempotencyKey: "sit" };
  await crashDuring(t, "sit:after-credit", () => cluster.table().sit(request));
  await eventually("recovery", async () => (await openTransfers(cluster)) === 0);
  t.like(await cluster.table().sit(request), { acknowledged: true, seatBalanceCents: 3_000 });
  t.like(await seatOf(cluster, 2, "crash-credited"), { seatBalanceCents: 3_000 });
  t.is(await balanceOf(cluster, "crash-credited"), WELCOME - 3_000);
});

serial("killed between the top-up debit and the seat credit", async (t) => {
  const cluster = t.context;
  const caller = await newPlayer(cluster, "crash-topup");
  await cluster.table().sit({ caller, tableId: 3, buyInCents: 1_000, idempotencyKey: "sit" });
  const request = { caller, tableId: 3, amountCents: 500, idempotencyKey: "top" };
  await crashDuring(t, "topup:after-debit", () => cluster.table().topUp(request));
  await eventually("recovery", async () => (await openTransfers(cluster)) === 0);
  t.like(await seatOf(cluster, 3, "crash-topup"), { seatBalanceCents: 1_500 });
  t.like(await cluster.table().topUp(request), { acknowledged: true, newSeatBalanceCents: 1_500 });
  t.is(await balanceOf(cluster, "crash-topup"), WELCOME - 1_500);
});

serial("killed after the top-up was credited to the seat: recovery credits it once (its operation key)", async (t) => {
  const cluster = t.context;
  const caller = await newPlayer(cluster, "crash-topped");
  await cluster.table().sit({ caller, tableId: 8, buyInCents: 1_000, idempotencyKey: "sit" });
  const request = { caller, tableId: 8, amountCents: 700, idempotencyKey: "top" };
  await crashDuring(t, "topup:after-credit", () => cluster.table().topUp(request));
  await eventually("recovery", async () => (await openTransfers(cluster)) === 0);
  t.like(await seatOf(cluster, 8, "crash-topped"), { seatBalanceCents: 1_700 });
  t.like(await cluster.table().topUp(request), { acknowledged: true, newSeatBalanceCents: 1_700 });
  t.like(await seatOf(cluster, 8, "crash-topped"), { seatBalanceCents: 1_700 });
  t.is(await balanceOf(cluster, "crash-topped"), WELCOME - 1_700);
});

serial("killed after the seat was freed, before the account was credited", async (t) => {
  const cluster = t.context;
  const caller = await newPlayer(cluster, "crash-leave");
  await cluster.table().sit({ caller, tableId: 4, buyInCents: 7_000, idempotencyKey: "sit" });
  const request = { caller, tableId: 4, idempotencyKey: "leave" };
  await crashDuring(t, "leave:after-apply", () => cluster.table().leave(request));
  t.is(await seatOf(cluster, 4, "crash-leave"), undefined);
  // Still owed, unless recovery (which may start as soon as the service is back) delivered it already.
  t.true([WELCOME - 7_000, WELCOME].includes(await balanceOf(cluster, "crash-leave")), "never delivered twice");
  await eventually("recovery", async () => (await balanceOf(cluster, "crash-leave")) === WELCOME);
  await eventually("recovery", async () => (await openTransfers(cluster)) === 0);
  t.like(await cluster.table().leave(request), { creditsReturnedCents: 7_000, newAccountBalanceCents: WELCOME });
  t.is(await balanceOf(cluster, "crash-leave"), WELCOME);
});

serial("a leave that waited for recovery while the player left and sat again leaves the new seat alone", async (t) => {
  const cluster = t.context;
  const caller = await newPlayer(cluster, "stale-leave");
  const first = { caller, tableId: 5, buyInCents: 2_000, idempotencyKey: "sit-1" };
  await cluster.table().sit(first);
  // Meanwhile the player, told the leave failed, left with another key and sat down again.
  await cluster.table().leave({ caller, tableId: 5, idempotencyKey: "leave-2" });
  await cluster.table().sit({ ...first, buyInCents: 3_000, idempotencyKey: "sit-2" });
  // A leave claimed for the first seat session, whose process died before it freed the seat (as a
  // kill between the claim and the table change leaves it): pending, for recovery.
  const leave = { kind: "leave" as const, playerId: "stale-leave", tableId: 5, amountCents: 0 };
  await leftPending(cluster, { ...leave, idempotencyKey: "leave-1" }, "sit-1", { claimed: true });

  await eventually("recovery", async () => (await openTransfers(cluster)) === 0);
  t.like(await seatOf(cluster, 5, "stale-leave"), { seatBalanceCents: 3_000 }, "the new seat is still there");
  t.like(await cluster.table().leave({ caller, tableId: 5, idempotencyKey: "leave-1" }), {
    creditsReturnedCents: 0,
    newAccountBalanceCents: WELCOME - 3_000,
  });
  t.is(await balanceOf(cluster, "stale-leave"), WELCOME - 3_000);
});

serial("a top-up pending without its claim (killed between the two) never credits a seat taken after it", async (t) => {
  const cluster = t.context;
  const caller = await newPlayer(cluster, "stale-topup");
  const first = { caller, tableId: 9, buyInCents: 2_000, idempotencyKey: "sit-1" };
  await cluster.table().sit(first);
  // A top-up asked for in that seat session, whose process died between its pending entry and its
  // claim. Meanwhile the player left; the retry was refused (no claim, not seated); they sat again.
  await cluster.table().leave({ caller, tableId: 9, idempotencyKey: "leave-1" });
  const retry = { caller, tableId: 9, amountCents: 500, idempotencyKey: "top-1" };
  t.is(await statusOf(cluster.table().topUp(retry)), status.FAILED_PRECONDITION);
  await cluster.table().sit({ ...first, buyInCents: 3_000, idempotencyKey: "sit-2" });
  // Recovery now finds the pending entry, claims the top-up and drives it.
  const topUp = { kind: "topup" as const, playerId: "stale-topup", tableId: 9, amountCents: 500 };
  await leftPending(cluster, { ...topUp, idempotencyKey: "top-1" }, "sit-1", { claimed: false });

  await eventually("recovery", async () => (await openTransfers(cluster)) === 0);
  t.like(await seatOf(cluster, 9, "stale-topup"), { seatBalanceCents: 3_000 }, "the new seat got nothing");
  t.is(await balanceOf(cluster, "stale-topup"), WELCOME - 3_000, "the debit was refunded");
  // Replays answer as the retry did: refused, nothing added.
  t.is(await statusOf(cluster.table().topUp(retry)), status.FAILED_PRECONDITION);
});

serial(
  "a top-up the player's leave overtook after its debit is refunded, and its answer says so for good",
  async (t) => {
    const cluster = t.context;
    const caller = await newPlayer(cluster, "overtaken-topup");
    await cluster.table().sit({ caller, tableId: 10, buyInCents: 2_000, idempotencyKey: "sit-1" });
    // A top-up claimed in that seat session, whose process died before its debit; meanwhile the
    // player left. Recovery debits the account, finds no seat to credit and refunds it.
    await cluster.table().leave({ caller, tableId: 10, idempotencyKey: "leave-1" });
    const topUp = { kind: "topup" as const, playerId: "overtaken-topup", tableId: 10, amountCents: 500 };
    await leftPending(cluster, { ...topUp, idempotencyKey: "top-1" }, "sit-1", { claimed: true });
    await eventually("recovery", async () => (await openTransfers(cluster)) === 0);
    t.is(await balanceOf(cluster, "overtaken-topup"), WELCOME, "debited, then refunded");

    // Seated again, the same key still answers what happened to it: it cannot top up the new seat.
    await cluster.table().sit({ caller, tableId: 10, buyInCents: 3_000, idempotencyKey: "sit-2" });
    const retry = { caller, tableId: 10, amountCents: 500, idempotencyKey: "top-1" };
    const refused = await t.throwsAsync(cluster.table().topUp(retry));
    t.like(refused, { code: status.FAILED_PRECONDITION });
    t.regex(
      refused?.message ?? "",
      /not seated at this table: this top-up's amount, already taken from the account, goes back to it; a new idempotency key tops up again/,
    );
    t.like(await cluster.table().topUp({ ...retry, idempotencyKey: "top-2" }), {
      acknowledged: true,
      newSeatBalanceCents: 3_500,
    });
    t.is(await balanceOf(cluster, "overtaken-topup"), WELCOME - 3_500);
  },
);

serial("kill -9 at random moments during concurrent sits and leaves: every transfer completes once", async (t) => {
  const cluster = t.context;
  const players = await Promise.all(Array.from({ length: 8 }, (_, i) => newPlayer(cluster, `random-${i}`)));
  for (let round = 0; round < 4; round++) {
    const replica = await cluster.startTable();
    const calls = players.map((caller, i) =>
      (round % 2 === 0
        ? replica.client.sit({ caller, tableId: 6 + (i % 2), buyInCents: 1_000 + i, idempotencyKey: `sit-${round}` })
        : replica.client.leave({ caller, tableId: 6 + (i % 2), idempotencyKey: `leave-${round}` })
      ).catch(() => undefined),
    );
    await sleep(20 + Math.random() * 150);
    await cluster.killTable(replica);
    await Promise.all(calls);
  }
  await cluster.startTable();
  await eventually("recovery", async () => (await openTransfers(cluster)) === 0, 30_000);
  // Nothing was staked, so every player's account plus their seat is the welcome credit.
  for (const { playerId } of players) {
    const seat = (await seatOf(cluster, 6, playerId)) ?? (await seatOf(cluster, 7, playerId));
    t.is((await balanceOf(cluster, playerId)) + (seat?.seatBalanceCents ?? 0), WELCOME, playerId);
  }
});

test.after("money is conserved across every account and table", async (t) => {
  const check = await moneyCheck(t.context);
  t.true(check.conserved, JSON.stringify(check.detail));
});

serial("a sit stamped an hour ahead (by a clock NTP then stepped back) is driven now, not in an hour", async (t) => {
  const cluster = t.context;
  if (cluster.replicas.length === 0) await cluster.startTable();
  await newPlayer(cluster, "clock-sit");
  const sit = { kind: "sit" as const, playerId: "clock-sit", tableId: 11, amountCents: 4_000 };
  const anHourAhead = new Date(Date.now() + 60 * 60_000);
  await leftPending(cluster, { ...sit, idempotencyKey: "sit-1" }, "sit-1", { claimed: true, createdAt: anHourAhead });

  await eventually("recovery", async () => (await openTransfers(cluster)) === 0);
  t.like(await seatOf(cluster, 11, "clock-sit"), { seatBalanceCents: 4_000 });
  t.is(await balanceOf(cluster, "clock-sit"), WELCOME - 4_000);
});

serial("a top-up read only after its client gave up (the process was paused) is not made", async (t) => {
  const cluster = t.context;
  const replica = cluster.replicas[0] ?? (await cluster.startTable());
  const caller = await newPlayer(cluster, "paused-topup");
  await cluster.table().sit({ caller, tableId: 12, buyInCents: 5_000, idempotencyKey: "sit-1" });
  replica.child.kill("SIGSTOP");
  try {
    const topUp = cluster
      .table()
      .topUp({ caller, tableId: 12, amountCents: 700, idempotencyKey: "top-1" }, { deadlineMs: 500 });
    t.is(await statusOf(topUp), status.DEADLINE_EXCEEDED);
    await sleep(500);
  } finally {
    replica.child.kill("SIGCONT");
  }
  // Resumed, the process reads the request and its cancellation together: it never begins it.
  await sleep(1_000);
  t.like(await seatOf(cluster, 12, "paused-topup"), { seatBalanceCents: 5_000 });
  t.is(await balanceOf(cluster, "paused-topup"), WELCOME - 5_000);
  t.is(await openTransfers(cluster), 0);
});
