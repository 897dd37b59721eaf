import { MovementKind, Role, type AuditResponse } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import anyTest, { type TestFn } from "ava";
import { claims, startWalletCluster, type WalletCluster } from "./helpers/wallet-cluster.js";

// Serial: each test looks at, or tampers with, the whole ledger.
const test = anyTest.serial as TestFn<WalletCluster>;

test.before(async (t) => {
  t.context = await startWalletCluster(2);
});
test.after.always(async (t) => {
  await t.context.stop?.();
});

const move = (playerId: string, amountCents: number, key: string, reason: string) => ({
  movement: { playerId, amountCents, idempotencyKey: key, reason, reference: "g-1" },
});

test("after concurrent activity on two replicas the audit is clean and its totals reconcile", async (t) => {
  const [a, b] = t.context.replicas as [WalletCluster["wallet"], WalletCluster["wallet"]];
  await Promise.all([
    a.getProfile({ claims: claims("alice") }),
    b.getProfile({ claims: claims("bob", Role.ROLE_PAYING_USER) }),
  ]);
  await Promise.all([
    ...Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).debit(move("alice", 15_000, `alice-sit-${i}`, "sit"))),
    ...Array.from({ length: 5 }, (_, i) => (i % 2 ? a : b).credit(move("bob", 1_234, `bob-payout-${i}`, "payout"))),
    a.deposit(move("bob", 50_000, "bob-deposit", "")),
    b.withdraw(move("alice", 2_500, "alice-withdraw", "cash out")),
    b.withdraw(move("bob", 500_000, "bob-too-much", "")),
  ]);
  const report = await a.audit({});
  t.deepEqual(report.issues, []);
  t.true(report.clean && report.conserved);
  const alice = (await a.getBalance({ playerId: "alice" })).accountBalanceCents;
  const bob = (await a.getBalance({ playerId: "bob" })).accountBalanceCents;
  t.is(bob, 100_000 + 5 * 1_234 + 50_000);
  const totals = report.totals!;
  t.is(totals.balancesCents, alice + bob);
  t.is(totals.welcomeCreditsCents, 200_000);
  t.is(totals.depositsCents, 50_000);
  t.is(totals.creditsCents, 5 * 1_234);
  t.is(
    totals.balancesCents,
    totals.welcomeCreditsCents +
      totals.depositsCents +
      totals.creditsCents -
      totals.withdrawalsCents -
      totals.debitsCents,
  );
  t.is(report.accounts, 2);
  const sits = report.reasonTotals.find((r) => r.kind === MovementKind.MOVEMENT_KIND_DEBIT && r.reason === "sit")!;
  t.is(sits.amountCents, totals.debitsCents);
  t.is(sits.amountCents, sits.count * 15_000);
  t.like(
    report.reasonTotals.find((r) => r.kind === MovementKind.MOVEMENT_KIND_CREDIT),
    { reason: "payout", count: 5, amountCents: 6_170 },
  );
  t.true(report.refusedEntries >= 1, "bob's withdrawal of more than he has is on record");
});

/** Runs `tamper` on the raw ledger, audits, then puts the entry back as it was. */
async function auditTampered(
  t: { context: WalletCluster },
  filter: { stream: string; seq: number },
  tamper: Record<string, unknown> | "delete",
): Promise<AuditResponse> {
  const ledger = t.context.db.collection<{ _id: string; stream: string; seq: number }>("ledger");
  const original = (await ledger.findOne(filter))!;
  if (tamper === "delete") await ledger.deleteOne({ _id: original._id });
  else await ledger.updateOne({ _id: original._id }, { $set: tamper });
  try {
    return await t.context.wallet.audit({});
  } finally {
    await ledger.replaceOne({ _id: original._id }, original, { upsert: true });
  }
}

test("the audit names a tampered amount, a tampered balance, a deleted entry and a forged refusal", async (t) => {
  const cases: [string, Record<string, unknown> | "delete"][] = [
    ["amount", { amountCents: -14_000 }],
    ["balance", { balanceAfterCents: 10_000_000 }],
    ["deleted", "delete"],
    ["forged refusal", { applied: false, refusal: "insufficient_funds", amountCents: 0 }],
  ];
  for (const [what, tamper] of cases) {
    const report = await auditTampered(t, { stream: "alice", seq: 3 }, tamper);
    t.false(report.clean, what);
    t.true(
      report.issues.some((issue) => issue.playerId === "alice" && issue.sequence >= 3),
      `${what}: ${JSON.stringify(report.issues)}`,
    );
    t.false(
      report.issues.some((issue) => issue.playerId === "bob"),
      what,
    );
  }
  t.true((await t.context.wallet.audit({})).clean, "clean again once restored");
});

test("a ledger entry without a player is reported", async (t) => {
  const players = t.context.db.collection<{ _id: string }>("players");
  const bob = (await players.findOne({ _id: "bob" }))!;
  await players.deleteOne({ _id: "bob" });
  try {
    const report = await t.context.wallet.audit({});
    t.deepEqual(report.issues, [
      { playerId: "bob", sequence: 0, problem: "ledger entries for a player that does not exist" },
    ]);
  } finally {
    await players.insertOne(bob);
  }
});
