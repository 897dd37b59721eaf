import { status } from "@grpc/grpc-js";
import { Role } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
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

test("20 concurrent first reads create one player with exactly one 1,000.00 welcome credit", async (t) => {
  const { wallet, db } = t.context;
  const profiles = await Promise.all(
    Array.from({ length: 20 }, () => wallet.getProfile({ claims: claims("first-read") })),
  );
  for (const { profile } of profiles) {
    t.like(profile, {
      playerId: "first-read",
      accountBalanceCents: 100_000,
      role: Role.ROLE_BASIC_USER,
      isActive: true,
    });
    t.is(profile!.personalTableId, undefined);
  }
  t.is(await db.collection("players").countDocuments({ _id: "first-read" as never }), 1);
  const entries = await db.collection("ledger").find({ stream: "first-read" }).toArray();
  t.is(entries.length, 1);
  t.like(entries[0], { seq: 1, kind: "welcome", amountCents: 100_000, balanceAfterCents: 100_000 });
  t.is((await wallet.getBalance({ playerId: "first-read" })).accountBalanceCents, 100_000);
});

test("a later read shows the live balance and the token's current names and role", async (t) => {
  const { wallet } = t.context;
  await wallet.getProfile({ claims: claims("later") });
  await wallet.debit({
    movement: { playerId: "later", amountCents: 2_550, idempotencyKey: "later-1", reason: "sit", reference: "" },
  });
  const { profile } = await wallet.getProfile({
    claims: { playerId: "later", username: "new@example.com", displayName: "New Name", role: Role.ROLE_ANON_USER },
  });
  t.like(profile, {
    accountBalanceCents: 97_450,
    username: "new@example.com",
    displayName: "New Name",
    role: Role.ROLE_ANON_USER,
  });
  const { profile: stored } = await wallet.getPlayer({ playerId: "later" });
  t.like(stored, {
    playerId: "later",
    username: "new@example.com",
    displayName: "New Name",
    role: Role.ROLE_ANON_USER,
    isActive: true,
    accountBalanceCents: 97_450,
  });
  t.truthy(stored!.avatarImageUrl);
});

test("an unspecified role claim reads as BASIC_USER", async (t) => {
  const { profile } = await t.context.wallet.getProfile({ claims: claims("no-role", Role.ROLE_UNSPECIFIED) });
  t.is(profile!.role, Role.ROLE_BASIC_USER);
});

test("GetPlayer never creates a player: NOT_FOUND until the first profile read", async (t) => {
  const { wallet, db } = t.context;
  t.is(await statusOf(wallet.getPlayer({ playerId: "nobody" })), status.NOT_FOUND);
  t.is(await statusOf(wallet.getBalance({ playerId: "nobody" })), status.NOT_FOUND);
  t.is(await db.collection("players").countDocuments({ _id: "nobody" as never }), 0);
  t.is(await statusOf(wallet.getProfile({ claims: claims("") })), status.INVALID_ARGUMENT);
  t.is(await statusOf(wallet.getProfile({})), status.INVALID_ARGUMENT);
});

test("paying users and admins get distinct personal tables from 1001, once each, even all at once", async (t) => {
  const { wallet } = t.context;
  const payers = Array.from({ length: 8 }, (_, i) => `payer-${i}`);
  // Every payer reads their profile three times concurrently, all payers at once.
  const reads = await Promise.all(
    payers.flatMap((id, i) =>
      Array.from({ length: 3 }, () =>
        wallet.getProfile({ claims: claims(id, i % 2 ? Role.ROLE_ADMIN : Role.ROLE_PAYING_USER) }),
      ),
    ),
  );
  const tableOf = new Map<string, number>();
  for (const { profile } of reads) {
    const table = profile!.personalTableId;
    t.true(table !== undefined && table >= 1001);
    const seen = tableOf.get(profile!.playerId);
    if (seen !== undefined) t.is(table, seen, "one table per player");
    tableOf.set(profile!.playerId, table!);
  }
  t.is(new Set(tableOf.values()).size, payers.length, "no table shared by two players");
  for (const [playerId, tableId] of tableOf) {
    t.is((await wallet.getPersonalTableOwner({ tableId })).playerId, playerId);
  }
});

test("a personal table stays when the role is lowered, and is allocated when a player is promoted", async (t) => {
  const { wallet } = t.context;
  const basic = await wallet.getProfile({ claims: claims("promoted") });
  t.is(basic.profile!.personalTableId, undefined);
  const paying = await wallet.getProfile({ claims: claims("promoted", Role.ROLE_PAYING_USER) });
  const table = paying.profile!.personalTableId;
  t.true(table !== undefined && table >= 1001);
  const lowered = await wallet.getProfile({ claims: claims("promoted", Role.ROLE_BASIC_USER) });
  t.like(lowered.profile, { personalTableId: table, role: Role.ROLE_BASIC_USER, accountBalanceCents: 100_000 });
  // Another reader (an ADMIN, the table service) sees the same, without claims.
  t.like((await wallet.getPlayer({ playerId: "promoted" })).profile, {
    personalTableId: table,
    role: Role.ROLE_BASIC_USER,
  });
});

test("GetPersonalTableOwner is NOT_FOUND for public and unallocated tables", async (t) => {
  const { wallet } = t.context;
  for (const tableId of [0, 1, 20, 1000, 999_999]) {
    t.is(await statusOf(wallet.getPersonalTableOwner({ tableId })), status.NOT_FOUND, String(tableId));
  }
});
