// The lobby's pass over the tables active lately, on the real embedded database. With more of them
// than the heads this process caches by default (500), each pass must leave the heads the next one
// reads in the cache, or every head read, the players' too, starts cold; once fewer are active, the
// caches shrink to them, forgetting the heads used least lately. And calls share passes: one
// within the passes' maximum age reads nothing, yet shows this replica's own changes at once (with
// few tables; with many, within the relisting age), and one soon after it answers from the last pass
// while a new one runs.
import { startFerretDB, type FerretDB } from "@pokerodds/launcher/ferretdb";
import test, { type ExecutionContext } from "ava";
import { MongoClient } from "mongodb";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ACTIVE_WINDOW_MS, applySit, applyTopUp, emptyTable } from "../src/domain/index.js";
import { createIndexes } from "../src/indexes.js";
import type { TableParts } from "../src/parts.js";
import { LOBBY_HEAD_READS_PER_S, lobbyReader, passAge, relistAge } from "../src/reads.js";
import { SnapshotStore } from "../src/snapshot-store.js";
import { setTimeout as sleep } from "node:timers/promises";
import { eventually } from "../../../test/helpers/poll.js";

let dir = "";
let ferret: FerretDB | undefined;
test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), "pokerodds-head-cache-"));
  ferret = await startFerretDB({ dataDir: dir, output: "ignore" });
});
test.after.always(async () => {
  await ferret?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ACTIVE_TABLES = 700;

/** A store on a database of its own, holding one table noted active now. */
async function storeWithActiveTable(t: ExecutionContext, name: string): Promise<SnapshotStore> {
  const mongo = new MongoClient(ferret!.uri);
  t.teardown(() => mongo.close());
  const db = mongo.db(name);
  await createIndexes(db);
  const store = new SnapshotStore(db);
  await store.load([{ ...emptyTable(1, Date.now()), version: 2 }]);
  await store.activity.note(1, Date.now());
  return store;
}

/** Seats `playerId` at table 1 with a buy-in of 100 cents, as a sit stored by this replica. */
const sitAtTable1 = (store: SnapshotStore, playerId: string) =>
  store.apply(1, { key: `sit:${playerId}`, fingerprint: "" }, (latest, now) =>
    applySit(
      latest,
      { playerId, playerName: playerId, avatarImageUrl: "", amountCents: 100, transferId: playerId },
      now,
    ),
  );

/** Runs `atStart` as each lobby pass of the store begins (a pass begins by reading the activity index). */
function atEachPass(store: SnapshotStore, atStart: () => unknown): void {
  const activeAt = store.activity.activeAt.bind(store.activity);
  store.activity.activeAt = async (now) => {
    await atStart();
    return activeAt(now);
  };
}

/**
 * A database of its own holding ACTIVE_TABLES tables of two versions each, the table's hint on the
 * second (a cold head costs the hint, its entry and the probe past it; a cached one the probe
 * alone), and the count of the finds sent to it.
 */
async function tablesCountingReads(t: ExecutionContext, name: string) {
  const mongo = new MongoClient(ferret!.uri, { monitorCommands: true });
  t.teardown(() => mongo.close());
  const reads = { finds: 0 };
  mongo.on("commandStarted", (event) => {
    if (event.commandName === "find") reads.finds++;
  });
  const db = mongo.db(name);
  await createIndexes(db);
  const now = Date.now();
  const tableIds = Array.from({ length: ACTIVE_TABLES }, (_, i) => 21 + i);
  await new SnapshotStore(db).load(
    tableIds.flatMap((tableId) => [2, 3].map((version) => ({ ...emptyTable(tableId, now), version }))),
  );
  return { db, now, tableIds, reads };
}

test("with 700 tables active, a lobby pass after the first reads each head once, and so does a player's read after it", async (t) => {
  const { db, now, tableIds, reads } = await tablesCountingReads(t, "tables");
  const store = new SnapshotStore(db); // a process that has read nothing yet
  await Promise.all(tableIds.map((tableId) => store.activity.note(tableId, now)));
  const lobby = lobbyReader({ store } as TableParts, 0);

  await lobby("");
  reads.finds = 0;
  await lobby("");
  const buckets = 8; // the window's buckets and the one ahead, probed each pass
  t.true(reads.finds <= ACTIVE_TABLES + buckets, `${reads.finds} reads for ${ACTIVE_TABLES} cached heads`);
  reads.finds = 0;
  await store.latest(tableIds[0]!);
  t.is(reads.finds, 1, "the first table's head is still cached");
});

test("once fewer tables are active the caches shrink: the heads read least lately are forgotten, the others stay cached", async (t) => {
  const { db, tableIds, reads } = await tablesCountingReads(t, "shrinking");
  const store = new SnapshotStore(db);
  const readCosts = async (tableId: number) => {
    reads.finds = 0;
    await store.latest(tableId);
    return reads.finds;
  };
  store.cacheActive("lobby", ACTIVE_TABLES);
  for (const tableId of tableIds) await store.latest(tableId); // read in turn: the first is read least lately
  // Recovery's few tables owing a credit do not shrink what the lobby's pass still needs.
  store.cacheActive("recovery", 10);
  t.is(await readCosts(tableIds[0]!), 1, "a head cached while the lobby's pass needs it is probed only");
  // 100 active now: room for those and 500 more; the 100 heads read least lately are forgotten.
  store.cacheActive("lobby", 100);
  t.true((await readCosts(tableIds[1]!)) > 1, "a head read least lately is read cold again");
  t.is(await readCosts(tableIds.at(-1)!), 1, "the head read last is still cached");
  t.is(await readCosts(tableIds[0]!), 1, "and so is the one read again after the others");
});

test("a lobby call within the passes' maximum age reads nothing, and shows this replica's changes at once, another's after that age", async (t) => {
  const reader = new MongoClient(ferret!.uri, { monitorCommands: true });
  t.teardown(() => reader.close());
  let reads = 0;
  reader.on("commandStarted", (event) => {
    if (event.commandName === "find") reads++;
  });
  const db = reader.db("lobby-passes");
  await createIndexes(db);
  const here = new SnapshotStore(db);
  const there = new SnapshotStore(db); // another replica
  const seat = (store: SnapshotStore, tableId: number, playerId: string) =>
    store.apply(tableId, { key: `sit:${tableId}:${playerId}`, fingerprint: "" }, (latest, now) =>
      applySit(
        latest,
        { playerId, playerName: playerId, avatarImageUrl: "", amountCents: 100, transferId: playerId },
        now,
      ),
    );
  const maxAgeMs = 5_000;
  const lobby = lobbyReader({ store: here } as TableParts, maxAgeMs);
  const playersAt = async (tableId: number) =>
    (await lobby("")).tables.find((line) => line.tableId === tableId)?.playerCount ?? 0;

  await seat(here, 1, "ann");
  const passed = Date.now();
  t.is(await playersAt(1), 1);
  await seat(here, 1, "bob");
  await seat(there, 2, "cy");
  const before = reads;
  t.is(await playersAt(1), 2, "this replica's change at once");
  t.is(await playersAt(2), 0, "another replica's not yet");
  t.is(reads, before, "answered from the last pass: no read");
  t.true(Date.now() - passed < maxAgeMs, "the checks ran within the maximum age");
  await sleep(maxAgeMs - (Date.now() - passed) + 100);
  await eventually("another replica's change, once the last pass is older than the maximum age", async () =>
    (await playersAt(2)) === 1 ? true : undefined,
  );
  t.true(reads > before);
});

test("after the maximum age a call answers from the last pass while it starts the next, until that pass's own time twice over; later it waits", async (t) => {
  const store = await storeWithActiveTable(t, "lobby-stale");
  // Each pass waits at its start until the test lets it go on: the first takes about 300 ms.
  let passesBegun = 0;
  let letPassGo = () => {};
  atEachPass(store, () => {
    passesBegun++;
    return new Promise<void>((resolve) => (letPassGo = resolve));
  });
  const maxAgeMs = 100;
  const lobby = lobbyReader({ store } as TableParts, maxAgeMs);
  const answered = (call: Promise<unknown>) => Promise.race([call.then(() => true), sleep(300).then(() => false)]);

  const first = lobby("");
  t.false(await answered(first), "the lobby's first call waits for its pass");
  letPassGo();
  await first;
  await sleep(maxAgeMs + 20);
  t.true(await answered(lobby("")), "a call after the maximum age answers while its pass waits");
  t.is(passesBegun, 2, "and began that pass");
  letPassGo();
  // Past the maximum age and twice the last pass's time (about 0.1 + 2 x 0.3 s).
  await sleep(1_500);
  const late = lobby("");
  t.false(await answered(late), "a call after a pause waits for a new pass");
  letPassGo();
  await late;
  t.is(passesBegun, 3);
});

test("a pass may reach the maximum age, or with many tables their number over the head reads a second allowed", (t) => {
  t.is(passAge(1_000, 10), 1_000);
  t.is(passAge(1_000, 4 * LOBBY_HEAD_READS_PER_S), 4_000);
  t.is(passAge(10_000, 4 * LOBBY_HEAD_READS_PER_S), 10_000);
  t.is(passAge(0, 4 * LOBBY_HEAD_READS_PER_S), 0, "a maximum age of 0: every call a pass of its own");
});

test("with many active tables the passes are further apart than the maximum age: no call starts one sooner", async (t) => {
  const store = await storeWithActiveTable(t, "lobby-many");
  // 20 active ids never written besides table 1, and 10 head reads a second allowed: a pass may reach 2.1 s.
  const many = Array.from({ length: 20 }, (_, i) => 100_000 + i);
  const activeAt = store.activity.activeAt.bind(store.activity);
  const passesBegun: number[] = [];
  store.activity.activeAt = async (now) => (passesBegun.push(performance.now()), [...(await activeAt(now)), ...many]);
  const maxAgeMs = 100;
  const passAgeMs = passAge(maxAgeMs, many.length + 1, 10);
  t.is(passAgeMs, 2_100);
  const lobby = lobbyReader({ store } as TableParts, maxAgeMs, { headReadsPerS: 10 });
  await lobby("");
  await sleep(5 * maxAgeMs);
  await lobby("");
  if (performance.now() - passesBegun[0]! < passAgeMs) t.is(passesBegun.length, 1, "within the pass age: none");
  await sleep(passAgeMs - (performance.now() - passesBegun[0]!) + 50);
  await lobby("");
  t.is(passesBegun.length, 2, "past it, the next");
});

test("with a maximum age of 0 every call waits for a pass of its own", async (t) => {
  const store = await storeWithActiveTable(t, "lobby-fresh");
  let passes = 0;
  atEachPass(store, () => passes++);
  const lobby = lobbyReader({ store } as TableParts, 0);
  for (let i = 0; i < 3; i++) await lobby("");
  t.is(passes, 3);
});

test("a crowd polling the lobby costs one pass per maximum age: calls during a pass begun within it share that pass", async (t) => {
  const store = await storeWithActiveTable(t, "lobby-crowd");
  // Each pass begins by reading the activity index: counted there, and made slow, so that many calls
  // arrive while one runs.
  const passesBegun: number[] = [];
  atEachPass(store, () => {
    passesBegun.push(performance.now());
    return sleep(150);
  });
  const maxAgeMs = 1_000;
  const lobby = lobbyReader({ store } as TableParts, maxAgeMs);
  const started = performance.now();
  const client = async () => {
    while (performance.now() - started < 3_500) {
      await lobby("");
      await sleep(5);
    }
  };
  await Promise.all(Array.from({ length: 8 }, client));
  const allowed = Math.ceil((performance.now() - started) / maxAgeMs);
  t.true(passesBegun.length <= allowed, `${passesBegun.length} passes in ${allowed - 1}-${allowed} intervals`);
  // (Less a little: the times are taken just after each pass began.)
  for (let i = 1; i < passesBegun.length; i++) {
    t.true(
      passesBegun[i]! - passesBegun[i - 1]! > maxAgeMs - 50,
      "no pass begins within the maximum age of the one before",
    );
  }
});

test("a lobby keeps its etag while what it shows stands: a top-up keeps it, a sit changes it, and another replica names the same lobby alike", async (t) => {
  const store = await storeWithActiveTable(t, "lobby-etag");
  await sitAtTable1(store, "ann");
  const lobby = lobbyReader({ store } as TableParts, 60_000);
  const first = await lobby("");
  t.like(first, {
    tables: [{ tableId: 1, playerCount: 1, gameState: "WAITING" }],
    totalActivePlayers: 1,
    unchanged: false,
  });
  t.deepEqual(await lobby(first.etag), { tables: [], totalActivePlayers: 0, etag: first.etag, unchanged: true });

  await store.apply(1, { key: "topup:ann", fingerprint: "" }, (latest, now) =>
    applyTopUp(latest, { playerId: "ann", amountCents: 50 }, now),
  );
  t.true((await lobby(first.etag)).unchanged, "a top-up changes nothing the lobby shows");

  await sitAtTable1(store, "bob");
  const second = await lobby(first.etag);
  t.like(second, { tables: [{ tableId: 1, playerCount: 2 }], totalActivePlayers: 2, unchanged: false });
  t.not(second.etag, first.etag);

  const replica = new MongoClient(ferret!.uri);
  t.teardown(() => replica.close());
  const elsewhere = lobbyReader({ store: new SnapshotStore(replica.db("lobby-etag")) } as TableParts, 60_000);
  t.deepEqual(await elsewhere(second.etag), { tables: [], totalActivePlayers: 0, etag: second.etag, unchanged: true });
});

test("a change stored here is listed again once the lobby listed is its relisting age old: however many changes come, one listing per that age", async (t) => {
  const store = await storeWithActiveTable(t, "lobby-relist");
  // One table listed at half a table a second: a listing stands 2 s against this replica's changes.
  const relistMs = relistAge(1, 0.5);
  t.is(relistMs, 2_000);
  const lobby = lobbyReader({ store } as TableParts, 60_000, { tablesListedPerS: 0.5 });
  const playerCount = async () => (await lobby("")).tables.find((line) => line.tableId === 1)?.playerCount;
  const listedAt = performance.now();
  t.is(await playerCount(), 0);
  await sitAtTable1(store, "ann");
  await sitAtTable1(store, "bob");
  const seen = await playerCount();
  // Both sits and this read took under the relisting age, or the read is too late to tell.
  if (performance.now() - listedAt < relistMs) t.is(seen, 0, "the lobby listed stands until its relisting age");
  await eventually("both sits listed", async () => ((await playerCount()) === 2 ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 50,
  });
  t.true(performance.now() - listedAt >= relistMs, "listed again no sooner than its relisting age");
});

test("a table leaves the lobby when its window ends, with no change and no new pass", async (t) => {
  const store = await storeWithActiveTable(t, "lobby-window");
  const closing = Date.now() - ACTIVE_WINDOW_MS + 1_500;
  await store.load([{ ...emptyTable(2, closing), version: 2 }]);
  await store.activity.note(2, closing);
  let passes = 0;
  atEachPass(store, () => passes++);
  const lobby = lobbyReader({ store } as TableParts, 60_000);
  const tableIds = async () => (await lobby("")).tables.map((line) => line.tableId);
  t.deepEqual(await tableIds(), [1, 2]);
  await sleep(Math.max(0, closing + ACTIVE_WINDOW_MS - Date.now()) + 100);
  t.deepEqual(await tableIds(), [1]);
  t.is(passes, 1);
});
