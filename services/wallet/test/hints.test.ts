// The hints (accountHeads, a player's personalTableId) only spare reads: missing, behind or ahead of
// the truth, they change no answer. Looks behind the service at the stored documents.
import { Role, type Movement } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import anyTest, { type TestFn } from "ava";
import { claims, startWalletCluster, type WalletCluster } from "./helpers/wallet-cluster.js";

const test = anyTest as TestFn<WalletCluster>;

test.before(async (t) => {
  t.context = await startWalletCluster();
});
test.after.always(async (t) => {
  await t.context.stop?.();
});

const movement = (playerId: string, amountCents: number, idempotencyKey: string): Movement => ({
  playerId,
  amountCents,
  idempotencyKey,
  reason: "payout",
  reference: "",
});

const heads = (t: { context: WalletCluster }) =>
  t.context.db.collection<{ _id: string; sequence: number }>("accountHeads");
const players = (t: { context: WalletCluster }) =>
  t.context.db.collection<{ _id: string; personalTableId?: number }>("players");

test("entries are stored under <playerId>:<sequence>, and the account's hint follows the latest", async (t) => {
  const { wallet, db } = t.context;
  await wallet.getProfile({ claims: claims("ids:with:colons") });
  const { result } = await wallet.credit({ movement: movement("ids:with:colons", 5, "ids-1") });
  t.is(result!.entryId, "ids:with:colons:2");
  const ids = await db
    .collection("ledger")
    .find({ playerId: "ids:with:colons" }, { projection: { _id: 1 } })
    .toArray();
  t.deepEqual(ids.map((e) => e._id).sort(), ["ids:with:colons:1", "ids:with:colons:2"]);
  t.deepEqual(await heads(t).findOne({ _id: "ids:with:colons" }), { _id: "ids:with:colons", sequence: 2 });
});

test("a lagging, missing or ahead account hint changes no balance, sequence or replay", async (t) => {
  const { wallet } = t.context;
  await wallet.getProfile({ claims: claims("hinted") });
  // Sequences 2..6 under keys hinted-1..hinted-5; the balance is 100,000 + 1 + 2 + 3 + 4 + 5.
  for (let n = 1; n <= 5; n++) await wallet.credit({ movement: movement("hinted", n, `hinted-${n}`) });
  let balance = 100_015;
  let sequence = 6;
  const setHint = (value: number | null) =>
    value === null
      ? heads(t).deleteOne({ _id: "hinted" })
      : heads(t).updateOne({ _id: "hinted" }, { $set: { sequence: value } }, { upsert: true });

  for (const [what, hint] of [
    ["lagging", 2],
    ["missing", null],
    ["ahead", 1_000],
  ] as const) {
    await setHint(hint);
    t.is((await wallet.getBalance({ playerId: "hinted" })).accountBalanceCents, balance, `${what}: balance`);
    const { result } = await wallet.debit({
      movement: { ...movement("hinted", 10, `hinted-${what}`), reason: "sit" },
    });
    balance -= 10;
    sequence += 1;
    t.like(result, { applied: true, accountBalanceCents: balance, sequence, replayed: false }, what);
    t.is((await heads(t).findOne({ _id: "hinted" }))?.sequence, sequence, `${what}: the hint is true again`);
  }

  // Replays built on a lagging hint: the entry right above it, one further up (reached through
  // sequences taken by other keys), and the account's latest.
  await setHint(2);
  t.like((await wallet.credit({ movement: movement("hinted", 2, "hinted-2") })).result, {
    sequence: 3,
    replayed: true,
  });
  await setHint(2);
  t.like((await wallet.credit({ movement: movement("hinted", 4, "hinted-4") })).result, {
    sequence: 5,
    replayed: true,
  });
  await setHint(2);
  t.like((await wallet.debit({ movement: { ...movement("hinted", 10, "hinted-ahead"), reason: "sit" } })).result, {
    sequence,
    replayed: true,
  });
  t.is((await wallet.getBalance({ playerId: "hinted" })).accountBalanceCents, balance);
  const { entries } = await wallet.listLedger({ playerId: "hinted", afterSequence: 0, limit: 100 });
  t.deepEqual(
    entries.map((e) => e.sequence),
    Array.from({ length: sequence }, (_, i) => i + 1),
  );
  t.true((await wallet.audit({})).clean);
});

test("the personal table is recorded on the player; without the record, the table is read and recorded again", async (t) => {
  const { wallet } = t.context;
  const table = (await wallet.getProfile({ claims: claims("payer", Role.ROLE_PAYING_USER) })).profile!.personalTableId!;
  t.true(table >= 1001);
  t.is((await players(t).findOne({ _id: "payer" }))?.personalTableId, table);

  const forget = () => players(t).updateOne({ _id: "payer" }, { $unset: { personalTableId: "" } });
  await forget();
  t.is((await wallet.getPlayer({ playerId: "payer" })).profile!.personalTableId, table, "GetPlayer reads it");
  t.is((await wallet.getProfile({ claims: claims("payer", Role.ROLE_PAYING_USER) })).profile!.personalTableId, table);
  t.is((await players(t).findOne({ _id: "payer" }))?.personalTableId, table, "recorded again");

  // A role that loses its entitlement takes the table along with it.
  await forget();
  const lowered = await wallet.getProfile({ claims: claims("payer", Role.ROLE_BASIC_USER) });
  t.like(lowered.profile, { personalTableId: table, role: Role.ROLE_BASIC_USER });
  t.like(await players(t).findOne({ _id: "payer" }), { role: "BASIC_USER", personalTableId: table });
  t.is((await wallet.getPlayer({ playerId: "payer" })).profile!.personalTableId, table);
  t.is((await wallet.getPersonalTableOwner({ tableId: table })).playerId, "payer");

  await wallet.getProfile({ claims: claims("basic") });
  t.false("personalTableId" in (await players(t).findOne({ _id: "basic" }))!);
  t.is((await wallet.getPlayer({ playerId: "basic" })).profile!.personalTableId, undefined);
});
