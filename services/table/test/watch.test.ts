// WatchTable with two table processes on one database, as two replicas run: a change stored through
// one reaches a watcher on the other; every version goes out once and in order, as GetState shows
// it; after_version is honoured; callers that may not read the table, and services other than the
// gateway, are refused; a replica that dies or stops ends its streams, and watching again on the
// other replica from the last version received misses nothing and repeats nothing.
import { status, type ServiceError } from "@grpc/grpc-js";
import { createClient, openServerStream, type ServiceIdentity } from "@pokerodds/common";
import {
  TableServiceClient,
  WatchTableRequest,
  type Caller,
  type TableState,
  type WatchTableResponse,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { Role } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import anyTest, { type TestFn } from "ava";
import { setTimeout as sleep } from "node:timers/promises";
import { tlsAs } from "../../../test/helpers/pki.js";
import { admin, newPlayer, startTableCluster, type TableCluster, type TableReplica } from "./helpers/table-cluster.js";

const test = anyTest as TestFn<TableCluster>;

test.before(async (t) => {
  t.context = await startTableCluster({ tables: 2, env: { TABLE_WATCH_POLL_MS: "50" } });
});
test.after.always(async (t) => {
  await t.context.stop?.();
  for (const client of clients.values()) client.raw.close();
});

const clients = new Map<string, ReturnType<typeof createClient<TableServiceClient>>>();

/** A WatchTable client of one replica, calling as `identity` (the gateway unless a test says otherwise). */
function watchClient(replica: TableReplica, identity: ServiceIdentity = "gateway") {
  const key = `${replica.port}:${identity}`;
  let client = clients.get(key);
  if (!client) {
    client = createClient(TableServiceClient, [], `127.0.0.1:${replica.port}`, {
      defaultDeadlineMs: 30_000,
      tls: tlsAs(identity),
    });
    clients.set(key, client);
  }
  return client.raw;
}

/** A watch that records its events until it ends (its error, or "end") or is stopped. */
function watch(replica: TableReplica, request: Partial<WatchTableRequest>, identity?: ServiceIdentity) {
  const stop = new AbortController();
  const raw = watchClient(replica, identity);
  const stream = openServerStream(
    TableServiceClient.service.watchTable.path,
    (metadata) => raw.watchTable(WatchTableRequest.fromPartial(request), metadata),
    {
      signal: stop.signal,
    },
  );
  const events: WatchTableResponse[] = [];
  const ended = (async (): Promise<unknown> => {
    try {
      for await (const event of stream) events.push(event);
      return "end";
    } catch (error) {
      return error;
    }
  })();
  return { stream, events, ended, stop: () => stop.abort(), versions: () => events.map((e) => e.version) };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

const contiguous = (versions: number[]) => versions.every((v, i) => i === 0 || v === versions[i - 1]! + 1);

async function stateOf(replica: TableReplica, tableId: number): Promise<TableState> {
  return (await replica.client.getState({ caller: admin(), tableId })).state!;
}

/**
 * Sits the players and plays a game to its river through `replica`, a bet at each betting stage;
 * answers the states the advances returned and the number of bets placed.
 */
async function playThrough(
  replica: TableReplica,
  tableId: number,
  players: Caller[],
): Promise<{ advanced: TableState[]; bets: number }> {
  const key = `${tableId}-${Date.now()}`;
  for (const [i, caller] of players.entries()) {
    await replica.client.sit({ caller, tableId, buyInCents: 10_000, idempotencyKey: `${key}-sit-${i}` });
  }
  const advanced: TableState[] = [];
  let bets = 0;
  for (let stage = 0; stage < 4; stage++) {
    const state = (await replica.client.advance({ caller: players[0]!, tableId })).state!;
    advanced.push(state);
    const live = state.handOdds.filter((p) => p.bettingStage === state.bettingStage && p.oddsTenths > 0);
    if (stage === 3 || live.length === 0) continue;
    const seat = state.seats.find((s) => s.playerId === players[0]!.playerId)!;
    await replica.client.bet({
      caller: players[0]!,
      tableId,
      seatIndex: seat.seatId,
      handIndex: live[0]!.handIndex,
      betAmountCents: 100,
      idempotencyKey: `${key}-bet-${stage}`,
    });
    bets++;
  }
  return { advanced, bets };
}

test("a change stored through one replica reaches a watcher on the other: every version, once, in order", async (t) => {
  const cluster = t.context;
  const [a, b] = cluster.replicas as [TableReplica, TableReplica];
  const tableId = 3;
  const players = [await newPlayer(cluster, "w-a1"), await newPlayer(cluster, "w-a2")];
  const watcher = watch(b, { caller: players[1], tableId });
  await t.notThrowsAsync(watcher.stream.accepted);
  await until("the current state", () => watcher.events.length === 1);
  t.is(watcher.versions()[0], 1, "a table never written is at version 1");

  const { advanced, bets } = await playThrough(a, tableId, players);
  const final = await stateOf(a, tableId);
  await until("the watcher catches up", () => {
    const last = watcher.events.at(-1)?.state;
    return last !== undefined && JSON.stringify(last) === JSON.stringify(final);
  });
  const versions = watcher.versions();
  t.true(contiguous(versions), versions.join(","));
  // The empty table, then one version per sit, advance and bet, and one per reveal that closed its
  // stage's betting first (the flop's, the turn's and the river's).
  const reveals = advanced.filter((state) => state.board.length > 0).length;
  t.deepEqual(
    versions,
    Array.from({ length: 1 + players.length + advanced.length + reveals + bets }, (_, i) => i + 1),
  );
  for (const state of advanced) {
    const seen = watcher.events.some((e) => JSON.stringify(e.state) === JSON.stringify(state));
    t.true(seen, `the state after the advance to ${state.gameState}`);
  }
  watcher.stop();
  t.is(((await watcher.ended) as ServiceError).code, status.CANCELLED);
});

test("after_version: the versions after it; up to date, nothing until the next change", async (t) => {
  const cluster = t.context;
  const [a, b] = cluster.replicas as [TableReplica, TableReplica];
  const tableId = 4;
  const players = [await newPlayer(cluster, "w-b1"), await newPlayer(cluster, "w-b2")];
  await playThrough(a, tableId, players);
  const head = watch(b, { caller: players[0], tableId });
  await until("the current state", () => head.events.length === 1);
  const current = head.versions()[0]!;
  head.stop();

  const behind = watch(b, { caller: players[0], tableId, afterVersion: current - 3 });
  await until("the three versions after it", () => behind.events.length === 3);
  t.deepEqual(behind.versions(), [current - 2, current - 1, current]);

  const upToDate = watch(a, { caller: players[0], tableId, afterVersion: current });
  await t.notThrowsAsync(upToDate.stream.accepted, "accepted before any event");
  await sleep(300);
  t.deepEqual(upToDate.versions(), []);
  await b.client.advance({ caller: players[0]!, tableId });
  await until("the next version on both", () => upToDate.events.length === 1 && behind.events.length === 4);
  t.deepEqual(upToDate.versions(), [current + 1]);
  t.deepEqual(behind.versions(), [current - 2, current - 1, current, current + 1]);
  behind.stop();
  upToDate.stop();
});

test("refused: another player's personal table, an unknown table, a bad after_version, a service other than the gateway", async (t) => {
  const cluster = t.context;
  const [a] = cluster.replicas as [TableReplica];
  const owner = await newPlayer(cluster, "w-owner", Role.ROLE_PAYING_USER);
  const profile = await cluster.wallet.getProfile({
    claims: { playerId: owner.playerId, username: "w-owner", displayName: "Owner", role: Role.ROLE_PAYING_USER },
  });
  const personal = profile.profile!.personalTableId!;
  const stranger = await newPlayer(cluster, "w-stranger");
  const refusal = async (request: Partial<WatchTableRequest>, identity?: ServiceIdentity) => {
    const watcher = watch(a, request, identity);
    const error = await t.throwsAsync<ServiceError>(watcher.stream.accepted);
    t.deepEqual(watcher.events, []);
    return error?.code;
  };
  t.is(await refusal({ caller: stranger, tableId: personal }), status.PERMISSION_DENIED);
  t.is(await refusal({ caller: stranger, tableId: 999 }), status.NOT_FOUND);
  t.is(await refusal({ caller: stranger, tableId: 1, afterVersion: -1 }), status.INVALID_ARGUMENT);
  t.is(await refusal({ caller: stranger, tableId: 1 }, "wallet"), status.PERMISSION_DENIED);
  t.is(await refusal({ caller: stranger, tableId: 1 }, "table"), status.PERMISSION_DENIED);

  const own = watch(a, { caller: owner, tableId: personal });
  await t.notThrowsAsync(own.stream.accepted);
  const byAdmin = watch(a, { caller: admin(), tableId: personal });
  await until("both see it", () => own.events.length === 1 && byAdmin.events.length === 1);
  own.stop();
  byAdmin.stop();
});

test("a replica killed mid-stream: watching again on the other from the last version misses nothing", async (t) => {
  const cluster = t.context;
  const [a] = cluster.replicas as [TableReplica];
  const doomed = await cluster.startTable();
  const tableId = 5;
  const players = [await newPlayer(cluster, "w-c1"), await newPlayer(cluster, "w-c2")];
  const first = watch(doomed, { caller: players[0], tableId });
  await until("the current state", () => first.events.length === 1);
  await a.client.sit({ caller: players[0]!, tableId, buyInCents: 10_000, idempotencyKey: "w-c-sit-0" });
  await until("the sit", () => first.events.length === 2);

  await cluster.killTable(doomed);
  const ended = (await first.ended) as ServiceError;
  t.is(ended.code, status.UNAVAILABLE);
  // Changes while nobody watches, then the watch again on the survivor, from the last version seen.
  await playThrough(a, tableId, players);
  const last = first.versions().at(-1)!;
  const second = watch(a, { caller: players[0], tableId, afterVersion: last });
  const final = await stateOf(a, tableId);
  await until("caught up", () => JSON.stringify(second.events.at(-1)?.state) === JSON.stringify(final));
  const versions = [...first.versions(), ...second.versions()];
  t.true(contiguous(versions), versions.join(","));
  t.is(second.versions()[0], last + 1);
  second.stop();
});

test("a replica stopped with SIGTERM ends its streams at once, UNAVAILABLE, rather than after its grace period", async (t) => {
  const cluster = t.context;
  const stopping = await cluster.startTable();
  const player = await newPlayer(cluster, "w-d1");
  const watcher = watch(stopping, { caller: player, tableId: 6 });
  await until("the current state", () => watcher.events.length === 1);
  const started = Date.now();
  stopping.child.kill("SIGTERM");
  const ended = (await watcher.ended) as ServiceError;
  t.is(ended.code, status.UNAVAILABLE);
  t.true(Date.now() - started < 4_000, `ended after ${Date.now() - started} ms (the grace period is 5 s)`);
  await stopping.child.exited;
  cluster.replicas.splice(cluster.replicas.indexOf(stopping), 1);
});
