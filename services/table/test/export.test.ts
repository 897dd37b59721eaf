// ExportGames against a real table process (and real odds and wallet services, an embedded
// FerretDB): games played through the service come out as they were played (cards, odds of every
// stage, bets, payouts, seeds), a void game too; only an ADMIN through the gateway may export; bad
// filters are refused before the stream. On a table with a long history loaded behind the service,
// the export follows the reader: it stops reading the database while the reader does not take its
// messages, and stops for good when the reader cancels (the process's own count of database reads).
import { status, type ServiceError } from "@grpc/grpc-js";
import { createClient, openServerStream, type ServiceIdentity } from "@pokerodds/common";
import { HandStatus } from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { DEFAULT_TARGET_RTP } from "@pokerodds/common/limits";
import { handOddsToProto } from "@pokerodds/common/hand-odds";
import { parseCard, parseHand } from "@pokerodds/common/poker/cards";
import { priceHands } from "@pokerodds/common/poker/stage-odds";
import {
  ExportGamesRequest,
  GameOutcome,
  GameState,
  PaidTo,
  TableServiceClient,
  type Caller,
  type FinishedGame,
  type TableState,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { freePorts } from "@pokerodds/launcher/ports";
import anyTest, { type ExecutionContext, type TestFn } from "ava";
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { tlsAs } from "../../../test/helpers/pki.js";
import { MAX_CLOCK_LEAD_MS, SnapshotStore } from "../src/snapshot-store.js";
import { admin, newPlayer, startTableCluster, type Table, type TableCluster } from "./helpers/table-cluster.js";
import { playedHistory } from "./helpers/played-history.js";

interface Context {
  cluster: TableCluster;
  table: Table;
  port: number;
  metricsPort: number;
}
const test = anyTest as TestFn<Context>;

/** A table with a long history, loaded behind the service. */
const LONG_TABLE = 9;
const LONG_GAMES = 600;

test.before(async (t) => {
  const cluster = await startTableCluster({ tables: 0 });
  const [metricsPort] = (await freePorts(1)) as [number];
  // Recovery's passes would read the database while the reads are counted.
  const replica = await cluster.startTable({
    METRICS_PORT: String(metricsPort),
    TABLE_RECOVERY_INTERVAL_MS: "3600000",
  });
  await new SnapshotStore(cluster.db).load(playedHistory(LONG_TABLE, LONG_GAMES));
  t.context = { cluster, table: replica.client, port: replica.port, metricsPort };
});
test.after.always(async (t) => {
  await t.context.cluster?.stop();
  for (const client of clients.values()) client.raw.close();
});

const clients = new Map<ServiceIdentity, ReturnType<typeof createClient<TableServiceClient>>>();

/** An ExportGames call as `identity` (the gateway unless a test says otherwise). */
function exportCall(
  t: ExecutionContext<Context>,
  request: Partial<ExportGamesRequest>,
  identity: ServiceIdentity = "gateway",
) {
  let client = clients.get(identity);
  if (!client) {
    client = createClient(TableServiceClient, [], `127.0.0.1:${t.context.port}`, {
      defaultDeadlineMs: 30_000,
      tls: tlsAs(identity),
    });
    clients.set(identity, client);
  }
  const raw = client.raw;
  const stop = new AbortController();
  const stream = openServerStream(
    TableServiceClient.service.exportGames.path,
    (metadata) => raw.exportGames(ExportGamesRequest.fromPartial({ caller: admin(), ...request }), metadata),
    { signal: stop.signal },
  );
  return { stream, cancel: () => stop.abort() };
}

async function exportAll(t: ExecutionContext<Context>, request: Partial<ExportGamesRequest>): Promise<FinishedGame[]> {
  const games: FinishedGame[] = [];
  for await (const message of exportCall(t, request).stream) games.push(message.game!);
  return games;
}

/** Database reads the table process made so far (its own count). */
async function findsSoFar(metricsPort: number): Promise<number> {
  const body = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return Number(/^mongodb_commands_total\{command="find"\} (\d+)$/m.exec(body)?.[1] ?? 0);
}

/** Sits the players and plays one game to the river, each betting at every stage; answers the river state. */
async function playGame(t: ExecutionContext<Context>, tableId: number, players: Caller[], tag: string) {
  const { table } = t.context;
  for (const [i, caller] of players.entries()) {
    await table.sit({ caller, tableId, buyInCents: 50_000, idempotencyKey: `${tag}-sit-${i}` });
  }
  for (let stage = 0; stage < 3; stage++) {
    const state = (await table.advance({ caller: players[0]!, tableId })).state!;
    await betOnEveryLiveHand(t, tableId, players, state, `${tag}-${stage}`);
  }
  return (await table.advance({ caller: players[0]!, tableId })).state!;
}

async function betOnEveryLiveHand(
  t: ExecutionContext<Context>,
  tableId: number,
  players: Caller[],
  state: TableState,
  tag: string,
) {
  const live = state.handOdds.filter((p) => p.bettingStage === state.bettingStage && p.oddsTenths > 0);
  for (const [i, caller] of players.entries()) {
    const seatIndex = state.seats.find((s) => s.playerId === caller.playerId)!.seatId;
    for (const panel of live) {
      const answer = await t.context.table.bet({
        caller,
        tableId,
        seatIndex,
        handIndex: panel.handIndex,
        betAmountCents: 100 * (i + 1),
        idempotencyKey: `${tag}-${i}-${panel.handIndex}`,
      });
      t.true(answer.acknowledged);
    }
  }
}

/** What each bet of the river returns: stake x recorded odds / winners, rounded down, for a winning hand. */
function expectedReturns(river: TableState): number[] {
  const winners = river.handOdds
    .filter((p) => p.bettingStage === -1 && p.handStatus === HandStatus.HAND_STATUS_WINNER)
    .map((p) => p.handIndex);
  return river.bets.map((bet) =>
    winners.includes(bet.handIndex)
      ? Math.floor((bet.betAmountCents * bet.recordedOddsTenths) / (10 * winners.length))
      : 0,
  );
}

function assertPlayedAsRecorded(t: ExecutionContext<Context>, game: FinishedGame, river: TableState): void {
  t.like(game, { tableId: river.tableId, gameId: river.gameId, outcome: GameOutcome.GAME_OUTCOME_SETTLED });
  t.deepEqual(game.hands, river.hands);
  t.deepEqual(game.board, river.board);
  t.deepEqual(game.handOdds, river.handOdds);
  t.is(game.seedCommitment, river.seedCommitment);
  t.is(game.serverSeed, river.serverSeed);
  t.is(river.targetRtp, DEFAULT_TARGET_RTP);
  t.is(river.targetRtp, game.targetRtp);
  t.is(game.dealtBy, "x-ann", "the first player advances, and so deals");
  t.deepEqual(
    game.bets.map((b) => [b.playerId, b.seatId, b.handIndex, b.bettingStage, b.betAmountCents, b.recordedOddsTenths]),
    river.bets.map((b) => [
      b.playerId,
      b.seatIndex,
      b.handIndex,
      b.bettingStage,
      b.betAmountCents,
      b.recordedOddsTenths,
    ]),
  );
  const returns = expectedReturns(river);
  t.deepEqual(
    game.bets.map((b) => b.returnedCents),
    returns,
  );
  t.deepEqual(
    game.bets.map((b) => b.paidTo),
    returns.map((r) => (r > 0 ? PaidTo.PAID_TO_SEAT : PaidTo.PAID_TO_NONE)),
  );
  const stakes = river.bets.reduce((sum, b) => sum + b.betAmountCents, 0);
  const payouts = returns.reduce((sum, r) => sum + r, 0);
  t.like(game, { stakesCents: stakes, payoutsCents: payouts, refundsCents: 0, houseResultCents: stakes - payouts });
  t.true(game.dealtAtMs > 0 && game.dealtAtMs <= game.firstBetAtMs && game.firstBetAtMs <= game.finishedAtMs);
  t.true(Math.abs(game.finishedAtMs - Date.now()) < 120_000);
}

test("games played through the service come out as played: cards, odds, bets, payouts, seeds; a void game too", async (t) => {
  const players = [await newPlayer(t.context.cluster, "x-ann"), await newPlayer(t.context.cluster, "x-ben")];
  const rivers = [await playGame(t, 4, players, "g1")];
  await t.context.table.advance({ caller: players[0]!, tableId: 4 });
  rivers.push(await playGame(t, 4, players, "g2"));
  const games = await exportAll(t, { tableId: 4 });
  t.deepEqual(
    games.map((g) => g.gameId),
    ["T4-1", "T4-2"],
  );
  games.forEach((game, i) => assertPlayedAsRecorded(t, game, rivers[i]!));
  t.true(games[0]!.version < games[1]!.version);

  // A void: the only player leaves with bets open.
  const [ann] = players;
  await t.context.table.sit({ caller: ann!, tableId: 6, buyInCents: 50_000, idempotencyKey: "void-sit" });
  const hole = (await t.context.table.advance({ caller: ann!, tableId: 6 })).state!;
  await betOnEveryLiveHand(t, 6, [ann!], hole, "void");
  const open = (await t.context.table.getState({ caller: admin(), tableId: 6 })).state!;
  await t.context.table.leave({ caller: ann!, tableId: 6, idempotencyKey: "void-leave" });
  const [voided] = await exportAll(t, { tableId: 6 });
  t.like(voided, { gameId: "T6-1", outcome: GameOutcome.GAME_OUTCOME_VOID, payoutsCents: 0, houseResultCents: 0 });
  t.deepEqual(voided!.hands, open.hands);
  t.deepEqual(voided!.board, []);
  t.deepEqual(voided!.handOdds, open.handOdds);
  t.is(voided!.seedCommitment, open.seedCommitment);
  t.is(createHash("sha256").update(Buffer.from(voided!.serverSeed, "hex")).digest("hex"), open.seedCommitment);
  t.deepEqual(
    voided!.bets.map((b) => [b.betAmountCents, b.returnedCents, b.paidTo]),
    open.bets.map((b) => [b.betAmountCents, b.betAmountCents, PaidTo.PAID_TO_ACCOUNT]),
  );
  t.is(voided!.refundsCents, voided!.stakesCents);
  t.is(voided!.targetRtp, DEFAULT_TARGET_RTP);

  // Every table at once: in table id order, the long table's after these.
  const all = exportCall(t, {});
  const firstFour: string[] = [];
  for await (const message of all.stream) {
    firstFour.push(message.game!.gameId);
    if (firstFour.length === 4) break;
  }
  t.deepEqual(firstFour, ["T4-1", "T4-2", "T6-1", `T${LONG_TABLE}-1`]);
});

test("a game keeps the target RTP it was dealt at: a replica set to another prices only the next game at it", async (t) => {
  const tableId = 12;
  const atDeal = t.context.table;
  // The same table service restarted (or another replica) with another TABLE_TARGET_RTP.
  const changed = (
    await t.context.cluster.startTable({ TABLE_TARGET_RTP: "0.9", TABLE_RECOVERY_INTERVAL_MS: "3600000" })
  ).client;
  const caller = await newPlayer(t.context.cluster, "x-rtp");
  await atDeal.sit({ caller, tableId, buyInCents: 50_000, idempotencyKey: "rtp-sit" });
  const hole = (await atDeal.advance({ caller, tableId })).state!;
  t.is(hole.targetRtp, DEFAULT_TARGET_RTP);
  let state = hole;
  for (let i = 0; i < 3; i++) state = (await changed.advance({ caller, tableId })).state!;
  t.is(state.gameState, GameState.GAME_STATE_STATUS_RIVER);
  t.is(state.targetRtp, DEFAULT_TARGET_RTP);
  const flopPanels = state.handOdds.filter((p) => p.bettingStage === 1);
  const truth = priceHands(state.hands.map(parseHand), state.board.slice(0, 3).map(parseCard), DEFAULT_TARGET_RTP);
  t.deepEqual(flopPanels, truth.map(handOddsToProto), "the flop priced at the deal's RTP");
  const [record] = await exportAll(t, { tableId });
  t.is(record!.targetRtp, DEFAULT_TARGET_RTP);

  await changed.advance({ caller, tableId });
  const next = (await changed.advance({ caller, tableId })).state!;
  t.is(next.gameState, GameState.GAME_STATE_STATUS_HOLE);
  t.is(next.targetRtp, 0.9);
  const holeTruth = priceHands(next.hands.map(parseHand), [], 0.9);
  t.deepEqual(next.handOdds, holeTruth.map(handOddsToProto), "the next game priced at the new setting");
});

test("a change is timed after the one before it when that is a little ahead (another replica's clock), never hours ahead", async (t) => {
  const store = new SnapshotStore(t.context.cluster.db);
  /** A played table whose last change is `lead` ms ahead of this clock; then a deal through the service. */
  const dealAfter = async (tableId: number, lead: number) => {
    const shape = playedHistory(tableId, 1);
    const span = shape.at(-1)!.updatedAt - shape[0]!.updatedAt;
    const history = playedHistory(tableId, 1, { start: Date.now() + lead - span });
    await store.load(history);
    const before = Date.now();
    t.is(
      (await t.context.table.advance({ caller: admin(), tableId })).state!.gameState,
      GameState.GAME_STATE_STATUS_HOLE,
    );
    const { snapshot } = await store.latest(tableId);
    return { last: history.at(-1)!.updatedAt, before, dealtAt: snapshot.updatedAt, snapshot };
  };
  const near = await dealAfter(14, 2_000);
  t.is(near.dealtAt, near.last, "timed at the change before it, 2 s ahead of the clock");
  t.deepEqual(near.snapshot.deal?.stages, [{ bettingStage: 0, openedAt: near.last, closedAt: null }]);
  const far = await dealAfter(15, 3_600_000);
  t.true(far.dealtAt < far.last, "not held at a time an hour ahead");
  t.true(
    far.dealtAt >= far.before && far.dealtAt <= Date.now() + MAX_CLOCK_LEAD_MS,
    "at most the lead ahead of the clock",
  );
});

test("refused before the stream: a caller who is not an ADMIN, a service other than the gateway, bad filters", async (t) => {
  const player = await newPlayer(t.context.cluster, "x-player");
  const refusal = async (request: Partial<ExportGamesRequest>, identity?: ServiceIdentity) => {
    const { stream } = exportCall(t, request, identity);
    const error = await t.throwsAsync<ServiceError>(stream.accepted);
    return error?.code;
  };
  t.is(await refusal({ caller: player }), status.PERMISSION_DENIED);
  t.is(await refusal({}, "wallet"), status.PERMISSION_DENIED);
  t.is(await refusal({ tableId: -1 }), status.INVALID_ARGUMENT);
  t.is(await refusal({ afterVersion: 5 }), status.INVALID_ARGUMENT, "a version without its table");
  t.is(await refusal({ afterTableId: 3, afterVersion: -1 }), status.INVALID_ARGUMENT);
  t.is(await refusal({ caller: { playerId: "", role: 0 } }), status.INVALID_ARGUMENT);
});

test.serial("a long history: filters and the resume cursor on it; the export pauses with its reader", async (t) => {
  const long = await exportAll(t, { tableId: LONG_TABLE });
  t.is(long.length, LONG_GAMES);
  t.deepEqual(
    long.map((g) => g.gameId),
    Array.from({ length: LONG_GAMES }, (_, i) => `T${LONG_TABLE}-${i + 1}`),
  );
  const resumed = await exportAll(t, {
    tableId: LONG_TABLE,
    afterTableId: LONG_TABLE,
    afterVersion: long[99]!.version,
  });
  t.is(resumed[0]!.gameId, long[100]!.gameId);
  t.is(resumed.length, LONG_GAMES - 100);
  const window = await exportAll(t, {
    finishedAfterMs: long[10]!.finishedAtMs,
    finishedBeforeMs: long[20]!.finishedAtMs,
  });
  t.deepEqual(
    window.map((g) => g.gameId),
    long.slice(10, 20).map((g) => g.gameId),
  );

  // A reader that takes one game and then nothing: the service stops reading until it does.
  const versions = long.at(-1)!.version;
  const before = await findsSoFar(t.context.metricsPort);
  const slow = exportCall(t, { tableId: LONG_TABLE });
  const reader = slow.stream[Symbol.asyncIterator]();
  t.is((await reader.next()).value?.game?.gameId, `T${LONG_TABLE}-1`);
  // Until the buffers between the two (gRPC's flow-control window, the reader's few) are full.
  const paused = (await steadyFinds(t.context.metricsPort)) - before;
  await sleep(1_000);
  t.is((await findsSoFar(t.context.metricsPort)) - before, paused, "no reads while the reader takes nothing");
  t.true(paused < versions / 2, `${paused} of ${versions} versions read while paused`);

  // The reader goes away: the service stops reading for good.
  await reader.return?.();
  const cancelled = await steadyFinds(t.context.metricsPort);
  await sleep(1_000);
  t.is(await findsSoFar(t.context.metricsPort), cancelled);
  t.true(cancelled - before < versions / 2);
});

/**
 * The read count once it has not moved for half a second (at most 60 s: a starved machine took over
 * 15 s to fill the buffers).
 */
async function steadyFinds(metricsPort: number): Promise<number> {
  let last = await findsSoFar(metricsPort);
  for (let i = 0; i < 120; i++) {
    await sleep(500);
    const now = await findsSoFar(metricsPort);
    if (now === last) return now;
    last = now;
  }
  throw new Error(`the table process kept reading: ${last} reads`);
}
