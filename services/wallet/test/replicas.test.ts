// Two wallet server processes on one database, as two replicas would run: every guarantee must hold
// across them, since nothing a replica keeps in memory decides anything.
import anyTest, { type TestFn } from "ava";
import { claims, startWalletCluster, type Wallet, type WalletCluster } from "./helpers/wallet-cluster.js";

const test = anyTest as TestFn<WalletCluster>;

test.before(async (t) => {
  t.context = await startWalletCluster(2);
});
test.after.always(async (t) => {
  await t.context.stop?.();
});

const replicaFor = (replicas: Wallet[], i: number) => replicas[i % replicas.length]!;

/** A ledger entry as the sequenced log stores it: the account is the stream. */
interface StoredEntry {
  stream: string;
  seq: number;
  amountCents: number;
  balanceAfterCents: number;
  applied: boolean;
  key: string;
}

test("50 parallel debits through two replicas that together exceed the balance never overdraw or lose a cent", async (t) => {
  const { replicas, db } = t.context;
  await replicas[0]!.getProfile({ claims: claims("contended") });
  const amounts = Array.from({ length: 50 }, (_, i) => 1_000 + ((i * 37) % 50) * 100);
  t.true(amounts.reduce((a, b) => a + b, 0) > 100_000, "the debits must not all fit");

  const debit = (i: number, replica = i) =>
    replicaFor(replicas, replica).debit({
      movement: {
        playerId: "contended",
        amountCents: amounts[i]!,
        idempotencyKey: `contended-${i}`,
        reason: "sit",
        reference: `seat-${i}`,
      },
    });
  const results = await Promise.all(amounts.map((_, i) => debit(i)));

  const applied = results.flatMap(({ result }, i) => (result!.applied ? [amounts[i]!] : []));
  const appliedTotal = applied.reduce((a, b) => a + b, 0);
  t.true(applied.length > 0 && applied.length < 50, `${applied.length} applied`);
  t.true(appliedTotal <= 100_000);
  for (const { result } of results) t.true(result!.accountBalanceCents >= 0);
  const { accountBalanceCents } = await replicas[1]!.getBalance({ playerId: "contended" });
  t.is(accountBalanceCents, 100_000 - appliedTotal);
  // Refusals were honest: every refused debit was larger than what was left at the end.
  results.forEach(({ result }, i) => {
    if (!result!.applied) t.true(amounts[i]! > result!.accountBalanceCents);
  });

  // The ledger: sequences 1..51 without gaps, each balance its predecessor's plus its amount, one entry per key.
  const entries = await db.collection<StoredEntry>("ledger").find({ stream: "contended" }).sort({ seq: 1 }).toArray();
  t.deepEqual(
    entries.map((e) => e.seq),
    Array.from({ length: 51 }, (_, i) => i + 1),
  );
  entries.reduce((before, entry) => {
    t.is(entry.balanceAfterCents, before + entry.amountCents, `sequence ${entry.seq}`);
    t.true(entry.balanceAfterCents >= 0);
    return entry.balanceAfterCents;
  }, 0);
  t.is(new Set(entries.map((e) => e.key)).size, 51);

  // Retrying every request through the other replica replays its first outcome exactly.
  const retried = await Promise.all(amounts.map((_, i) => debit(i, i + 1)));
  retried.forEach(({ result }, i) => {
    t.like(result, { ...results[i]!.result, replayed: true });
  });
  t.is((await replicas[0]!.getBalance({ playerId: "contended" })).accountBalanceCents, 100_000 - appliedTotal);
  t.is(await db.collection("ledger").countDocuments({ stream: "contended" }), 51);
});

test("debits and credits racing through two replicas lose no update", async (t) => {
  const { replicas } = t.context;
  await replicas[1]!.getProfile({ claims: claims("mixed") });
  const calls = Array.from({ length: 60 }, (_, i) => {
    const movement = {
      playerId: "mixed",
      amountCents: 100 + i,
      idempotencyKey: `mixed-${i}`,
      reason: i % 3 ? "payout" : "sit",
      reference: "",
    };
    return i % 3 ? replicaFor(replicas, i).credit({ movement }) : replicaFor(replicas, i).debit({ movement });
  });
  const results = await Promise.all(calls);
  t.true(results.every(({ result }) => result!.applied));
  const net = Array.from({ length: 60 }, (_, i) => (i % 3 ? 1 : -1) * (100 + i)).reduce((a, b) => a + b, 0);
  t.is((await replicas[0]!.getBalance({ playerId: "mixed" })).accountBalanceCents, 100_000 + net);
});

test("20 concurrent first reads through two replicas credit the welcome once", async (t) => {
  const { replicas, db } = t.context;
  const reads = await Promise.all(
    Array.from({ length: 20 }, (_, i) => replicaFor(replicas, i).getProfile({ claims: claims("twice-served") })),
  );
  for (const { profile } of reads) t.is(profile!.accountBalanceCents, 100_000);
  t.is(await db.collection("ledger").countDocuments({ stream: "twice-served" }), 1);
});
