// The database round trips one operation costs, counted by the table process itself
// (mongodb_commands_total on its metrics port): a state read is one `_id` read, a bet one read and
// one insert, whatever the table's history holds; the lobby and a player's seats the same however
// many tables were ever written. Recovery is slowed down so that its passes do not count in between.
import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import { freePorts } from "@pokerodds/launcher/ports";
import anyTest, { type TestFn } from "ava";
import { BSON } from "mongodb";
import { setTimeout as sleep } from "node:timers/promises";
import { BUCKET_MS } from "../src/activity-index.js";
import { SnapshotStore } from "../src/snapshot-store.js";
import { BETS_SINCE_FULL } from "../src/stored-version.js";
import { newTable, sit } from "./helpers/fixtures.js";
import { admin, newPlayer, startTableCluster, type Table, type TableCluster } from "./helpers/table-cluster.js";

interface Context {
  cluster: TableCluster;
  table: Table;
  metricsPort: number;
}
const test = anyTest as TestFn<Context>;
// The counts are per process, so two tests at once would count each other.
const serial = test.serial;

test.before(async (t) => {
  const cluster = await startTableCluster({ tables: 0 });
  const [metricsPort] = (await freePorts(1)) as [number];
  const replica = await cluster.startTable({
    METRICS_PORT: String(metricsPort),
    TABLE_RECOVERY_INTERVAL_MS: "3600000",
    // Every lobby call makes its own pass, so that one call's commands are the pass's.
    TABLE_LOBBY_MAX_AGE_MS: "0",
  });
  t.context = { cluster, table: replica.client, metricsPort };
});
test.after.always(async (t) => {
  await t.context.cluster?.stop();
});

/** Commands sent so far, by name (the driver's periodic ping left out). */
async function commandsSent(metricsPort: number): Promise<Map<string, number>> {
  const body = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const sent = new Map<string, number>();
  for (const [, command, value] of body.matchAll(/^mongodb_commands_total\{command="(\w+)"\} (\d+)$/gm)) {
    if (command !== "ping") sent.set(command!, Number(value));
  }
  return sent;
}

/** The commands `run` sent, by name. */
async function commandsOf(t: { context: Context }, run: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = await commandsSent(t.context.metricsPort);
  await run();
  const after = await commandsSent(t.context.metricsPort);
  const sent: Record<string, number> = {};
  for (const [command, value] of after) {
    const delta = value - (before.get(command) ?? 0);
    if (delta > 0) sent[command] = delta;
  }
  return sent;
}

/**
 * A table's first player operation in a bucket of the activity index notes it there (a few commands
 * more): a test that counts starts far enough from a bucket's end that its tables stay in one.
 */
async function awayFromBucketEdge(): Promise<void> {
  const left = BUCKET_MS - (Date.now() % BUCKET_MS);
  if (left < 20_000) await sleep(left + 100);
}

serial.beforeEach(awayFromBucketEdge);

serial(
  "a replica serves once it has read which tables above TABLE_COUNT were written: no count waits on it",
  async (t) => {
    // The cluster's replicas have TABLE_COUNT 20: every id from 21 to the personal tables is probed.
    const probes = FIRST_PERSONAL_TABLE_ID - 21;
    const finds = (await commandsSent(t.context.metricsPort)).get("find") ?? 0;
    t.true(finds >= probes, `${finds} reads when it reported SERVING, of ${probes} probes`);
    t.deepEqual(await commandsOf(t, () => sleep(500)), {}, "and nothing more after");
  },
);

serial("a state read costs one database read and a bet one read and one insert", async (t) => {
  const { table } = t.context;
  const tableId = 4;
  const caller = await newPlayer(t.context.cluster, "counted");
  const { seatId } = await table.sit({ caller, tableId, buyInCents: 50_000, idempotencyKey: "sit" });
  await table.advance({ caller, tableId });
  const { state } = await table.getState({ caller: admin(), tableId });
  const hand = state!.handOdds.find((p) => p.bettingStage === state!.bettingStage && p.oddsTenths > 0)!;
  const bet = (key: string) =>
    table.bet({
      caller,
      tableId,
      seatIndex: seatId,
      handIndex: hand.handIndex,
      betAmountCents: 100,
      idempotencyKey: key,
    });

  t.deepEqual(await commandsOf(t, () => table.getState({ caller, tableId })), { find: 1 });
  // Versions whose number is a multiple of 16 also move the table's hint: bet until past one.
  const costs = [];
  for (let n = 0; n < 20; n++) costs.push(await commandsOf(t, () => bet(`bet-${n}`)));
  const plain = costs.filter((cost) => !("update" in cost));
  t.true(plain.length >= 18);
  for (const cost of plain) t.deepEqual(cost, { find: 1, insert: 1 });
  for (const cost of costs.filter((c) => "update" in c)) t.deepEqual(cost, { find: 1, insert: 1, update: 1 });
});

serial("an advance from a state the table has left: one read in its game, three for an earlier game's", async (t) => {
  const { table } = t.context;
  const tableId = 6;
  const caller = await newPlayer(t.context.cluster, "dealer");
  await table.sit({ caller, tableId, buyInCents: 1_000, idempotencyKey: "sit" });
  const { state: start } = await table.getState({ caller, tableId });
  const from = { gameId: start!.gameId, gameState: start!.gameState };
  const hole = await table.advance({ caller, tableId, from });
  // Within the game the table's place says the deal was made: no key is read.
  t.deepEqual(await commandsOf(t, () => table.advance({ caller, tableId, from })), { find: 1 });
  t.deepEqual((await table.advance({ caller, tableId, from })).state, hole.state);
  for (let i = 0; i < 5; i++) await table.advance({ caller, tableId }); // through the river, cleared, dealt
  // Of an earlier game: the head, then the deal's key document and its entry.
  t.deepEqual(await commandsOf(t, () => table.advance({ caller, tableId, from })), { find: 3 });
});

serial("sit, top-up and leave: the round trips their crash safety needs", async (t) => {
  const { table } = t.context;
  const tableId = 5;
  const [first, caller] = [await newPlayer(t.context.cluster, "first"), await newPlayer(t.context.cluster, "moving")];
  await table.sit({ caller: first, tableId, buyInCents: 10_000, idempotencyKey: "sit" });
  // Each: the table read of the precheck; the pending entry and the claim; the table read and the
  // change that moves the money; the outcome; the pending entry cleared. A leave also records its
  // credit's delivery (a read and a change), and notes its table owing before the credit is stored
  // (the owing index: this process reads the bucket the first time, and the table's note in a bucket
  // is one insert). The wallet's calls are the wallet's own.
  const sit = await commandsOf(t, () => table.sit({ caller, tableId, buyInCents: 10_000, idempotencyKey: "sit" }));
  t.deepEqual(sit, { find: 2, insert: 4, delete: 1 });
  const topUp = await commandsOf(t, () => table.topUp({ caller, tableId, amountCents: 500, idempotencyKey: "top" }));
  t.deepEqual(topUp, { find: 2, insert: 4, delete: 1 });
  const leave = await commandsOf(t, () => table.leave({ caller, tableId, idempotencyKey: "leave" }));
  t.deepEqual(leave, { find: 5, insert: 6, delete: 1 });
});

serial(
  "a bet or a NACK is kept as its changes since a version kept in full; reads rebuild it, on another replica too",
  async (t) => {
    const { cluster, table } = t.context;
    const tableId = 7;
    const caller = await newPlayer(cluster, "small");
    const { seatId } = await table.sit({ caller, tableId, buyInCents: 1_000, idempotencyKey: "sit" });
    await table.advance({ caller, tableId });
    const { state: hole } = await table.getState({ caller, tableId });
    const hand = hole!.handOdds.find((p) => p.bettingStage === hole!.bettingStage && p.oddsTenths > 0)!;
    const bet = (key: string, betAmountCents: number) =>
      table.bet({ caller, tableId, seatIndex: seatId, handIndex: hand.handIndex, betAmountCents, idempotencyKey: key });

    const bets = BETS_SINCE_FULL + 4;
    for (let n = 0; n < bets; n++) t.true((await bet(`bet-${n}`, 1)).acknowledged);
    const { state: before } = await table.getState({ caller, tableId });
    const refusals = [];
    for (let n = 0; n < 3; n++) refusals.push(await bet(`short-${n}`, 5_000));
    t.true(refusals.every((answer) => answer.acknowledged === false));

    type Doc = { _id: string; seq: number; snapshot?: object; since?: number; changes?: object; newBets?: unknown[] };
    const history = cluster.db.collection<Doc>("history");
    const versions = (await history.find({ stream: String(tableId) }).toArray()).sort((x, y) => x.seq - y.seq);
    const [sit, advance, ...rest] = versions;
    const [placed, nacks] = [rest.slice(0, bets), rest.slice(bets)];
    t.truthy(sit!.snapshot, "a table's first version is kept in full");
    t.is(advance!.since, sit!.seq, "the deal is kept as its changes");
    const full = placed[BETS_SINCE_FULL]!;
    t.deepEqual(
      placed.map((doc) => (doc.snapshot ? "full" : `${doc.since}: ${doc.newBets!.length}`)),
      placed.map((_, n) =>
        n < BETS_SINCE_FULL
          ? `${sit!.seq}: ${n + 1}`
          : n === BETS_SINCE_FULL
            ? "full"
            : `${full.seq}: ${n - BETS_SINCE_FULL}`,
      ),
      "bets are kept as changes until more than BETS_SINCE_FULL were placed since the full version",
    );
    // Changes are counted from the full version: a NACK's are the last bet's, but for the version and its time.
    const unnumbered = ({ since, changes, newBets }: Doc) => {
      const { version: _version, updatedAt: _updatedAt, ...rest } = changes as Record<string, unknown>;
      return { since, changes: rest, newBets };
    };
    t.deepEqual(
      nacks.map(unnumbered),
      nacks.map(() => unnumbered(placed.at(-1)!)),
    );
    t.is(unnumbered(placed.at(-1)!).since, full.seq);
    // A copy would be the whole table: already 5 KB at one seat and 17 bets.
    t.true(BSON.calculateObjectSize(full) > 5_000);
    const nackSizes = nacks.map((doc) => BSON.calculateObjectSize(doc));
    t.true(
      nackSizes.every((size) => size < 2_048),
      `NACK versions of ${nackSizes.join(", ")} bytes`,
    );

    // The replica that stored them still reads the table in one command; a fresh one rebuilds the same.
    const { state: after } = await table.getState({ caller, tableId });
    t.deepEqual(after, before, "the NACKs changed nothing the state shows");
    t.is(after!.bets.length, bets);
    t.deepEqual(await commandsOf(t, () => table.getState({ caller, tableId })), { find: 1 });
    const other = await cluster.startTable();
    t.deepEqual((await other.client.getState({ caller, tableId })).state, after);
    t.deepEqual(
      await other.client.bet({
        caller,
        tableId,
        seatIndex: seatId,
        handIndex: hand.handIndex,
        betAmountCents: 5_000,
        idempotencyKey: "short-1",
      }),
      refusals[1],
      "a replay answers its NACK",
    );
  },
);

serial("reading an earlier game's versions costs the table's own operations no read", async (t) => {
  const { cluster, table } = t.context;
  const tableId = 8;
  const caller = await newPlayer(cluster, "walker");
  const { seatId } = await table.sit({ caller, tableId, buyInCents: 10_000, idempotencyKey: "sit" });
  const { state: hole } = await table.advance({ caller, tableId });
  const hand = hole!.handOdds.find((p) => p.bettingStage === hole!.bettingStage && p.oddsTenths > 0)!;
  // More bets than a version kept as changes carries: the game's versions build on more than one full one.
  for (let n = 0; n < BETS_SINCE_FULL + 4; n++) {
    await table.bet({
      caller,
      tableId,
      seatIndex: seatId,
      handIndex: hand.handIndex,
      betAmountCents: 1,
      idempotencyKey: `bet-${n}`,
    });
  }
  let state = hole!;
  while (state.gameId === hole!.gameId || state.gameState !== hole!.gameState) {
    state = (await table.advance({ caller, tableId })).state!;
  }
  t.deepEqual(await commandsOf(t, () => table.getState({ caller, tableId })), { find: 1 });
  const { game } = await table.getGame({ caller, tableId, gameId: hole!.gameId });
  t.is(game!.bets.length, BETS_SINCE_FULL + 4);
  t.deepEqual(await commandsOf(t, () => table.getState({ caller, tableId })), { find: 1 });
});

serial("the lobby and a player's seats cost the same however many tables were ever written", async (t) => {
  const { cluster, table } = t.context;
  const caller = await newPlayer(cluster, "lobby-reader");
  await table.sit({ caller, tableId: 9, buyInCents: 1_000, idempotencyKey: "sit" });
  const costs = async () => ({
    lobby: await commandsOf(t, () => table.listTables({ cachedEtag: "" })),
    seats: await commandsOf(t, () => table.listSeats({ caller })),
  });
  await costs(); // the written tables above TABLE_COUNT are read once, then every ten minutes
  const before = await costs();
  // Personal tables of 300 other players, last played long ago (the fixtures' time): out of the
  // lobby, and not the reader's.
  const store = new SnapshotStore(cluster.db);
  for (let tableId = 5001; tableId <= 5300; tableId++) await store.load([sit(newTable(tableId), `owner-${tableId}`)]);
  t.deepEqual(await costs(), before);
  const { tables } = await table.listTables({ cachedEtag: "" });
  t.deepEqual(
    tables.map((line) => line.tableId),
    [4, 5, 6, 7, 8, 9],
    "the tables this file played",
  );
  t.deepEqual(
    (await table.listSeats({ caller })).seats.map((seat) => seat.tableId),
    [9],
  );
});
