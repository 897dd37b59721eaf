// The game export against a history in memory, written by the domain itself: every finished game
// once and in order, its record matching what was played (a settled game's cards, odds of every
// stage, bets, payouts and times; a void game's cards from the version before it), the filters and
// the resume cursor, ADMIN only, and that it reads as it sends: a few versions ahead of the game
// being sent and no further, positioning by bisection, and nothing more once the call is cancelled.
import { ForbiddenError } from "@pokerodds/common";
import test from "ava";
import { setImmediate as tick } from "node:timers/promises";
import { emptyTable, exportedGame, type Caller, type ExportedGame, type TableSnapshot } from "../src/domain/index.js";
import {
  CLOCK_MARGIN_MS,
  exportGames,
  findGame,
  READ_AHEAD,
  type ExportFilter,
  type GameLog,
} from "../src/game-export.js";
import { ADMIN, FAIRNESS, T0 } from "./helpers/fixtures.js";
import { PLAYER, playedHistory, STAKE_CENTS } from "./helpers/played-history.js";

/** Tables' histories in memory, counting version reads; `gate` holds every read until opened. */
class MemoryLog implements GameLog {
  readonly tables = new Map<number, Map<number, TableSnapshot>>();
  reads = 0;

  constructor(...histories: TableSnapshot[][]) {
    for (const history of histories) {
      this.tables.set(history[0]!.tableId, new Map(history.map((s) => [s.version, s])));
    }
  }

  async tableIds() {
    return [...this.tables.keys()].sort((a, b) => a - b);
  }

  async latest(tableId: number) {
    const versions = this.tables.get(tableId);
    if (!versions) return { snapshot: emptyTable(tableId, T0), stored: false };
    return { snapshot: versions.get(Math.max(...versions.keys()))!, stored: true };
  }

  async version(tableId: number, version: number) {
    this.reads++;
    return this.tables.get(tableId)?.get(version) ?? null;
  }
}

const EVERYTHING: ExportFilter = { tableId: null, finishedAfter: null, finishedBefore: null, after: null };
const PLAYER_CALLER: Caller = { playerId: PLAYER, isAdmin: false };

async function exported(log: GameLog, filter: Partial<ExportFilter> = {}, caller: Caller = ADMIN) {
  const games: ExportedGame[] = [];
  const count = await exportGames(
    log,
    caller,
    { ...EVERYTHING, ...filter },
    { ready: () => {}, send: async (game) => void games.push(game), signal: new AbortController().signal },
  );
  return { games, count, ids: games.map((g) => `${g.gameId}@${g.version}`) };
}

const finishing = (history: TableSnapshot[]) => history.filter((s) => s.finishedGame !== null);
const atVersion = (history: TableSnapshot[], version: number) => history.find((s) => s.version === version)!;

test("every finished game once: tables in id order, each table's games in the order played", async (t) => {
  const seven = playedHistory(7, 4, { voidEvery: 3 });
  const three = playedHistory(3, 2);
  const { games, count } = await exported(new MemoryLog(seven, three));
  t.is(count, 6);
  t.deepEqual(
    games.map((g) => [g.gameId, g.outcome]),
    [
      ["T3-1", "SETTLED"],
      ["T3-2", "SETTLED"],
      ["T7-1", "SETTLED"],
      ["T7-2", "SETTLED"],
      ["T7-3", "VOID"],
      ["T7-4", "SETTLED"],
    ],
  );
  t.deepEqual(
    games.map((g) => g.version),
    [...finishing(three), ...finishing(seven)].map((s) => s.version),
  );
});

test("a settled game: the river's cards, every stage's odds, each bet as placed and as paid, the times", async (t) => {
  const history = playedHistory(7, 1);
  const river = finishing(history)[0]!;
  const hole = history.find((s) => s.gameState === "STATUS_HOLE" && s.bets.length === 0)!;
  const [game] = (await exported(new MemoryLog(history))).games;
  t.like(game, {
    tableId: 7,
    version: river.version,
    gameId: "T7-1",
    outcome: "SETTLED",
    numberOfHands: 4,
    winningHands: [0],
    stakesCents: 2 * STAKE_CENTS,
    // The hole bet on hand 0 at 3.2 wins 3.20; the flop bet on hand 2 loses.
    payoutsCents: 320,
    refundsCents: 0,
    houseResultCents: 200 - 320,
    dealtAt: hole.updatedAt,
    firstBetAt: hole.updatedAt + 1_000,
    finishedAt: river.updatedAt,
  });
  t.deepEqual(game!.hands, river.hands);
  t.is(game!.board.length, 5);
  t.deepEqual(game!.board, river.board);
  t.deepEqual(game!.handOdds, river.handOdds);
  t.deepEqual(
    game!.handOdds.map((p) => p.bettingStage),
    [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, -1, -1, -1, -1],
  );
  t.deepEqual(game!.fairness, FAIRNESS);
  t.deepEqual(
    game!.bets.map((b) => [b.playerId, b.seatId, b.handIndex, b.bettingStage, b.betAmountCents, b.oddsTenths]),
    [
      [PLAYER, 1, 0, 0, STAKE_CENTS, 32],
      [PLAYER, 1, 2, 1, STAKE_CENTS, 32],
    ],
  );
  t.deepEqual(
    game!.bets.map((b) => [b.returnedCents, b.paidTo, b.placedAt]),
    [
      [320, "SEAT", river.bets[0]!.placedAt],
      [0, "NONE", river.bets[1]!.placedAt],
    ],
  );
  // Each stage from its cards to its close (two versions of a reveal: the close, then the cards).
  const revealedAt = (state: string) => history.find((s) => s.gameState === state)!.updatedAt;
  t.deepEqual(game!.stages, [
    { bettingStage: 0, openedAt: hole.updatedAt, closedAt: revealedAt("STATUS_FLOP") - 1_000 },
    { bettingStage: 1, openedAt: revealedAt("STATUS_FLOP"), closedAt: revealedAt("STATUS_TURN") - 1_000 },
    { bettingStage: 2, openedAt: revealedAt("STATUS_TURN"), closedAt: river.updatedAt - 1_000 },
  ]);
});

test("a void game: its cards, odds and bets from the version before the leave that voided it", async (t) => {
  const history = playedHistory(7, 1, { voidEvery: 1 });
  const leave = finishing(history)[0]!;
  const before = atVersion(history, leave.version - 1);
  t.is(leave.hands, null, "the voiding change cleared the table");
  const [game] = (await exported(new MemoryLog(history))).games;
  t.like(game, {
    version: leave.version,
    gameId: "T7-1",
    outcome: "VOID",
    winningHands: [],
    stakesCents: STAKE_CENTS,
    payoutsCents: 0,
    refundsCents: STAKE_CENTS,
    houseResultCents: 0,
    finishedAt: leave.updatedAt,
  });
  t.deepEqual(game!.hands, before.hands);
  t.deepEqual(game!.board, []);
  t.deepEqual(game!.handOdds, before.handOdds);
  t.deepEqual(game!.fairness, FAIRNESS, "the seed of a void game is shown too: the game is over");
  t.deepEqual(
    game!.bets.map((b) => [b.handIndex, b.returnedCents, b.paidTo]),
    [[0, STAKE_CENTS, "ACCOUNT"]],
  );
  t.deepEqual(game!.stages, [{ bettingStage: 0, openedAt: game!.dealtAt, closedAt: null }], "voided while open");
});

test("a snapshot that does not show the finished game is a broken history, not a record", (t) => {
  const history = playedHistory(7, 2);
  const [first, second] = finishing(history);
  t.throws(() => exportedGame(second!, first!), { instanceOf: RangeError });
  t.throws(() => exportedGame(history[0]!, history[0]!), { instanceOf: RangeError });
  // Every game is dealt from a committed seed: a played game without one is not the game. (The
  // first game ends at the river, so its finishing version shows its cards.)
  t.notThrows(() => exportedGame(first!, first!));
  t.throws(() => exportedGame(first!, { ...first!, fairness: null }), { instanceOf: RangeError });
});

test("filters: one table, games finished in [finishedAfter, finishedBefore), after a game received", async (t) => {
  const seven = playedHistory(7, 4);
  // Played a day later: outside the time window below.
  const three = playedHistory(3, 2, { start: T0 + 86_400_000 });
  const log = new MemoryLog(seven, three);
  const sevens = finishing(seven);
  t.deepEqual(
    (await exported(log, { tableId: 7 })).games.map((g) => g.gameId),
    ["T7-1", "T7-2", "T7-3", "T7-4"],
  );
  t.deepEqual((await exported(log, { tableId: 5 })).games, [], "a table never written has no games");
  const window = {
    finishedAfter: sevens[1]!.updatedAt,
    finishedBefore: sevens[3]!.updatedAt,
  };
  t.deepEqual(
    (await exported(log, window)).games.map((g) => g.gameId),
    ["T7-2", "T7-3"],
  );
  const after = (tableId: number, version: number) => exported(log, { after: { tableId, version } });
  t.deepEqual(
    (await after(3, finishing(three)[0]!.version)).games.map((g) => g.gameId),
    ["T3-2", "T7-1", "T7-2", "T7-3", "T7-4"],
  );
  t.deepEqual(
    (await after(3, finishing(three)[1]!.version)).games.map((g) => g.gameId),
    ["T7-1", "T7-2", "T7-3", "T7-4"],
  );
  t.deepEqual(
    (await after(7, sevens[2]!.version)).games.map((g) => g.gameId),
    ["T7-4"],
  );
  t.deepEqual((await after(7, sevens[3]!.version)).games, []);
  t.deepEqual((await after(2_147_483_647, Number.MAX_SAFE_INTEGER)).games, []);
});

test("a walk that starts after a game's deal finds the deal's time by bisection", async (t) => {
  const history = playedHistory(7, 3);
  const river = finishing(history)[1]!;
  const hole = history.find((s) => s.gameId === "T7-2" && s.gameState === "STATUS_HOLE")!;
  // Resume just after the version that placed the game's first bet: its deal is behind the walk.
  const { games } = await exported(new MemoryLog(history), { after: { tableId: 7, version: hole.version + 1 } });
  t.deepEqual(
    games.map((g) => g.gameId),
    ["T7-2", "T7-3"],
  );
  t.is(games[0]!.dealtAt, hole.updatedAt);
  t.is(games[0]!.finishedAt, river.updatedAt);
});

test("finishedAfter positions by bisection: a late window reads a few versions, not the history", async (t) => {
  const history = playedHistory(7, 300);
  const log = new MemoryLog(history);
  const last = finishing(history).at(-1)!;
  const { games } = await exported(log, { finishedAfter: last.updatedAt });
  t.deepEqual(
    games.map((g) => g.gameId),
    ["T7-300"],
  );
  const hole = history.find((s) => s.gameId === "T7-300" && s.gameState === "STATUS_HOLE")!;
  t.is(games[0]!.dealtAt, hole.updatedAt);
  // The clock margin keeps the versions of its minutes (one change a second here) in the walk.
  const inMargin = CLOCK_MARGIN_MS / 1_000;
  t.true(log.reads < inMargin + 2 * Math.log2(history.length) + READ_AHEAD, `${log.reads} reads`);
  t.true(log.reads < history.length / 4, `${log.reads} of ${history.length} versions read`);
});

test("ADMIN only: another caller is refused before anything is read or the stream accepted", async (t) => {
  const log = new MemoryLog(playedHistory(7, 1));
  let ready = false;
  const sink = { ready: () => (ready = true), send: async () => {}, signal: new AbortController().signal };
  await t.throwsAsync(exportGames(log, PLAYER_CALLER, EVERYTHING, sink), { instanceOf: ForbiddenError });
  t.false(ready);
  t.is(log.reads, 0);
});

/** An export whose sink holds each game until the test lets it go. */
function heldExport(log: GameLog) {
  const sent: ExportedGame[] = [];
  const stop = new AbortController();
  let release = () => {};
  const send = async (game: ExportedGame) => {
    sent.push(game);
    await new Promise<void>((resolve, reject) => {
      const cancelled = () => reject(stop.signal.reason as Error);
      release = () => {
        stop.signal.removeEventListener("abort", cancelled);
        resolve();
      };
      stop.signal.addEventListener("abort", cancelled, { once: true });
    });
  };
  const done = exportGames(log, ADMIN, EVERYTHING, { ready: () => {}, send, signal: stop.signal });
  done.catch(() => {});
  return { sent, done, release: () => release(), cancel: () => stop.abort(new Error("cancelled")) };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await tick();
}

test("it reads as it sends: while a game waits for the stream, at most READ_AHEAD versions are read beyond it", async (t) => {
  const history = playedHistory(7, 300);
  const log = new MemoryLog(history);
  const run = heldExport(log);
  await settle();
  t.is(run.sent.length, 1, "the first game goes out before the rest is read");
  const firstRiver = finishing(history)[0]!.version;
  // Versions 2..firstRiver, and the reads in flight behind it.
  t.true(log.reads <= firstRiver - 1 + READ_AHEAD, `${log.reads} reads`);
  const held = log.reads;
  await settle();
  t.is(log.reads, held, "nothing more is read while the stream does not take the game");
  for (let i = 1; i < 300; i++) {
    run.release();
    await settle();
  }
  run.release();
  t.is(await run.done, 300);
  t.is(run.sent.length, 300);
  t.is(log.reads, history.length);
});

test("a cancelled export stops: it rejects, and reads nothing more", async (t) => {
  const log = new MemoryLog(playedHistory(7, 50));
  const run = heldExport(log);
  await settle();
  run.release();
  await settle();
  t.is(run.sent.length, 2);
  const held = log.reads;
  run.cancel();
  await t.throwsAsync(run.done, { message: "cancelled" });
  await settle();
  t.is(log.reads, held);
});

test("one game by its id: the export's record of it, settled or void, found by bisection", async (t) => {
  const history = playedHistory(7, 300, { voidEvery: 7 });
  const { games } = await exported(new MemoryLog(history));
  for (const gameId of ["T7-1", "T7-7", "T7-150", "T7-299", "T7-300"]) {
    const log = new MemoryLog(history);
    const game = await findGame(log, 7, gameId);
    t.deepEqual(
      game,
      games.find((g) => g.gameId === gameId),
      gameId,
    );
    // Two bisections (the finishing version, then the deal's) and the version before a void.
    t.true(log.reads <= 2 * Math.ceil(Math.log2(history.length)) + 3, `${gameId}: ${log.reads} reads`);
  }
  t.is((await findGame(new MemoryLog(history), 7, "T7-7"))!.outcome, "VOID");
});

test("no record: a game not over yet, a game the table never had, another table's, a malformed id", async (t) => {
  const history = playedHistory(7, 3);
  const flop = history.findIndex((s) => s.gameId === "T7-3" && s.gameState === "STATUS_FLOP");
  const log = new MemoryLog(history.slice(0, flop + 1));
  t.is((await findGame(log, 7, "T7-2"))?.gameId, "T7-2");
  const before = log.reads;
  t.is(await findGame(log, 7, "T7-3"), null, "at its flop");
  t.is(log.reads, before, "the game being played is not searched for in the history");
  t.is(await findGame(log, 7, "T7-4"), null, "not dealt yet");
  for (const gameId of ["T3-1", "T7-0", "T7-02", "t7-2", "T7-2 ", "T7-", "7-2", "T7-99999999999999999999"]) {
    t.is(await findGame(log, 7, gameId), null, gameId);
  }
  t.is(await findGame(log, 3, "T3-1"), null, "a table never written");
  const river = history.findIndex((s) => s.gameId === "T7-3" && s.gameState === "STATUS_RIVER");
  t.is(
    (await findGame(new MemoryLog(history.slice(0, river + 1)), 7, "T7-3"))?.outcome,
    "SETTLED",
    "from its river on",
  );
});
