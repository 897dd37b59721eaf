// Table latency after 100,000 stored changes against a fresh table, on the real backends (embedded
// FerretDB, odds, wallet and one table process, started as the table service's tests start them),
// through one gRPC client (TableService), sequential calls.
//
//   node --import=tsx/esm bench/table.ts [--versions=100000] [--tables=10000] [--active=1000] [--samples=100] [--batch=1000]
//
// Needs `npx tsc -b` and `npm run build:db`. Three public tables get the same set-up: four players
// sit with a buy-in and an ADMIN advances the table to STATUS_HOLE. The first is a warm-up round
// (so that the baseline does not pay for the processes' warm-up), the second the fresh-table
// baseline. The third gets `versions` more stored versions, written straight to the database with
// SnapshotStore.load while the table service runs: copies of its real latest snapshot, with the
// version set and updatedAt increasing (the service finds the new latest by probing forward from
// the version it knows). Then the same operations on it, each against the fresh table:
//   Bet      a 1-cent bet from each seated player in turn (gRPC TableService.Bet), answered ACK;
//   GetState as an ADMIN;
//   Advance  as an ADMIN, from STATUS_HOLE on: both tables walk the same stages, games settle the bets.
// Then a new watcher's replay on that table: a WatchTable for its last 64 versions, on a new feed
// (which holds only the latest), against the 63 before it read one after another, as the replay
// read them before its reads overlapped. Then the lobby (ListTables) and a seated player's
// ListSeats, before and after `tables` more tables are written (personal tables, empty and last
// played long ago, as their owners leave them): the baseline is the same calls with the bench's own
// tables only.
// Then `active` more tables made active now (heads stored and noted in the activity index, as
// their players' operations note them), and three figures against the same before them: a lobby
// pass (on the replica whose every call makes its own pass); a crowd of LOBBY_CROWD clients polling
// the lobby for CROWD_MS on a second replica with the default TABLE_LOBBY_MAX_AGE_MS, as the passes a
// second it cost; and that replica's database commands a second while nobody calls it, which are
// its recovery passes' (every 300 ms here), that read the tables owing a credit and no other.
// The money check of both services (conservation, a clean wallet audit) ends the run.
import { createClient, openServerStream } from "@pokerodds/common";
import {
  GameState,
  TableServiceClient,
  WatchTableRequest,
  type Caller,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { MAX_BETS_PER_SEAT_PER_GAME, WATCH_REPLAY_MAX } from "@pokerodds/common/limits";
import { freePort } from "@pokerodds/launcher/ports";
import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "mongodb";
import { ActivityIndex } from "../services/table/src/activity-index.js";
import { emptyTable, type TableSnapshot } from "../services/table/src/domain/index.js";
import { SnapshotStore } from "../services/table/src/snapshot-store.js";
import {
  admin,
  moneyCheck,
  newPlayer,
  startTableCluster,
  type Table,
  type TableCluster,
  type TableReplica,
} from "../services/table/test/helpers/table-cluster.js";
import { tlsAs } from "../test/helpers/pki.js";
import { latencyLines, runAlone, timed, WARM_UP } from "./latency.js";
import type { BenchLine } from "./report.js";

interface TableBenchOptions {
  /** Versions loaded onto the filled table (default 100,000). */
  versions?: number;
  /** Tables written before the lobby and a player's seats are read again (default 10,000). */
  tables?: number;
  /** Tables made active before the lobby and recovery are measured again (default 1,000). */
  active?: number;
  /** Timed calls per figure (default 100). */
  samples?: number;
  /** Versions per SnapshotStore.load (default 1,000). */
  batch?: number;
}

const GOAL_FACTOR = 1.5;
/**
 * A new watcher's replay against the same reads one after another: with its reads overlapping, the
 * replay (sending included) takes no longer than the reads alone (the database's CPU bounds both).
 */
const REPLAY_GOAL_FACTOR = 1;
const [WARM_UP_TABLE, FRESH_TABLE, FILLED_TABLE] = [1, 2, 3];
const BUY_IN_CENTS = 50_000;
const OPERATIONS = ["Bet (gRPC TableService.Bet, 1 cent)", "GetState", "Advance"] as const;
const LISTINGS = ["ListTables (the lobby)", "ListSeats (a player's seats)"] as const;
/** Far above the personal tables the wallet hands out in a bench. */
const FIRST_LOADED_TABLE = 1_000_001;
const FIRST_ACTIVE_TABLE = 2_000_001;
/** Clients polling the lobby at once, one call after another each, for CROWD_MS. */
const LOBBY_CROWD = 8;
const CROWD_MS = 10_000;
/** How long a replica's idle database commands are counted. */
const IDLE_MS = 10_000;
/** The sharing replica's TABLE_LOBBY_MAX_AGE_MS (the default). */
const SHARED_MAX_AGE_MS = 1_000;
/** Longer than a pass over the active tables on a slow day (about 0.7 s at 4,000 on a usual one). */
const SETTLE_MS = 3_000;
/** A crowd's lobby costs at most a pass a second (TABLE_LOBBY_MAX_AGE_MS, 1 s): the goal, with slack for timing. */
const CROWD_PASSES_GOAL = 1.2;
/** Recovery's idle cost does not grow with the active tables that owe nothing. */
const IDLE_GOAL_FACTOR = 1.5;

interface Seated {
  tableId: number;
  player: Caller;
  seatId: number;
}

/** Four players seated at `tableId`, the table advanced to STATUS_HOLE; answers their seats. */
async function seatedAtHole(cluster: TableCluster, tableId: number): Promise<Seated[]> {
  const table = cluster.table();
  const seats: Seated[] = [];
  for (const name of ["ann", "ben", "cat", "dan"]) {
    const player = await newPlayer(cluster, `${name}-${tableId}`);
    const sit = await table.sit({ caller: player, tableId, buyInCents: BUY_IN_CENTS, idempotencyKey: "sit" });
    if (!sit.acknowledged) throw new Error(`table bench: sit at ${tableId} refused: ${sit.message}`);
    seats.push({ tableId, player, seatId: sit.seatId });
  }
  for (let step = 0; ; step++) {
    const { state } = await table.advance({ caller: admin(), tableId });
    if (state?.gameState === GameState.GAME_STATE_STATUS_HOLE) return seats;
    if (step === 5) throw new Error(`table bench: table ${tableId} did not reach STATUS_HOLE`);
  }
}

/**
 * The three operations on a table at STATUS_HOLE, `samples` times each (bets first, while it is HOLE,
 * from each seat in turn: a seat's bets in one game are bounded).
 */
async function operations(cluster: TableCluster, seats: readonly Seated[], samples: number) {
  if (samples > seats.length * MAX_BETS_PER_SEAT_PER_GAME) {
    throw new Error(`table bench: at most ${seats.length * MAX_BETS_PER_SEAT_PER_GAME} samples (bets in one game)`);
  }
  const table = cluster.table();
  const { tableId } = seats[0]!;
  return [
    await timed(samples, async (i) => {
      const { player, seatId } = seats[i % seats.length]!;
      const answer = await table.bet({
        caller: player,
        tableId,
        seatIndex: seatId,
        handIndex: i % 4,
        betAmountCents: 1,
        idempotencyKey: `bench-${i}`,
      });
      if (!answer.acknowledged) throw new Error(`table bench: bet ${i} at ${tableId} refused: ${answer.message}`);
    }),
    await timed(samples, () => table.getState({ caller: admin(), tableId })),
    await timed(samples, () => table.advance({ caller: admin(), tableId })),
  ];
}

/** Stores versions latest + 1 .. latest + `versions` of the table, copies of its latest snapshot, `batch` at a time. */
async function loadVersions(db: Db, tableId: number, versions: number, batch: number): Promise<void> {
  const store = new SnapshotStore(db);
  const { snapshot, stored } = await store.latest(tableId);
  if (!stored) throw new Error(`table bench: table ${tableId} has no stored snapshot to copy`);
  for (let done = 0; done < versions; done += batch) {
    const copies: TableSnapshot[] = [];
    for (let k = done + 1; k <= Math.min(versions, done + batch); k++) {
      copies.push({ ...snapshot, version: snapshot.version + k, updatedAt: snapshot.updatedAt + k });
    }
    await store.load(copies);
  }
}

/** The lobby and `player`'s seats, `samples` times each. */
async function listings(cluster: TableCluster, player: Caller, samples: number) {
  const table = cluster.table();
  return [
    await timed(samples, () => table.listTables({ cachedEtag: "" })),
    await timed(samples, () => table.listSeats({ caller: player })),
  ];
}

/** Writes `tables` empty tables, last played a day before the bench, `batch` at a time. */
async function loadTables(db: Db, tables: number, batch: number): Promise<void> {
  const store = new SnapshotStore(db);
  const longAgo = Date.now() - 86_400_000;
  for (let done = 0; done < tables; done += batch) {
    const empty: TableSnapshot[] = [];
    for (let k = done; k < Math.min(tables, done + batch); k++) {
      // Version 1, the empty table, is never stored: a table's first stored version is 2.
      empty.push({ ...emptyTable(FIRST_LOADED_TABLE + k, longAgo), version: 2 });
    }
    await store.load(empty);
  }
}

/** Writes `count` empty tables played now and notes them active, as their players' operations would. */
export async function activateTables(db: Db, count: number, batch: number): Promise<void> {
  const store = new SnapshotStore(db);
  const index = new ActivityIndex(db, "active");
  const now = Date.now();
  for (let done = 0; done < count; done += batch) {
    const heads: TableSnapshot[] = [];
    for (let k = done; k < Math.min(count, done + batch); k++) {
      heads.push({ ...emptyTable(FIRST_ACTIVE_TABLE + k, now), version: 2 });
    }
    await store.load(heads);
    await Promise.all(heads.map(({ tableId }) => index.note(tableId, now)));
  }
}

/** The database commands a table process has sent so far, from its metrics (the driver's pings left out). */
async function commandsSent(metricsPort: number): Promise<number> {
  const body = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  let sent = 0;
  for (const [, command, value] of body.matchAll(/^mongodb_commands_total\{command="(\w+)"\} (\d+)$/gm)) {
    if (command !== "ping") sent += Number(value);
  }
  return sent;
}

/** The commands a second the process behind `metricsPort` sends while `during` runs. */
async function commandsPerSecond(metricsPort: number, during: () => Promise<unknown>): Promise<number> {
  const before = await commandsSent(metricsPort);
  const started = performance.now();
  await during();
  const seconds = (performance.now() - started) / 1000;
  return ((await commandsSent(metricsPort)) - before) / seconds;
}

/** LOBBY_CROWD clients calling the lobby, one call after another each, for CROWD_MS: the calls' times, sorted. */
async function lobbyCrowd(table: Table): Promise<number[]> {
  const times: number[] = [];
  const end = performance.now() + CROWD_MS;
  const client = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      await table.listTables({ cachedEtag: "" });
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: LOBBY_CROWD }, client));
  return times.sort((a, b) => a - b);
}

interface ActiveFigures {
  /** A lobby call's times on the replica whose every call makes its own pass. */
  pass: number[];
  /** The commands of one pass (not its first over these tables), on the replica that shares passes. */
  passCommands: number;
  crowd: { times: number[]; commandsPerSecond: number };
  idleCommandsPerSecond: number;
}

/** The lobby and recovery's figures: `passing` makes a pass per call, `sharing` shares them and counts its commands. */
async function activeFigures(
  passing: Table,
  sharing: TableReplica & { metricsPort: number },
  samples: number,
): Promise<ActiveFigures> {
  const pass = await timed(samples, () => passing.listTables({ cachedEtag: "" }));
  // Its second pass over the tables: the first reads their heads from scratch, later ones probe past them.
  // Each call comes when the last pass is too old to answer while a new one runs (older than the
  // maximum age and two passes' time), so it waits for its own.
  let passCommands = 0;
  for (let i = 0; i < 2; i++) {
    await sleep(SHARED_MAX_AGE_MS + 2 * SETTLE_MS);
    const before = await commandsSent(sharing.metricsPort);
    await sharing.client.listTables({ cachedEtag: "" });
    passCommands = (await commandsSent(sharing.metricsPort)) - before;
  }
  let crowdTimes: number[] = [];
  const crowdRate = await commandsPerSecond(
    sharing.metricsPort,
    async () => (crowdTimes = await lobbyCrowd(sharing.client)),
  );
  await sleep(SETTLE_MS); // the pass a last call of the crowd began, which it did not wait for
  const idle = await commandsPerSecond(sharing.metricsPort, () => sleep(IDLE_MS));
  return {
    pass,
    passCommands,
    crowd: { times: crowdTimes, commandsPerSecond: crowdRate },
    idleCommandsPerSecond: idle,
  };
}

/**
 * A table's first watcher on a replica (the gateway's first WatchTable for it): the time until the
 * last WATCH_REPLAY_MAX versions have arrived, `samples` times. Each call is cancelled and its feed
 * given time to close, so that the next one starts a new feed (which holds only the current version).
 */
async function replays(cluster: TableCluster, tableId: number, samples: number): Promise<number[]> {
  const client = createClient(TableServiceClient, [], `127.0.0.1:${cluster.replicas[0]!.port}`, {
    defaultDeadlineMs: 30_000,
    tls: tlsAs("gateway"),
  });
  const request = WatchTableRequest.fromPartial({ caller: admin(), tableId, recentVersions: WATCH_REPLAY_MAX });
  const times: number[] = [];
  try {
    for (let i = 0; i < WARM_UP + samples; i++) {
      const stop = new AbortController();
      const started = performance.now();
      const stream = openServerStream(
        TableServiceClient.service.watchTable.path,
        (metadata) => client.raw.watchTable(request, metadata),
        { signal: stop.signal },
      );
      let received = 0;
      for await (const _event of stream) if (++received === WATCH_REPLAY_MAX) break;
      if (i >= WARM_UP) times.push(performance.now() - started);
      stop.abort();
      await sleep(50);
    }
  } finally {
    client.raw.close();
  }
  return times.sort((a, b) => a - b);
}

/** The same versions read one after another, one `_id` round trip each (what a replay cost before its reads overlapped). */
async function versionsInARow(db: Db, tableId: number, samples: number): Promise<number[]> {
  const store = new SnapshotStore(db);
  const { snapshot } = await store.latest(tableId);
  const first = snapshot.version + 1 - WATCH_REPLAY_MAX;
  return timed(samples, async () => {
    for (let version = first; version < snapshot.version; version++) await store.version(tableId, version);
  });
}

export async function benchTable(options: TableBenchOptions = {}): Promise<BenchLine[]> {
  const { versions = 100_000, tables = 10_000, active = 1_000, samples = 100, batch = 1_000 } = options;
  // Every lobby call makes its own pass (not one shared a second): the cost measured is a pass's.
  const cluster = await startTableCluster({ env: { TABLE_LOBBY_MAX_AGE_MS: "0" } });
  try {
    const [warmUp, fresh, filled] = [
      await seatedAtHole(cluster, WARM_UP_TABLE),
      await seatedAtHole(cluster, FRESH_TABLE),
      await seatedAtHole(cluster, FILLED_TABLE),
    ];
    await operations(cluster, warmUp, samples);
    const baseline = await operations(cluster, fresh, samples);

    const started = performance.now();
    await loadVersions(cluster.db, FILLED_TABLE, versions, batch);
    const seconds = (performance.now() - started) / 1000;
    const measured = await operations(cluster, filled, samples);
    const inARow = await versionsInARow(cluster.db, FILLED_TABLE, samples);
    const replayed = await replays(cluster, FILLED_TABLE, samples);

    const reader = warmUp[0]!.player;
    await listings(cluster, reader, samples);
    const listedBefore = await listings(cluster, reader, samples);
    const tablesStarted = performance.now();
    await loadTables(cluster.db, tables, batch);
    const tablesSeconds = (performance.now() - tablesStarted) / 1000;
    const listedAfter = await listings(cluster, reader, samples);

    const lines: BenchLine[] = [
      {
        name: `Load of ${versions} versions of one table, SnapshotStore.load in batches of ${batch}: ${(versions / seconds).toFixed(0)} versions/s`,
        value: seconds,
        unit: "s",
      },
    ];
    OPERATIONS.forEach((operation, i) => {
      lines.push(
        ...latencyLines(`${operation}, fresh table (baseline)`, baseline[i]!),
        ...latencyLines(`${operation}, table after ${versions} stored versions`, measured[i]!, {
          to: "fresh",
          times: baseline[i]!,
          factor: GOAL_FACTOR,
        }),
      );
    });
    lines.push(
      ...latencyLines(
        `The ${WATCH_REPLAY_MAX - 1} versions before the table's latest, read one after another (SnapshotStore.version, baseline)`,
        inARow,
      ),
      ...latencyLines(`WatchTable, a new feed: the last ${WATCH_REPLAY_MAX} versions received`, replayed, {
        to: "read one after another",
        times: inARow,
        factor: REPLAY_GOAL_FACTOR,
      }),
    );
    lines.push({
      name: `Load of ${tables} empty tables, SnapshotStore.load in batches of ${batch}: ${(tables / tablesSeconds).toFixed(0)} tables/s`,
      value: tablesSeconds,
      unit: "s",
    });
    LISTINGS.forEach((listing, i) => {
      lines.push(
        ...latencyLines(`${listing}, the bench's tables only (baseline)`, listedBefore[i]!),
        ...latencyLines(`${listing}, after ${tables} more tables were written`, listedAfter[i]!, {
          to: "the bench's tables only",
          times: listedBefore[i]!,
          factor: GOAL_FACTOR,
        }),
      );
    });
    lines.push(...(await benchActiveTables(cluster, { active, samples, batch })), await moneyLine(cluster));
    return lines;
  } finally {
    await cluster.stop();
  }
}

/** Both services' money check (table conservation, a clean wallet audit) as a line with its goal. */
async function moneyLine(cluster: TableCluster): Promise<BenchLine> {
  const money = await moneyCheck(cluster);
  return {
    name: `Money check after the run (table conservation, wallet audit)${money.conserved ? "" : `: ${JSON.stringify(money.detail)}`}`,
    value: money.conserved ? 1 : 0,
    unit: "conserved",
    goal: "conserved",
    met: money.conserved,
  };
}

/**
 * The lobby's and recovery's figures before and after `active` more tables are made active, on a
 * second replica that shares lobby passes and counts its database commands.
 */
async function benchActiveTables(
  cluster: TableCluster,
  { active, samples, batch }: { active: number; samples: number; batch: number },
): Promise<BenchLine[]> {
  const metricsPort = await freePort();
  const replica = await cluster.startTable({
    METRICS_PORT: String(metricsPort),
    TABLE_LOBBY_MAX_AGE_MS: String(SHARED_MAX_AGE_MS),
  });
  const sharing = { ...replica, metricsPort };
  await sharing.client.listTables({ cachedEtag: "" }); // its first pass, and its start-up reads, before the counts
  const before = await activeFigures(cluster.table(), sharing, samples);
  const started = performance.now();
  await activateTables(cluster.db, active, batch);
  const seconds = (performance.now() - started) / 1000;
  const after = await activeFigures(cluster.table(), sharing, samples);
  return [
    {
      name: `Load of ${active} tables active now (heads and activity notes), in batches of ${batch}: ${(active / seconds).toFixed(0)} tables/s`,
      value: seconds,
      unit: "s",
    },
    ...activeLines(active, before, after),
  ];
}

/** The lobby's and recovery's figures with `active` more tables active, each against the same before them. */
function activeLines(active: number, before: ActiveFigures, after: ActiveFigures): BenchLine[] {
  const baseline = "the bench's tables only";
  const crowd = `${LOBBY_CROWD} clients polling ListTables for ${CROWD_MS / 1000} s on a replica sharing passes a second old`;
  const passesPerSecond = (after.crowd.commandsPerSecond - after.idleCommandsPerSecond) / after.passCommands;
  const idleRatio = after.idleCommandsPerSecond / before.idleCommandsPerSecond;
  return [
    ...latencyLines(`ListTables, a pass per call, ${baseline} (baseline)`, before.pass),
    ...latencyLines(`ListTables, a pass per call, ${active} more tables active`, after.pass, {
      to: baseline,
      times: before.pass,
    }),
    {
      name: `ListTables, one pass's database commands, ${active} more tables active`,
      value: after.passCommands,
      unit: "commands",
    },
    ...latencyLines(`${crowd}, ${baseline} (baseline)`, before.crowd.times),
    ...latencyLines(`${crowd}, ${active} more tables active`, after.crowd.times, {
      to: baseline,
      times: before.crowd.times,
    }),
    {
      name: `${crowd}, ${active} more tables active: passes a second (its commands beyond idle / one pass's)`,
      value: passesPerSecond,
      unit: "passes/s",
      goal: `<= ${CROWD_PASSES_GOAL}`,
      met: passesPerSecond <= CROWD_PASSES_GOAL,
    },
    {
      name: `An idle replica's database commands (recovery every 300 ms), ${baseline} (baseline)`,
      value: before.idleCommandsPerSecond,
      unit: "/s",
    },
    {
      name: `An idle replica's database commands (recovery every 300 ms), ${active} more tables active, none owing`,
      value: after.idleCommandsPerSecond,
      unit: "/s",
      ratio: { to: baseline, value: idleRatio },
      goal: `<= ${IDLE_GOAL_FACTOR}x ${baseline}`,
      met: idleRatio <= IDLE_GOAL_FACTOR,
    },
  ];
}

await runAlone(import.meta.url, benchTable);
