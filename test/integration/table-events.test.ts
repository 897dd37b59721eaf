// GET /api/tables/{tableId}/events through the whole stack with two table replicas (the gateway
// balances calls, and so the writes, over both): a subscriber sees every sit, bet and advance made
// through the API, in order, exactly once, as GET .../state shows it after each; also while one
// table replica, then the other, is killed mid-game (the gateway subscribes again from the last
// version it sent); and a client that reconnects with Last-Event-ID gets exactly what it missed.
import test from "ava";
import { readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { Api, show, type BetReply, type Player, type Reply, type TableState, type TopUpReply } from "../helpers/api.js";
import { until } from "../helpers/poll.js";
import { openSse, type SseStream } from "../helpers/sse.js";
import { stackPerFile } from "../helpers/stack.js";

// Other replicas' writes reach a watcher within a tenth of a second.
const file = stackPerFile(test, { replicas: { wallet: 2, table: 2 }, env: { TABLE_WATCH_POLL_MS: "100" } });
let api: Api;

test.before(async () => {
  const stack = await file.ready;
  api = new Api(stack.url, stack.dataDir);
  // While a table replica is down, a call that went to it answers 503; it is retried.
  api.allow5xx.add(503);
});

/** A player with an account (the first profile read opens it with the welcome credit). */
async function player(id: string): Promise<Player> {
  const created = await api.player(id);
  await created.balance();
  return created;
}

/** Sends until the answer is not a 503 (the same request, so the same idempotency key). */
async function answered<T>(request: () => Promise<Reply<T>>): Promise<Reply<T>> {
  for (const deadline = Date.now() + 60_000; ; await sleep(100)) {
    const reply = await request();
    if (reply.status !== 503) return reply;
    if (Date.now() > deadline) throw new Error(`still 503: ${show(reply)}`);
  }
}

/** The table's state, waiting out a replica that is down. */
async function stateOf(player: Player, tableId: number): Promise<TableState> {
  const reply = await answered(() => player.state(tableId));
  if (reply.status !== 200) throw new Error(show(reply));
  return reply.body;
}

/**
 * Advances once: a 503 may come after the move was made (advance carries no key), so the state
 * says whether to send it again.
 */
async function advanceOnce(player: Player, tableId: number): Promise<void> {
  const before = await stateOf(player, tableId);
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
    const reply = await player.advance(tableId);
    if (reply.status === 200) return;
    if (reply.status !== 503) throw new Error(show(reply));
    const now = await stateOf(player, tableId);
    if (now.gameState !== before.gameState || now.gameId !== before.gameId) return;
  }
  throw new Error(`table ${tableId} did not advance`);
}

async function sitOnce(player: Player, tableId: number): Promise<void> {
  const reply = await answered(() => player.sit(tableId, 50, `sit-${tableId}-${player.id}`));
  if (reply.status !== 200 || reply.body.acknowledgement !== "ACK") throw new Error(show(reply));
}

/**
 * One bet on the first hand that can win at the current stage. A board that ties every hand leaves
 * none with a win chance (odds 0 take no bets): then a top-up of 1.00 is the step's one change.
 */
async function betOnce(player: Player, tableId: number, key: string): Promise<void> {
  const state = await stateOf(player, tableId);
  const seat = state.seats.find((s) => s.playerId === player.id)!;
  const hand = state.handOdds.find((p) => p.bettingStage === state.bettingStage && p.odds > 0);
  const reply = await answered<BetReply | TopUpReply>(() =>
    hand
      ? player.bet(tableId, { seatIndex: seat.seatId, handIndex: hand.handIndex, betAmount: 1 }, key)
      : player.topup(tableId, 1, key),
  );
  if (reply.status !== 200 || reply.body.acknowledgement !== "ACK") throw new Error(show(reply));
}

/**
 * A game as two seated players play it, step by step; `between(i)` runs before step i. `record` runs
 * after each step, told whether it revealed cards: such an advance stores two versions, the stage's
 * betting closed (the state before, its bettingOpen false) and then the cards.
 */
async function playGame(
  tableId: number,
  [alice, bob]: [Player, Player],
  record: (revealed: boolean) => Promise<void>,
  between: (step: number) => Promise<void> = async () => {},
): Promise<void> {
  const steps: [() => Promise<void>, boolean][] = [
    [() => sitOnce(alice, tableId), false],
    [() => sitOnce(bob, tableId), false],
    ...[0, 1, 2].flatMap((stage): [() => Promise<void>, boolean][] => [
      [() => advanceOnce(alice, tableId), stage > 0],
      [() => betOnce(alice, tableId, `bet-${tableId}-${stage}-a`), false],
      [() => betOnce(bob, tableId, `bet-${tableId}-${stage}-b`), false],
    ]),
    [() => advanceOnce(bob, tableId), true], // the river: payouts
    [() => advanceOnce(alice, tableId), false], // the table cleared for the next game
  ];
  for (const [i, [step, reveals]] of steps.entries()) {
    await between(i);
    await step();
    await record(reveals);
  }
}

/** What a subscriber is to see after each step: the state, after that of a reveal's close. */
function recorder(expected: TableState[], read: () => Promise<TableState>) {
  return async (revealed: boolean) => {
    if (revealed) expected.push({ ...expected.at(-1)!, bettingOpen: false });
    expected.push(await read());
  };
}

/** The states the stream carried, by version; fails on a malformed event. */
function received(stream: SseStream): { version: number; state: TableState }[] {
  return stream.events.map((event) => {
    if (event.event !== "state" || !/^\d+$/.test(event.id ?? "")) throw new Error(`bad event ${JSON.stringify(event)}`);
    return { version: Number(event.id), state: JSON.parse(event.data) as TableState };
  });
}

/**
 * Every state recorded after an action is one event, in the order of the actions, with nothing
 * between them and no version twice; the stream's versions have no gap.
 */
function assertEveryChangeOnce(t: import("ava").ExecutionContext, stream: SseStream, expected: TableState[]) {
  const events = received(stream);
  const versions = events.map((e) => e.version);
  t.true(
    versions.every((v, i) => i === 0 || v === versions[i - 1]! + 1),
    `versions without gap or repeat: ${versions.join(",")}`,
  );
  // The first event is the state before the first action; then one per stored version.
  t.is(events.length, expected.length + 1, `${events.length} events for ${expected.length} actions`);
  for (const [i, state] of expected.entries()) t.deepEqual(events[i + 1]?.state, state, `after action ${i + 1}`);
}

async function subscribe(player: Player, tableId: number, headers: Record<string, string> = {}): Promise<SseStream> {
  const stream = await openSse(`${api.url}/api/tables/${tableId}/events`, player.token, headers);
  if (stream.status !== 200)
    throw new Error(`events of table ${tableId}: ${stream.status} ${JSON.stringify(stream.body)}`);
  return stream;
}

test.serial("a subscriber sees every sit, bet and advance made through the API, in order, exactly once", async (t) => {
  const tableId = 2;
  const players: [Player, Player] = [await player("ev-alice"), await player("ev-bob")];
  const watcher = await player("ev-carol");
  const stream = await subscribe(watcher, tableId);
  t.teardown(() => stream.close());
  await until("the current state", () => stream.events.length === 1);
  const expected: TableState[] = [];
  await playGame(
    tableId,
    players,
    recorder(expected, () => watcher.readState(tableId)),
  );
  await until("every change", () => stream.events.length >= expected.length + 1, 15_000);
  await sleep(300); // nothing more may come
  assertEveryChangeOnce(t, stream, expected);
  t.false(stream.endedByServer());
});

test.serial("… also while one table replica, then the other, is killed mid-game", async (t) => {
  const stack = file.stack;
  const tableId = 3;
  const players: [Player, Player] = [await player("ev-dora"), await player("ev-emil")];
  const watcher = await player("ev-fay");
  const stream = await subscribe(watcher, tableId);
  t.teardown(() => stream.close());
  await until("the current state", () => stream.events.length === 1);
  const expected: TableState[] = [];
  // Whichever replica the stream is on, one of the two kills breaks it.
  const crashes: Record<number, () => Promise<void>> = {
    4: () => stack.killService("table"),
    7: async () => {
      await stack.startService("table");
      await stack.killService("table-2");
    },
    10: () => stack.startService("table-2"),
  };
  await playGame(
    tableId,
    players,
    recorder(expected, () => stateOf(watcher, tableId)),
    async (step) => crashes[step]?.(),
  );
  await until("every change", () => stream.events.length >= expected.length + 1, 20_000);
  await sleep(300);
  assertEveryChangeOnce(t, stream, expected);
  t.false(stream.endedByServer(), "the client saw one stream throughout");
  const log = await readFile(stack.logFile, "utf8");
  t.regex(log, /table feed interrupted: subscribing again/, "the gateway did subscribe again");
});

test.serial("reconnecting with Last-Event-ID: exactly the versions missed, then the live ones", async (t) => {
  const tableId = 4;
  const [alice, bob] = [await player("ev-gus"), await player("ev-hal")];
  const first = await subscribe(alice, tableId);
  await until("the current state", () => first.events.length === 1);
  await sitOnce(alice, tableId);
  await until("the sit", () => first.events.length === 2);
  first.close();
  const lastId = first.events.at(-1)!.id!;

  await sitOnce(bob, tableId);
  await advanceOnce(alice, tableId);
  const missed = await alice.readState(tableId);
  const second = await subscribe(alice, tableId, { "last-event-id": lastId });
  t.teardown(() => second.close());
  await until("the two missed", () => second.events.length === 2);
  await betOnce(bob, tableId, "bet-4-b");
  const live = await alice.readState(tableId);
  await until("the live one", () => second.events.length === 3);
  const events = received(second);
  t.deepEqual(
    events.map((e) => e.version),
    [1, 2, 3].map((i) => Number(lastId) + i),
  );
  t.deepEqual(events[1]!.state, missed);
  t.deepEqual(events[2]!.state, live);
});

test.serial("a Last-Event-ID above the table's version: the current state, then the live versions", async (t) => {
  const tableId = 5;
  const alice = await player("ev-ida");
  const current = await alice.readState(tableId);
  const stream = await subscribe(alice, tableId, { "last-event-id": "999999" });
  t.teardown(() => stream.close());
  await until("the current state", () => stream.events.length === 1);
  await sitOnce(alice, tableId);
  await until("the sit", () => stream.events.length === 2);
  const [first, sat] = received(stream);
  t.deepEqual(first!.state, current);
  t.is(sat!.version, first!.version + 1);
  t.deepEqual(sat!.state, await alice.readState(tableId));
});

test.serial(
  "Last-Event-ID on a table this gateway does not follow yet: the versions missed, from the table service",
  async (t) => {
    // The gateway opens the table's feed with its recent versions; on a young table those start at
    // version 2 (version 1, the empty table, is never stored).
    const tableId = 6;
    const [alice, bob] = [await player("ev-kai"), await player("ev-lea")];
    await sitOnce(alice, tableId);
    const sat = await alice.readState(tableId);
    await sitOnce(bob, tableId);
    await advanceOnce(alice, tableId);
    const dealt = await alice.readState(tableId);
    const stream = await subscribe(alice, tableId, { "last-event-id": "1" });
    t.teardown(() => stream.close());
    await until("the versions after 1", () => stream.events.length === 3);
    await sleep(200);
    const events = received(stream);
    t.deepEqual(
      events.map((e) => e.version),
      [2, 3, 4],
    );
    t.deepEqual(events[0]!.state, sat);
    t.deepEqual(events[2]!.state, dealt);
  },
);

test.serial("state and advance name their state's version: the id of the event that carries that state", async (t) => {
  const tableId = 7;
  const [alice, bob] = [await player("ev-max"), await player("ev-nia")];
  const stream = await subscribe(alice, tableId);
  t.teardown(() => stream.close());
  await until("the current state", () => stream.events.length === 1);
  await sitOnce(alice, tableId);
  await sitOnce(bob, tableId);
  const read = await answered(() => alice.state(tableId));
  const advanced = await answered(() => bob.advance(tableId));
  t.is(advanced.status, 200, show(advanced));
  await until("the deal", () => stream.events.length === 4);
  const events = received(stream);
  t.is(read.tableVersion, String(events[2]!.version), "the read after both sits");
  t.deepEqual(read.body, events[2]!.state);
  t.is(advanced.tableVersion, String(events[3]!.version), "the deal");
  t.deepEqual(advanced.body, events[3]!.state);
  // Asked again from the state it moved on from, the advance answers the state now, with its version.
  const again = await answered(() =>
    alice.request<TableState>("POST", `/api/tables/${tableId}/advance`, {
      body: { from: { gameId: read.body.gameId, gameState: read.body.gameState } },
    }),
  );
  t.is(again.status, 200, show(again));
  t.is(again.tableVersion, advanced.tableVersion);
});
