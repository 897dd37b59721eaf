// How the ledger is stored, and where a player's personal table is read from: its record under the
// player (insert-only, found by `_id`), never the player document, which FerretDB's read-then-write
// updates could undo; a crash between a table's insert and that record can leave the record missing.
// Looks behind the service at the stored documents. (The log's own hints are tested in
// common/test/sequenced-log.test.ts.)
import { Role, type Movement } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { MAX_BALANCE_CENTS } from "@pokerodds/common/limits";
import anyTest, { type TestFn } from "ava";
import type { CommandStartedEvent } from "mongodb";
import { auditLedger } from "../src/audit.js";
import { LedgerStore } from "../src/ledger-store.js";
import { Movements } from "../src/movements.js";
import { movementFromProto } from "../src/proto-mapping.js";
import { PersonalTableStore } from "../src/personal-table-store.js";
import { PlayerStore } from "../src/player-store.js";
import { findPersonalTable, findProfile, personalTableOwner, readProfile, walletParts } from "../src/profiles.js";
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

const players = (t: { context: WalletCluster }) =>
  t.context.db.collection<{ _id: string; role?: string; personalTableId?: number }>("players");

test("entries are stored under <playerId>:<sequence>, each with its key's document", async (t) => {
  const { wallet, db } = t.context;
  await wallet.getProfile({ claims: claims("ids:with:colons") });
  const { result } = await wallet.credit({ movement: movement("ids:with:colons", 5, "ids-1") });
  t.is(result!.entryId, "ids:with:colons:2");
  const ledger = db.collection<{ _id: string }>("ledger");
  const ids = await ledger.find({ stream: "ids:with:colons" }, { projection: { _id: 1 } }).toArray();
  t.deepEqual(ids.map((e) => e._id).sort(), ["ids:with:colons:1", "ids:with:colons:2"]);
  t.like(await ledger.findOne({ _id: "ids-1:key" }), { entryId: "ids:with:colons:2" });
});

test("replays of older keys answer their first outcome, whatever came after", async (t) => {
  const { wallet } = t.context;
  await wallet.getProfile({ claims: claims("replayer") });
  // Sequences 2..6 under keys replayer-1..replayer-5; the balance is 100,000 + 1 + 2 + 3 + 4 + 5.
  for (let n = 1; n <= 5; n++) await wallet.credit({ movement: movement("replayer", n, `replayer-${n}`) });
  for (const n of [1, 3, 5]) {
    t.like((await wallet.credit({ movement: movement("replayer", n, `replayer-${n}`) })).result, {
      sequence: n + 1,
      replayed: true,
    });
  }
  t.is((await wallet.getBalance({ playerId: "replayer" })).accountBalanceCents, 100_015);
  const { entries } = await wallet.listLedger({ playerId: "replayer", afterSequence: 0, limit: 100 });
  t.deepEqual(
    entries.map((e) => e.sequence),
    [1, 2, 3, 4, 5, 6],
  );
  t.true((await wallet.audit({})).clean);
});

test("the personal table is read from its record, kept through a lowered role; the player document holds none", async (t) => {
  const { wallet } = t.context;
  const table = (await wallet.getProfile({ claims: claims("payer", Role.ROLE_PAYING_USER) })).profile!.personalTableId!;
  t.true(table >= 1001);
  t.false("personalTableId" in (await players(t).findOne({ _id: "payer" }))!);
  // What an earlier version kept on the player is not read.
  await players(t).updateOne({ _id: "payer" }, { $set: { personalTableId: 9_999 } });
  t.false("personalTableId" in (await new PlayerStore(t.context.db).find("payer"))!, "nor carried along");
  t.is((await wallet.getPlayer({ playerId: "payer" })).profile!.personalTableId, table, "GetPlayer reads the record");
  t.is((await wallet.getProfile({ claims: claims("payer", Role.ROLE_PAYING_USER) })).profile!.personalTableId, table);

  const lowered = await wallet.getProfile({ claims: claims("payer", Role.ROLE_BASIC_USER) });
  t.like(lowered.profile, { personalTableId: table, role: Role.ROLE_BASIC_USER });
  t.is((await wallet.getPlayer({ playerId: "payer" })).profile!.personalTableId, table);
  t.is((await wallet.getPersonalTable({ playerId: "payer" })).tableId, table);
  t.is((await wallet.getPersonalTableOwner({ tableId: table })).playerId, "payer");

  await wallet.getProfile({ claims: claims("basic") });
  t.is((await wallet.getPlayer({ playerId: "basic" })).profile!.personalTableId, undefined);
});

/** A paying player's claims as the wallet's domain takes them (the service maps the proto's). */
const payingClaims = (playerId: string) => ({ ...claims(playerId), role: "PAYING_USER" as const });

test("a player's table is found by _id reads; one a crash left unrecorded, by the table's owner call or the one scan", async (t) => {
  const { wallet, db } = t.context;
  const owners = db.collection<{ _id: string; tableId: number }>("personalTableOwners");
  // In this process, against the same database: the scans are counted.
  const parts = walletParts(db);
  const { personalTables } = parts;
  let scans = 0;
  const scan = personalTables.findTableOf.bind(personalTables);
  personalTables.findTableOf = (playerId) => (scans++, scan(playerId));

  const first = await readProfile(parts, payingClaims("crashed"));
  const table = first.personalTableId!;
  t.like(await owners.findOne({ _id: "crashed" }), { tableId: table }, "recorded under the player");
  t.is((await findProfile(parts, "crashed"))?.personalTableId, table);

  // A crash between the table's insert and its record under the player.
  const unrecord = () => owners.deleteOne({ _id: "crashed" });
  await unrecord();
  t.is((await findProfile(parts, "crashed"))?.personalTableId, null, "GetPlayer: no table recorded, and no scan");
  t.is(await personalTableOwner(parts, table), "crashed", "the table service's owner call, before any seat there...");
  t.is((await findProfile(parts, "crashed"))?.personalTableId, table, "...records it");
  t.is(scans, 0);

  await unrecord();
  t.is((await readProfile(parts, payingClaims("crashed"))).personalTableId, table, "a profile read finds it");
  t.is(scans, 1, "by the one scan, after its insert was refused");
  t.like(await owners.findOne({ _id: "crashed" }), { tableId: table }, "and records it");
  t.is((await wallet.getPlayer({ playerId: "crashed" })).profile!.personalTableId, table);
});

test("GetPersonalTable names the table GetPlayer names, and reads no ledger", async (t) => {
  const { wallet, db } = t.context;
  const parts = walletParts(db);
  let ledgerReads = 0;
  const head = parts.ledger.head.bind(parts.ledger);
  parts.ledger.head = (playerId) => (ledgerReads++, head(playerId));
  const table = (await readProfile(parts, payingClaims("named"))).personalTableId!;
  await readProfile(parts, { ...payingClaims("unnamed"), role: "BASIC_USER" });
  ledgerReads = 0;
  for (const [playerId, expected] of [
    ["named", table],
    ["unnamed", null],
    ["nobody", null],
  ] as const) {
    t.is(await findPersonalTable(parts, playerId), expected, playerId);
    t.is((await wallet.getPersonalTable({ playerId })).tableId ?? null, expected, `${playerId}, through the service`);
    t.is((await findProfile(parts, playerId))?.personalTableId ?? null, expected, `${playerId}, as GetPlayer names it`);
  }
  t.is(ledgerReads, 2, "only GetPlayer's reads of the two players' balances");
});

test("a lowered role keeps the table a crash left unrecorded: found by the query by player, and recorded", async (t) => {
  const { db } = t.context;
  const parts = walletParts(db);
  const owners = db.collection<{ _id: string; tableId: number }>("personalTableOwners");
  const table = (await readProfile(parts, payingClaims("lowered"))).personalTableId!;
  await owners.deleteOne({ _id: "lowered" });
  t.is((await readProfile(parts, { ...claims("lowered"), role: "BASIC_USER" })).personalTableId, table);
  t.like(await owners.findOne({ _id: "lowered" }), { tableId: table });
  t.is((await findProfile(parts, "lowered"))?.personalTableId, table);
});

test("a player written back whole as read before the table's allocation keeps the table", async (t) => {
  const { db } = t.context;
  const parts = walletParts(db);
  await readProfile(parts, { ...claims("raced"), role: "BASIC_USER" });
  const before = (await players(t).findOne({ _id: "raced" }))!;
  const table = (await readProfile(parts, payingClaims("raced"))).personalTableId!;
  // What FerretDB makes of a claims update that read the player before the allocation and wrote it
  // back after: the whole document as it was read, with the role it writes.
  await players(t).replaceOne({ _id: "raced" }, { ...before, role: "BASIC_USER" });
  t.is((await findProfile(parts, "raced"))?.personalTableId, table, "GetPlayer");
  t.is(await findPersonalTable(parts, "raced"), table, "GetPersonalTable (the table service's seats lists)");
  t.is((await readProfile(parts, { ...claims("raced"), role: "BASIC_USER" })).personalTableId, table, "GetProfile");
});

test("the highest personal table is found by _id probes from any number of tables, by a fresh process too", async (t) => {
  const { db } = t.context;
  for (const count of [0, 1, 2, 3, 7, 64, 129]) {
    const own = db.client.db(`personal-tables-${count}`);
    const tables = own.collection<{ _id: number; playerId: string; createdAt: Date }>("personalTables");
    const ids = Array.from({ length: count }, (_, i) => 1001 + i);
    if (count > 0) await tables.insertMany(ids.map((_id) => ({ _id, playerId: `p${_id}`, createdAt: new Date() })));
    const store = new PersonalTableStore(own);
    t.is(await store.highestTableId(), count === 0 ? null : 1000 + count, `${count} tables`);
    await tables.insertOne({ _id: 1001 + count, playerId: "next", createdAt: new Date() });
    t.is(await store.highestTableId(), 1001 + count, `${count} tables and one more, from what it knew`);
  }
});

test("an entry the ledger's scan passed (not yet visible to it) is read by its _id before a gap is reported", async (t) => {
  const { wallet, db } = t.context;
  await wallet.getProfile({ claims: claims("scanned") });
  for (let n = 1; n <= 3; n++) await wallet.credit({ movement: movement("scanned", n, `scanned-${n}`) });
  const stored = new LedgerStore(db);
  // The scan as MongoDB's may go: sequence 2 passed, 3 and 4 read after it.
  const passing = (skipped: number) =>
    Object.assign(Object.create(stored) as LedgerStore, {
      async *all() {
        for await (const entry of stored.all())
          if (entry.playerId !== "scanned" || entry.sequence !== skipped) yield entry;
      },
    });
  const report = await auditLedger(passing(2), new PlayerStore(db), new AbortController().signal);
  t.deepEqual(
    report.issues.filter((issue) => issue.playerId === "scanned"),
    [],
  );
  // An entry gone from the ledger is still a gap: its _id read finds nothing either.
  const gone = Object.assign(Object.create(passing(2)) as LedgerStore, { entry: async () => null });
  const reported = await auditLedger(gone, new PlayerStore(db), new AbortController().signal);
  t.true(reported.issues.some((issue) => issue.playerId === "scanned" && issue.sequence === 3));
  t.false(reported.clean);
});

test("the audit stops reading the ledger when its call ends", async (t) => {
  const { wallet, db } = t.context;
  for (const playerId of ["reader-1", "reader-2", "reader-3"]) await wallet.getProfile({ claims: claims(playerId) });
  const ended = new AbortController();
  let read = 0;
  const stored = new LedgerStore(db);
  // The ledger as stored, ending the call after the second entry read.
  const ledger = {
    async *all() {
      for await (const entry of stored.all()) {
        if (++read === 2) ended.abort(new Error("the call ended"));
        yield entry;
      }
    },
  } as Partial<LedgerStore> as LedgerStore;
  await t.throwsAsync(auditLedger(ledger, new PlayerStore(db), ended.signal), { message: "the call ended" });
  t.is(read, 2, "no entry is read after the call ended");
  const whole = await auditLedger(stored, new PlayerStore(db), new AbortController().signal);
  t.true(whole.accounts >= 3);
});

test("a credit refused at the balance limit looks its key up by _id alone: never a scan of the ledger", async (t) => {
  const { wallet, db } = t.context;
  await wallet.getProfile({ claims: claims("brim") });
  await wallet.credit({ movement: movement("brim", MAX_BALANCE_CENTS - 100_000, "brim-1") });
  const movements = new Movements(new LedgerStore(db));
  // This player's reads only: the file's other tests share the client.
  const filters: unknown[] = [];
  const listen = (event: CommandStartedEvent) => {
    if (event.commandName === "find" && JSON.stringify(event.command.filter).includes("brim")) {
      filters.push(event.command.filter);
    }
  };
  db.client.on("commandStarted", listen);
  t.teardown(() => db.client.off("commandStarted", listen));
  // Recovery sends it again every few seconds while the account is full: a scan each time, on
  // FerretDB, grew with the whole ledger (8 s at 100,000 entries in a review).
  const { entry, replayed } = await movements.record(movementFromProto("credit", movement("brim", 500, "brim-2")));
  t.like(entry, { applied: false, refusal: "balance_limit" });
  t.false(replayed);
  t.true(filters.length > 0);
  t.deepEqual(
    filters.filter((filter) => typeof filter !== "object" || filter === null || !("_id" in filter)),
    [],
    "every read by _id",
  );
});
