import { status } from "@grpc/grpc-js";
import { MovementKind, RefusalReason, type Movement } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { MAX_BALANCE_CENTS } from "@pokerodds/common/limits";
import anyTest, { type TestFn } from "ava";
import { statusOf } from "../../../test/helpers/grpc-services.js";
import { claims, startWalletCluster, type WalletCluster } from "./helpers/wallet-cluster.js";

const test = anyTest as TestFn<WalletCluster>;

test.before(async (t) => {
  t.context = await startWalletCluster();
});
test.after.always(async (t) => {
  await t.context.stop?.();
});

/** A player with a fresh 1,000.00 account. */
async function newPlayer(t: { context: WalletCluster }, playerId: string): Promise<void> {
  await t.context.wallet.getProfile({ claims: claims(playerId) });
}

const movement = (
  playerId: string,
  amountCents: number,
  idempotencyKey: string,
  reason = "sit",
  reference = "t1",
): Movement => ({
  playerId,
  amountCents,
  idempotencyKey,
  reason,
  reference,
});

test("debit and credit move exactly their amount and record it in the ledger", async (t) => {
  const { wallet } = t.context;
  await newPlayer(t, "dc");
  const debit = await wallet.debit({ movement: movement("dc", 12_345, "dc-1") });
  t.like(debit.result, { applied: true, accountBalanceCents: 87_655, sequence: 2, replayed: false });
  const credit = await wallet.credit({ movement: movement("dc", 1, "dc-2", "leave") });
  t.like(credit.result, { applied: true, accountBalanceCents: 87_656, sequence: 3 });
  t.is((await wallet.getBalance({ playerId: "dc" })).accountBalanceCents, 87_656);
  const { entries, nextAfterSequence } = await wallet.listLedger({ playerId: "dc", afterSequence: 0, limit: 0 });
  t.is(nextAfterSequence, 0);
  t.deepEqual(
    entries.map((e) => [e.sequence, e.kind, e.amountCents, e.balanceAfterCents, e.reason]),
    [
      [1, MovementKind.MOVEMENT_KIND_WELCOME, 100_000, 100_000, "welcome"],
      [2, MovementKind.MOVEMENT_KIND_DEBIT, -12_345, 87_655, "sit"],
      [3, MovementKind.MOVEMENT_KIND_CREDIT, 1, 87_656, "leave"],
    ],
  );
  t.like(entries[1], {
    idempotencyKey: "dc-1",
    reference: "t1",
    applied: true,
    requestedCents: 12_345,
    entryId: debit.result!.entryId,
  });
  t.false(Number.isNaN(Date.parse(entries[1]!.createdAt)));
});

test("the same key replays the first outcome and moves nothing again, even concurrently", async (t) => {
  const { wallet } = t.context;
  await newPlayer(t, "replay");
  const first = await wallet.debit({ movement: movement("replay", 1_000, "replay-1") });
  const again = await Promise.all(
    Array.from({ length: 10 }, () => wallet.debit({ movement: movement("replay", 1_000, "replay-1") })),
  );
  for (const { result } of again) {
    t.like(result, {
      applied: true,
      accountBalanceCents: 99_000,
      entryId: first.result!.entryId,
      sequence: 2,
      replayed: true,
    });
  }
  // Concurrent first attempts of one new key: one applies, the others replay it.
  const racing = await Promise.all(
    Array.from({ length: 10 }, () => wallet.credit({ movement: movement("replay", 500, "replay-2", "leave") })),
  );
  t.is(racing.filter(({ result }) => !result!.replayed).length, 1);
  t.is(new Set(racing.map(({ result }) => result!.entryId)).size, 1);
  t.is((await wallet.getBalance({ playerId: "replay" })).accountBalanceCents, 99_500);
  const { entries } = await wallet.listLedger({ playerId: "replay", afterSequence: 0, limit: 100 });
  t.is(entries.length, 3);
});

test("a key reused with a different request is refused and moves nothing", async (t) => {
  const { wallet } = t.context;
  await newPlayer(t, "mismatch");
  await newPlayer(t, "mismatch-other");
  await wallet.debit({ movement: movement("mismatch", 1_000, "mismatch-1") });
  const variants: [string, Promise<unknown>][] = [
    ["amount", wallet.debit({ movement: movement("mismatch", 1_001, "mismatch-1") })],
    ["reason", wallet.debit({ movement: movement("mismatch", 1_000, "mismatch-1", "topup") })],
    ["reference", wallet.debit({ movement: movement("mismatch", 1_000, "mismatch-1", "sit", "t2") })],
    ["player", wallet.debit({ movement: movement("mismatch-other", 1_000, "mismatch-1") })],
    ["operation", wallet.withdraw({ movement: movement("mismatch", 1_000, "mismatch-1") })],
    ["direction", wallet.credit({ movement: movement("mismatch", 1_000, "mismatch-1", "sit-refund") })],
  ];
  for (const [what, call] of variants) t.is(await statusOf(call), status.ALREADY_EXISTS, what);
  t.is((await wallet.getBalance({ playerId: "mismatch" })).accountBalanceCents, 99_000);
  t.is((await wallet.getBalance({ playerId: "mismatch-other" })).accountBalanceCents, 100_000);
});

test("a debit the balance cannot cover is refused with the current balance, and replays as refused", async (t) => {
  const { wallet } = t.context;
  await newPlayer(t, "poor");
  const refused = await wallet.debit({ movement: movement("poor", 100_001, "poor-1") });
  t.like(refused.result, {
    applied: false,
    accountBalanceCents: 100_000,
    refusalReason: RefusalReason.REFUSAL_REASON_INSUFFICIENT_FUNDS,
    replayed: false,
  });
  // Money arrives; the same key still gets its first answer, so a retry cannot turn a NACK into a debit.
  await wallet.deposit({ movement: movement("poor", 50_000, "poor-2", "") });
  const replayed = await wallet.debit({ movement: movement("poor", 100_001, "poor-1") });
  t.like(replayed.result, {
    applied: false,
    accountBalanceCents: 100_000,
    replayed: true,
    entryId: refused.result!.entryId,
  });
  t.is((await wallet.getBalance({ playerId: "poor" })).accountBalanceCents, 150_000);
  // A new key with the same amount is a new request, and now the balance covers it.
  const applied = await wallet.debit({ movement: movement("poor", 100_001, "poor-3") });
  t.like(applied.result, { applied: true, accountBalanceCents: 49_999 });
  const debitAll = await wallet.debit({ movement: movement("poor", 49_999, "poor-4") });
  t.like(debitAll.result, { applied: true, accountBalanceCents: 0 });
  const { entries } = await wallet.listLedger({ playerId: "poor", afterSequence: 0, limit: 100 });
  t.like(entries[1], { applied: false, amountCents: 0, requestedCents: 100_001, balanceAfterCents: 100_000 });
});

test("a table's credit refused at the balance limit is only answered: sent again once there is room, it is applied", async (t) => {
  const { wallet } = t.context;
  await newPlayer(t, "full");
  const fill = await wallet.credit({ movement: movement("full", MAX_BALANCE_CENTS - 100_000, "full-1", "payout") });
  t.like(fill.result, { applied: true, accountBalanceCents: MAX_BALANCE_CENTS });
  const payout = movement("full", 500, "full-2", "payout");
  const refused = await wallet.credit({ movement: payout });
  t.like(refused.result, {
    applied: false,
    accountBalanceCents: MAX_BALANCE_CENTS,
    refusalReason: RefusalReason.REFUSAL_REASON_BALANCE_LIMIT,
    entryId: "",
    sequence: 0,
  });
  // Before, this refusal was the key's answer for good, and the payout stayed owed for ever.
  await wallet.withdraw({ movement: movement("full", 1_000, "full-3", "") });
  const applied = await wallet.credit({ movement: payout });
  t.like(applied.result, { applied: true, accountBalanceCents: MAX_BALANCE_CENTS - 500, replayed: false });
  t.like((await wallet.credit({ movement: payout })).result, { applied: true, replayed: true });
  const { entries } = await wallet.listLedger({ playerId: "full", afterSequence: 0, limit: 100 });
  t.deepEqual(
    entries.map((e) => [e.idempotencyKey, e.applied]),
    [
      ["wallet:welcome:full", true],
      ["full-1", true],
      ["full-3", true],
      ["full-2", true],
    ],
  );
  // A credit applied before the account filled up, its answer lost: sent again, its first outcome.
  await wallet.credit({ movement: movement("full", 250, "full-5", "payout") });
  await wallet.credit({ movement: movement("full", 250, "full-6", "payout") });
  t.like((await wallet.credit({ movement: movement("full", 250, "full-5", "payout") })).result, {
    applied: true,
    replayed: true,
    accountBalanceCents: MAX_BALANCE_CENTS - 250,
  });
  // A player's own movements keep their refusals: a deposit refused at the limit is its key's answer.
  const deposit = await wallet.deposit({ movement: movement("full", 1_000, "full-4", "") });
  t.like(deposit.result, { applied: false, refusalReason: RefusalReason.REFUSAL_REASON_BALANCE_LIMIT });
  t.not(deposit.result!.entryId, "");
});

test("deposit and withdraw are operator movements with the same idempotency; a withdrawal cannot overdraw", async (t) => {
  const { wallet } = t.context;
  await newPlayer(t, "operator");
  t.like((await wallet.deposit({ movement: movement("operator", 25_000, "op-1", "") })).result, {
    applied: true,
    accountBalanceCents: 125_000,
  });
  t.like((await wallet.deposit({ movement: movement("operator", 25_000, "op-1", "") })).result, {
    replayed: true,
    accountBalanceCents: 125_000,
  });
  t.like((await wallet.withdraw({ movement: movement("operator", 125_001, "op-2", "") })).result, {
    applied: false,
    refusalReason: RefusalReason.REFUSAL_REASON_INSUFFICIENT_FUNDS,
  });
  t.like((await wallet.withdraw({ movement: movement("operator", 5_000, "op-3", "cash out") })).result, {
    applied: true,
    accountBalanceCents: 120_000,
  });
  const { entries } = await wallet.listLedger({ playerId: "operator", afterSequence: 0, limit: 100 });
  t.deepEqual(
    entries.map((e) => [e.kind, e.amountCents]),
    [
      [MovementKind.MOVEMENT_KIND_WELCOME, 100_000],
      [MovementKind.MOVEMENT_KIND_DEPOSIT, 25_000],
      [MovementKind.MOVEMENT_KIND_WITHDRAW, 0],
      [MovementKind.MOVEMENT_KIND_WITHDRAW, -5_000],
    ],
  );
});

test("movements for an unknown player are NOT_FOUND and create nothing", async (t) => {
  const { wallet, db } = t.context;
  t.is(await statusOf(wallet.credit({ movement: movement("ghost", 100, "ghost-1", "leave") })), status.NOT_FOUND);
  t.is(await statusOf(wallet.deposit({ movement: movement("ghost", 100, "ghost-2", "") })), status.NOT_FOUND);
  t.is(await statusOf(wallet.listLedger({ playerId: "ghost", afterSequence: 0, limit: 10 })), status.NOT_FOUND);
  t.is(await db.collection("ledger").countDocuments({ stream: "ghost" }), 0);
  t.is(await statusOf(wallet.getProfile({ claims: claims("ghost") })), undefined);
  t.is(
    (await wallet.getBalance({ playerId: "ghost" })).accountBalanceCents,
    100_000,
    "no credit slipped in before the welcome",
  );
});

test("invalid movements are INVALID_ARGUMENT and move nothing", async (t) => {
  const { wallet } = t.context;
  await newPlayer(t, "invalid");
  const invalid: [string, Promise<unknown>][] = [
    ["no movement", wallet.debit({})],
    ["zero", wallet.debit({ movement: movement("invalid", 0, "inv-1") })],
    ["negative", wallet.credit({ movement: movement("invalid", -5, "inv-2", "leave") })],
    ["above 1e9 units", wallet.deposit({ movement: movement("invalid", 100_000_000_001, "inv-3", "") })],
    ["no key", wallet.debit({ movement: movement("invalid", 100, "") })],
    ["reserved key", wallet.credit({ movement: movement("invalid", 100, "wallet:welcome:invalid", "leave") })],
    ["no reason", wallet.debit({ movement: movement("invalid", 100, "inv-4", "") })],
    // The ledger's reasons only (common/src/ledger-reasons.ts): the audit has a rule for each.
    ["a credit's reason on a debit", wallet.debit({ movement: movement("invalid", 100, "inv-5", "payout") })],
    ["an unlisted reason", wallet.credit({ movement: movement("invalid", 100, "inv-6", "bonus") })],
  ];
  for (const [what, call] of invalid) t.is(await statusOf(call), status.INVALID_ARGUMENT, what);
  t.is((await wallet.getBalance({ playerId: "invalid" })).accountBalanceCents, 100_000);
});

test("the ledger pages by sequence", async (t) => {
  const { wallet } = t.context;
  await newPlayer(t, "pages");
  for (let n = 1; n <= 6; n++) await wallet.credit({ movement: movement("pages", n, `pages-${n}`, "payout") });
  const seen: number[] = [];
  let after = 0;
  do {
    const page = await wallet.listLedger({ playerId: "pages", afterSequence: after, limit: 3 });
    t.true(page.entries.length <= 3);
    seen.push(...page.entries.map((e) => e.sequence));
    after = page.nextAfterSequence;
  } while (after !== 0);
  t.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7]);
  t.is(
    await statusOf(wallet.listLedger({ playerId: "pages", afterSequence: 0, limit: 1001 })),
    status.INVALID_ARGUMENT,
  );
  t.is(await statusOf(wallet.listLedger({ playerId: "pages", afterSequence: -1, limit: 10 })), status.INVALID_ARGUMENT);
});

test("the ledger newest first, a page at a time: each page older than the last, none skipped", async (t) => {
  const { wallet } = t.context;
  await newPlayer(t, "statement");
  for (let i = 1; i <= 6; i++) await wallet.debit({ movement: movement("statement", i, `statement-${i}`) });
  const newest = (beforeSequence?: number, limit = 3) =>
    wallet.listLedger({ playerId: "statement", afterSequence: 0, limit, newestFirst: true, beforeSequence });
  const first = await newest();
  t.deepEqual(
    first.entries.map((e) => [e.sequence, e.amountCents]),
    [
      [7, -6],
      [6, -5],
      [5, -4],
    ],
  );
  t.like(first, { nextBeforeSequence: 5, nextAfterSequence: 0 });
  const second = await newest(first.nextBeforeSequence);
  t.deepEqual(
    second.entries.map((e) => e.sequence),
    [4, 3, 2],
  );
  const last = await newest(second.nextBeforeSequence);
  t.deepEqual(
    last.entries.map((e) => [e.sequence, e.reason]),
    [[1, "welcome"]],
  );
  t.is(last.nextBeforeSequence, 0, "the last page says so");
  t.is((await newest(4, 3)).entries[0]!.sequence, 3, "below before_sequence");
  t.is((await newest(1_000, 1)).entries[0]!.sequence, 7, "from the newest when above it");
  t.is((await newest(1)).entries.length, 0, "nothing below the first");
  for (const bad of [0, -1]) t.is(await statusOf(newest(bad)), status.INVALID_ARGUMENT, String(bad));
  t.is(
    await statusOf(wallet.listLedger({ playerId: "nobody", afterSequence: 0, limit: 3, newestFirst: true })),
    status.NOT_FOUND,
  );
});
