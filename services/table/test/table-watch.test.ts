// The watch feeds of one replica against a store in memory: this replica's own writes go out at once
// and without a read, other replicas' are found by one poll per table however many watch it, every
// version goes out once and in order (a gap is read from the log first), after_version is honoured,
// and a watcher too far behind skips to the current state.
import { createLogger } from "@pokerodds/common";
import test from "ava";
import { setTimeout as sleep } from "node:timers/promises";
import { emptyTable, type TableSnapshot } from "../src/domain/index.js";
import type { SnapshotStore } from "../src/snapshot-store.js";
import { WATCH_REPLAY_MAX as MAX_REPLAY } from "@pokerodds/common/limits";
import { firstVersion, REPLAY_READS_AT_ONCE, TableWatchers } from "../src/table-watch.js";

const logger = createLogger("table-watch-test");
logger.level = "silent";
const TABLE = 7;

/** One table's log in memory; `write` stores a version as another replica (no notice) or this one. */
class MemoryStore {
  readonly versions = new Map<number, TableSnapshot>();
  reads = 0;
  private readonly listeners = new Set<(snapshot: TableSnapshot) => void>();

  async latest(tableId: number) {
    const head = Math.max(0, ...this.versions.keys());
    const snapshot = this.versions.get(head);
    return snapshot ? { snapshot, stored: true } : { snapshot: emptyTable(tableId, Date.now()), stored: false };
  }

  /** While true, reading a version fails, as with the database away. */
  failing = false;
  /** How long a read of a version takes, and the most reads that were in flight at once. */
  readMs = 0;
  mostInFlight = 0;
  private inFlight = 0;

  async version(_tableId: number, version: number) {
    this.reads++;
    this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
    try {
      if (this.readMs > 0) await sleep(this.readMs);
      if (this.failing) throw new Error("the database is away");
      return this.versions.get(version) ?? null;
    } finally {
      this.inFlight--;
    }
  }

  onStored(listener: (snapshot: TableSnapshot) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stores versions head+1..head+count; `mine`: as this replica (its watchers hear of it at once). */
  write(count: number, mine: boolean) {
    for (let i = 0; i < count; i++) {
      const version = Math.max(1, ...this.versions.keys()) + 1;
      const snapshot = { ...emptyTable(TABLE, Date.now()), version };
      this.versions.set(version, snapshot);
      if (mine) for (const listener of this.listeners) listener(snapshot);
    }
  }
}

function setUp(pollIntervalMs: number) {
  const store = new MemoryStore();
  const watchers = new TableWatchers(store as unknown as SnapshotStore, { pollIntervalMs, logger });
  return { store, watchers };
}

/** A watcher that records what it gets; `stop` ends it (its follow rejects with the reason). */
function watcher(watchers: TableWatchers, afterVersion: number, recentVersions = 0) {
  const seen: number[] = [];
  /** The latest version the feed knew as it sent each one. */
  const latest: number[] = [];
  const stop = new AbortController();
  let isReady = false;
  const done = watchers
    .follow(
      TABLE,
      { afterVersion, recentVersions },
      {
        ready: () => (isReady = true),
        send: async (version, snapshot, latestVersion) => {
          if (snapshot.version !== version) throw new Error(`version ${version} carried ${snapshot.version}`);
          seen.push(version);
          latest.push(latestVersion);
        },
        signal: stop.signal,
      },
    )
    .catch((error: unknown) => error);
  return { seen, latest, stop: () => stop.abort(new Error("stopped")), done, ready: () => isReady };
}

async function until(what: string, check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(5);
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test("where a watch starts: current state, the versions after a cursor, or the current or recent ones when too far behind", (t) => {
  const after = (afterVersion: number, recentVersions = 0) => ({ afterVersion, recentVersions });
  t.is(firstVersion(after(0), 9), 9);
  t.is(firstVersion(after(5), 9), 6);
  t.is(firstVersion(after(9), 9), 10, "up to date: the next version");
  t.is(firstVersion(after(12), 9), 9, "a cursor this table never gave: start afresh");
  t.is(firstVersion(after(100), 100 + MAX_REPLAY), 101);
  t.is(firstVersion(after(100), 101 + MAX_REPLAY), 101 + MAX_REPLAY);
  t.is(firstVersion(after(0, 1), 9), 9, "the last one: the current state");
  t.is(firstVersion(after(0, 4), 9), 6, "the last four versions");
  t.is(firstVersion(after(0, 20), 9), 1, "from the first");
  t.is(firstVersion(after(0, 1_000), 200), 201 - MAX_REPLAY, "at most the versions a cursor may ask for");
  t.is(firstVersion(after(7, 4), 9), 8, "a cursor wins");
  t.is(firstVersion(after(100, 4), 101 + MAX_REPLAY), 98 + MAX_REPLAY, "too far behind: the last four versions");
  t.is(firstVersion(after(100, 4), 100 + MAX_REPLAY), 101, "within reach: a cursor wins");
  t.is(firstVersion(after(12, 4), 9), 9, "a cursor ahead: the current state alone");
});

test("this replica's writes go out at once, in order, without reading the log", async (t) => {
  const { store, watchers } = setUp(3_600_000);
  store.write(3, false);
  const w = watcher(watchers, 0);
  await until("the current state", () => w.seen.length === 1);
  t.true(w.ready());
  const readsBefore = store.reads;
  store.write(5, true);
  await until("five more", () => w.seen.length === 6);
  t.deepEqual(w.seen, range(4, 9));
  t.is(store.reads, readsBefore, "no read for this replica's own versions");
  w.stop();
  t.is(((await w.done) as Error).message, "stopped");
});

test("another replica's writes are polled, one read per poll however many watch the table", async (t) => {
  const { store, watchers } = setUp(40);
  const watching = [watcher(watchers, 0), watcher(watchers, 0), watcher(watchers, 0)];
  await until("the empty table", () => watching.every((w) => w.seen.length === 1));
  store.write(4, false);
  await until("four versions", () => watching.every((w) => w.seen.length === 5));
  for (const w of watching) t.deepEqual(w.seen, [1, 2, 3, 4, 5]);
  const readsBefore = store.reads;
  await sleep(400);
  // About 10 polls in 400 ms, one `_id` read each: not one per watcher.
  t.true(store.reads - readsBefore <= 14, `${store.reads - readsBefore} reads`);
  for (const w of watching) w.stop();
  await Promise.all(watching.map((w) => w.done));
  const readsAfter = store.reads;
  await sleep(200);
  t.is(store.reads, readsAfter, "no more polling once nobody watches");
});

test("an own write after others' versions: those are read first, then every one goes out in order", async (t) => {
  const { store, watchers } = setUp(3_600_000);
  store.write(2, false);
  const w = watcher(watchers, 0);
  await until("the current state", () => w.seen.length === 1);
  store.write(3, false); // another replica: 4, 5, 6
  store.write(1, true); // this one, on top of them: 7
  await until("4 to 7", () => w.seen.length === 5);
  t.deepEqual(w.seen, [3, 4, 5, 6, 7]);
  w.stop();
});

test("after_version: the versions after it, nothing until a new one when up to date, the present when far behind", async (t) => {
  const { store, watchers } = setUp(20);
  store.write(9, false); // versions 2..10
  const behind = watcher(watchers, 6);
  const upToDate = watcher(watchers, 10);
  const ahead = watcher(watchers, 50);
  await until("7 to 10", () => behind.seen.length === 4);
  await until("the current state", () => ahead.seen.length === 1);
  t.deepEqual(behind.seen, [7, 8, 9, 10]);
  t.deepEqual(ahead.seen, [10]);
  await sleep(100);
  t.deepEqual(upToDate.seen, [], "nothing at or below after_version");
  store.write(1, false);
  await until("11", () => upToDate.seen.length === 1 && behind.seen.length === 5);
  t.deepEqual(upToDate.seen, [11]);
  store.write(MAX_REPLAY + 5, false);
  const head = 11 + MAX_REPLAY + 5;
  await until("the others follow", () => behind.seen.at(-1) === head && upToDate.seen.at(-1) === head);
  t.deepEqual(behind.seen, range(7, head), "a watcher that keeps up gets every version");
  const farBehind = watcher(watchers, 2);
  await until("the current state", () => farBehind.seen.length === 1);
  t.deepEqual(farBehind.seen, [head]);
  for (const w of [behind, upToDate, ahead, farBehind]) w.stop();
});

test("recent_versions: the last versions, up to the cap, then each new one", async (t) => {
  const { store, watchers } = setUp(20);
  store.write(MAX_REPLAY + 9, false); // versions 2..MAX_REPLAY + 10
  const head = MAX_REPLAY + 10;
  const few = watcher(watchers, 0, 3);
  const many = watcher(watchers, 0, 1_000);
  await until("the recent versions", () => few.seen.length === 3 && many.seen.length === MAX_REPLAY);
  t.deepEqual(few.seen, [head - 2, head - 1, head]);
  t.deepEqual(many.seen, range(head + 1 - MAX_REPLAY, head), "as many as a cursor may ask for");
  t.true(
    many.latest.every((latest) => latest === head),
    "each carries the latest version: caught up when they meet",
  );
  store.write(1, true);
  await until("the new one", () => few.seen.at(-1) === head + 1 && many.seen.at(-1) === head + 1);
  t.is(many.latest.at(-1), head + 1);
  for (const w of [few, many]) w.stop();
});

test("a replay's versions are read a few at once, not one round trip after another, and go out in order", async (t) => {
  const { store, watchers } = setUp(60_000); // no poll of the log's next version meanwhile
  store.write(MAX_REPLAY + 9, false);
  const head = MAX_REPLAY + 10;
  store.readMs = 5;
  const w = watcher(watchers, 0, MAX_REPLAY);
  await until("the replay", () => w.seen.length === MAX_REPLAY);
  t.deepEqual(w.seen, range(head + 1 - MAX_REPLAY, head));
  t.is(store.mostInFlight, REPLAY_READS_AT_ONCE);
  w.stop();
});

test("recent_versions on a young table: every stored version (version 1, the empty table, never is)", async (t) => {
  const { store, watchers } = setUp(20);
  store.write(9, false); // versions 2..10
  const w = watcher(watchers, 0, MAX_REPLAY);
  await until("the stored versions", () => w.seen.at(-1) === 10);
  t.deepEqual(w.seen, range(2, 10));
  w.stop();
});

test("a table never written: its empty state (version 1), then its first stored versions", async (t) => {
  const { store, watchers } = setUp(20);
  const w = watcher(watchers, 0);
  await until("version 1", () => w.seen.length === 1);
  store.write(2, false);
  await until("2 and 3", () => w.seen.length === 3);
  t.deepEqual(w.seen, range(1, 3));
  w.stop();
});

test("a cursor ahead of a feed that cannot read the log is refused (UNAVAILABLE), never answered with an older state", async (t) => {
  const { store, watchers } = setUp(20);
  store.write(9, false); // versions 2..10
  const first = watcher(watchers, 0);
  await until("the current state", () => first.seen.length === 1);
  store.write(2, false); // 11 and 12, by another replica; this feed has not read them
  store.failing = true;
  const ahead = watcher(watchers, 12);
  t.like(await ahead.done, { name: "UnavailableError" });
  t.deepEqual(ahead.seen, [], "no state of version 10 for a client that saw 12");
  store.failing = false;
  const again = watcher(watchers, 12);
  await sleep(100);
  t.deepEqual(again.seen, [], "up to date: nothing until a new version");
  for (const w of [first, again]) w.stop();
});
