// Games against the real odds and wallet services: every stage with bets, the river's payouts (to
// the seat, and to the account of a player who left), the void when the last player leaves, the
// lobby, and who may advance.
import { status } from "@grpc/grpc-js";
import { HandStatus } from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { GAME_ID_MAX_LENGTH } from "@pokerodds/common/limits";
import { GameState, type Caller, type TableState } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { Role } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import anyTest, { type ExecutionContext, type TestFn } from "ava";
import { statusOf } from "../../../test/helpers/grpc-services.js";
import {
  finishedGames,
  admin,
  balanceOf,
  moneyCheck,
  newPlayer,
  startTableCluster,
  type TableCluster,
} from "./helpers/table-cluster.js";

const test = anyTest as TestFn<TableCluster>;

test.before(async (t) => {
  t.context = await startTableCluster();
});
test.after.always(async (t) => {
  await t.context.stop?.();
});

const WELCOME = 100_000;

async function state(cluster: TableCluster, tableId: number): Promise<TableState> {
  return (await cluster.table().getState({ caller: admin(), tableId })).state!;
}

async function advance(cluster: TableCluster, caller: Caller, tableId: number): Promise<TableState> {
  return (await cluster.table().advance({ caller, tableId })).state!;
}

/** Backs every hand that can still win at the current stage; answers the stakes per hand. */
async function betOnLiveHands(
  t: ExecutionContext<TableCluster>,
  caller: Caller,
  tableId: number,
  seatIndex: number,
  betAmountCents: number,
  tag: string,
): Promise<number> {
  const current = await state(t.context, tableId);
  const panels = current.handOdds.filter((p) => p.bettingStage === current.bettingStage);
  const live = panels.filter((p) => p.oddsTenths > 0);
  // No hand can win alone when the hands left can only tie (the same ranks): none takes bets then.
  if (live.length === 0)
    t.true(
      panels.every((p) => p.winPercentage === 0),
      "a hand that can win has odds",
    );
  let staked = 0;
  for (const panel of live) {
    const answer = await t.context.table().bet({
      caller,
      tableId,
      seatIndex,
      handIndex: panel.handIndex,
      betAmountCents,
      idempotencyKey: `${tag}-${panel.handIndex}`,
    });
    // The answer names the odds and stage recorded: those read just before, no advance came between.
    const odds = (panel.oddsTenths / 10).toFixed(1);
    const stage = ["hole", "flop", "turn"][current.bettingStage];
    t.like(answer, {
      acknowledged: true,
      message: `bet placed: handIndex ${panel.handIndex} at odds ${odds} (${stage})`,
    });
    staked += betAmountCents;
  }
  return staked;
}

/** What the river pays each player: stake x recorded odds / winners, rounded down, per bet. */
function payouts(river: TableState): Map<string, number> {
  const winners = river.handOdds
    .filter((p) => p.bettingStage === -1 && p.handStatus === HandStatus.HAND_STATUS_WINNER)
    .map((p) => p.handIndex);
  const paid = new Map<string, number>();
  for (const bet of river.bets) {
    if (!winners.includes(bet.handIndex)) continue;
    const payout = Math.floor((bet.betAmountCents * bet.recordedOddsTenths) / (10 * winners.length));
    paid.set(bet.playerId, (paid.get(bet.playerId) ?? 0) + payout);
  }
  return paid;
}

test("a game through every stage: bets at hole, flop and turn, payouts at the river to seat and account", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const tableId = 7;
  const ann = await newPlayer(cluster, "ann");
  const ben = await newPlayer(cluster, "ben");
  const outsider = await newPlayer(cluster, "outsider");
  await table.sit({ caller: ann, tableId, buyInCents: 50_000, idempotencyKey: "s" });
  const benSeat = (await table.sit({ caller: ben, tableId, buyInCents: 20_000, idempotencyKey: "s" })).seatId;

  t.is(await statusOf(table.advance({ caller: outsider, tableId })), status.PERMISSION_DENIED);
  t.is(
    await statusOf(
      table.bet({ caller: ann, tableId, seatIndex: 1, handIndex: 0, betAmountCents: 100, idempotencyKey: "early" }),
    ),
    status.FAILED_PRECONDITION,
  );

  const hole = await advance(cluster, ann, tableId);
  t.like(hole, { gameState: GameState.GAME_STATE_STATUS_HOLE, bettingStage: 0, numberOfHands: 4 });
  t.is(hole.hands.length, 4);
  t.is(hole.board.length, 0);
  t.is(hole.handOdds.filter((p) => p.bettingStage === 0).length, 4);
  let annStaked = await betOnLiveHands(t, ann, tableId, 1, 1_000, "hole");
  let benStaked = await betOnLiveHands(t, ben, tableId, benSeat, 700, "hole");

  // Refusals at a betting stage: another seat, a short seat balance (NACK), a reused key with other terms.
  t.is(
    await statusOf(
      table.bet({ caller: ann, tableId, seatIndex: benSeat, handIndex: 0, betAmountCents: 100, idempotencyKey: "x" }),
    ),
    status.FAILED_PRECONDITION,
  );
  t.like(
    await table.bet({
      caller: ben,
      tableId,
      seatIndex: benSeat,
      handIndex: 0,
      betAmountCents: 20_000,
      idempotencyKey: "big",
    }),
    {
      acknowledged: false,
      message: "insufficient seat balance",
    },
  );
  const replay = { caller: ann, tableId, seatIndex: 1, handIndex: 0, betAmountCents: 1_000, idempotencyKey: "hole-0" };
  // A replay answers the first bet's answer (its seat balance then), however many bets came since.
  t.like(await table.bet(replay), { acknowledged: true, updatedSeatBalanceCents: 50_000 - 1_000 });
  t.is(await statusOf(table.bet({ ...replay, betAmountCents: 1_001 })), status.ALREADY_EXISTS);

  const flop = await advance(cluster, ben, tableId);
  t.like(flop, { gameState: GameState.GAME_STATE_STATUS_FLOP, bettingStage: 1 });
  t.is(flop.board.length, 3);
  t.is(flop.handOdds.length, 8);
  annStaked += await betOnLiveHands(t, ann, tableId, 1, 500, "flop");
  benStaked += await betOnLiveHands(t, ben, tableId, benSeat, 300, "flop");

  const turn = await advance(cluster, admin(), tableId);
  t.like(turn, { gameState: GameState.GAME_STATE_STATUS_TURN, bettingStage: 2 });
  t.is(turn.board.length, 4);
  annStaked += await betOnLiveHands(t, ann, tableId, 1, 250, "turn");
  benStaked += await betOnLiveHands(t, ben, tableId, benSeat, 100, "turn");

  // The same bet retried after its game ended still answers its first result (below), and Ben
  // leaves before the river: his bets stay in play, his winnings go to his account.
  const benLeft = await table.leave({ caller: ben, tableId, idempotencyKey: "l" });
  t.is(benLeft.creditsReturnedCents, 20_000 - benStaked);
  t.is(await balanceOf(cluster, "ben"), WELCOME - benStaked);

  const annSeat = (await state(cluster, tableId)).seats.find((s) => s.playerId === "ann")!.seatBalanceCents;
  t.is(annSeat, 50_000 - annStaked);
  const river = await advance(cluster, ann, tableId);
  t.like(river, { gameState: GameState.GAME_STATE_STATUS_RIVER, bettingStage: -1 });
  t.is(river.board.length, 5);
  const paid = payouts(river);
  t.true(
    [...paid.values()].some((cents) => cents > 0),
    "someone backed every live hand, so someone wins",
  );
  t.is(river.seats.find((s) => s.playerId === "ann")!.seatBalanceCents, annSeat + (paid.get("ann") ?? 0));
  t.is(await balanceOf(cluster, "ben"), WELCOME - benStaked + (paid.get("ben") ?? 0));

  const setup = await advance(cluster, ann, tableId);
  t.like(setup, { gameState: GameState.GAME_STATE_STATUS_SETUP, bettingStage: -1, hands: [], board: [], bets: [] });
  t.not(setup.gameId, river.gameId);
  // A retry of a bet of the finished game: its first answer, nothing moves.
  const late = await table.bet(replay);
  t.like(late, { acknowledged: true });
  t.is(
    (await state(cluster, tableId)).seats.find((s) => s.playerId === "ann")!.seatBalanceCents,
    annSeat + (paid.get("ann") ?? 0),
  );

  const game = (await finishedGames(cluster)).find((record) => record.gameId === river.gameId);
  t.like(game, { gameId: river.gameId, outcome: "SETTLED", stakesCents: annStaked + benStaked });
  // Through GetGame too; a game id none could have is refused before any read (and is not quoted back).
  t.like((await table.getGame({ caller: ann, tableId, gameId: river.gameId })).game, { gameId: river.gameId });
  const tooLong = "g".repeat(GAME_ID_MAX_LENGTH + 1);
  t.is(await statusOf(table.getGame({ caller: ann, tableId, gameId: tooLong })), status.INVALID_ARGUMENT);
  // Behind the service: every version is stored, 2..latest (version 1 is the empty table, never stored).
  const history = cluster.db.collection<{ _id: string }>("history");
  const stored = await history.find({ stream: String(tableId) }, { projection: { _id: 1 } }).toArray();
  t.deepEqual(
    stored.map((s) => s._id).sort((a, b) => a.localeCompare(b, "en", { numeric: true })),
    stored.map((_, i) => `${tableId}:${i + 2}`),
  );
});

test("the last player leaving mid-game voids it: every open bet is refunded to its player's account", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const tableId = 8;
  const cat = await newPlayer(cluster, "cat");
  const dan = await newPlayer(cluster, "dan");
  await table.sit({ caller: cat, tableId, buyInCents: 10_000, idempotencyKey: "s" });
  const danSeat = (await table.sit({ caller: dan, tableId, buyInCents: 10_000, idempotencyKey: "s" })).seatId;
  await advance(cluster, cat, tableId);
  const catStaked = await betOnLiveHands(t, cat, tableId, 1, 300, "v");
  const danStaked = await betOnLiveHands(t, dan, tableId, danSeat, 200, "v");

  // Dan leaves first: his seat balance comes back, his bets stay open.
  t.is((await table.leave({ caller: dan, tableId, idempotencyKey: "l" })).creditsReturnedCents, 10_000 - danStaked);
  t.is(await balanceOf(cluster, "dan"), WELCOME - danStaked);
  const voided = await table.leave({ caller: cat, tableId, idempotencyKey: "l" });
  t.is(voided.creditsReturnedCents, 10_000 - catStaked);
  // The answer's balance holds the leaver's refund too, not only the seat's credit.
  t.is(voided.newAccountBalanceCents, WELCOME);
  t.is(await balanceOf(cluster, "cat"), WELCOME);
  t.is(await balanceOf(cluster, "dan"), WELCOME);
  const after = await state(cluster, tableId);
  t.like(after, { gameState: GameState.GAME_STATE_STATUS_START, seats: [], bets: [], hands: [] });
  const records = (await finishedGames(cluster)).filter((record) => record.outcome === "VOID");
  t.true(records.some((record) => record.refundsCents === catStaked + danStaked));
});

test("bets of two players are two bets even when player and key would join alike (a + b:c, a:b + c)", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const tableId = 10;
  const a = await newPlayer(cluster, "a");
  const ab = await newPlayer(cluster, "a:b");
  const keeper = await newPlayer(cluster, "keeper");
  const seatOfA = (await table.sit({ caller: a, tableId, buyInCents: 10_000, idempotencyKey: "s" })).seatId;
  await table.sit({ caller: keeper, tableId, buyInCents: 10_000, idempotencyKey: "s" });
  await advance(cluster, keeper, tableId);
  await betOnLiveHands(t, a, tableId, seatOfA, 100, "b:c");
  const backedByA = new Set((await state(cluster, tableId)).bets.map((bet) => bet.handIndex));

  // The same game: a:b sits beside a and bets under the key that joins alike.
  const seatOfAb = (await table.sit({ caller: ab, tableId, buyInCents: 10_000, idempotencyKey: "s" })).seatId;
  const hand = [...backedByA][0]!;
  const key = `c-${hand}`;
  const same = await table.bet({
    caller: ab,
    tableId,
    seatIndex: seatOfAb,
    handIndex: hand,
    betAmountCents: 100,
    idempotencyKey: key,
  });
  t.like(same, { acknowledged: true, updatedSeatBalanceCents: 9_900 });
  t.regex(same.message, /^bet placed: handIndex \d at odds \d+\.\d \(hole\)$/);

  // A later game: a leaves, a:b leaves and sits again, and bets as a did in the first game.
  await table.leave({ caller: a, tableId, idempotencyKey: "l" });
  await table.leave({ caller: ab, tableId, idempotencyKey: "l" });
  const seatAgain = (await table.sit({ caller: ab, tableId, buyInCents: 10_000, idempotencyKey: "s2" })).seatId;
  const first = await state(cluster, tableId);
  let next = first;
  while (next.gameId === first.gameId || next.gameState !== GameState.GAME_STATE_STATUS_HOLE) {
    next = await advance(cluster, keeper, tableId);
  }
  // Another hand than a:b's first bet: a:b's own key for that one is taken by a:b.
  const live = next.handOdds.filter(
    (p) => p.bettingStage === 0 && p.oddsTenths > 0 && p.handIndex !== hand && backedByA.has(p.handIndex),
  );
  t.true(live.length > 0, "another hand a backed in the first game is live again");
  const later = live[0]!.handIndex;
  // Its first game's bet may have won and been paid to its new seat.
  const seatBefore = next.seats.find((seat) => seat.playerId === "a:b")!.seatBalanceCents;
  const again = await table.bet({
    caller: ab,
    tableId,
    seatIndex: seatAgain,
    handIndex: later,
    betAmountCents: 100,
    idempotencyKey: `c-${later}`,
  });
  t.like(again, { acknowledged: true, updatedSeatBalanceCents: seatBefore - 100 });
  t.regex(again.message, /^bet placed: handIndex \d at odds /);
  t.deepEqual(
    (await state(cluster, tableId)).bets.map((bet) => [bet.playerId, bet.handIndex]),
    [["a:b", later]],
  );
});

test("a bet's key answers its first result: a replay after other moves, and a NACK after a top-up", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const tableId = 11;
  const ivy = await newPlayer(cluster, "ivy");
  const { seatId } = await table.sit({ caller: ivy, tableId, buyInCents: 10_000, idempotencyKey: "s" });
  const hole = await advance(cluster, ivy, tableId);
  const hand = hole.handOdds.find((p) => p.bettingStage === 0 && p.oddsTenths > 0)!.handIndex;
  const bet = (idempotencyKey: string, betAmountCents: number) =>
    table.bet({ caller: ivy, tableId, seatIndex: seatId, handIndex: hand, betAmountCents, idempotencyKey });

  const first = await bet("first", 500);
  t.like(first, { acknowledged: true, updatedSeatBalanceCents: 9_500 });
  await bet("second", 300);
  await table.topUp({ caller: ivy, tableId, amountCents: 2_000, idempotencyKey: "t1" });
  t.deepEqual(await bet("first", 500), first, "the first answer, not the seat balance now");

  const refused = await bet("too-much", 20_000);
  t.like(refused, { acknowledged: false, message: "insufficient seat balance", updatedSeatBalanceCents: 11_200 });
  await table.topUp({ caller: ivy, tableId, amountCents: 10_000, idempotencyKey: "t2" });
  t.deepEqual(await bet("too-much", 20_000), refused, "the NACK again: nothing is placed later under its key");
  const { state } = await table.getState({ caller: ivy, tableId });
  t.deepEqual(
    state!.bets.map((b) => b.betAmountCents),
    [500, 300],
  );
  t.is(state!.seats[0]!.seatBalanceCents, 21_200);
  t.is(await statusOf(bet("too-much", 20_001)), status.ALREADY_EXISTS);
});

test("two advances from the same state collapse into one", async (t) => {
  const cluster = t.context;
  const tableId = 9;
  const eve = await newPlayer(cluster, "eve");
  await cluster.table().sit({ caller: eve, tableId, buyInCents: 1_000, idempotencyKey: "s" });
  const [a, b] = await Promise.all([advance(cluster, eve, tableId), advance(cluster, eve, tableId)]);
  t.like(a, { gameState: GameState.GAME_STATE_STATUS_HOLE });
  t.deepEqual(b, a);
  const flop = await advance(cluster, eve, tableId);
  t.is(flop.gameState, GameState.GAME_STATE_STATUS_FLOP);
});

test("an advance that names the state it moves on from moves the game once, whoever sends it again", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const tableId = 13;
  const hal = await newPlayer(cluster, "hal");
  const ida = await newPlayer(cluster, "ida");
  await table.sit({ caller: hal, tableId, buyInCents: 1_000, idempotencyKey: "s" });
  await table.sit({ caller: ida, tableId, buyInCents: 1_000, idempotencyKey: "s" });
  const start = await state(cluster, tableId);
  const from = (seen: TableState) => ({ gameId: seen.gameId, gameState: seen.gameState });
  const advanceFrom = async (caller: Caller, seen: TableState) =>
    (await table.advance({ caller, tableId, from: from(seen) })).state!;

  const hole = await advanceFrom(hal, start);
  t.is(hole.gameState, GameState.GAME_STATE_STATUS_HOLE);
  t.deepEqual(await advanceFrom(hal, start), hole, "the same advance again: the state now, nothing dealt");
  t.deepEqual(await advanceFrom(ida, start), hole, "another player's advance from the same state: nothing dealt");

  // Both players deal the flop at once: one flop.
  const [a, b] = await Promise.all([advanceFrom(hal, hole), advanceFrom(ida, hole)]);
  t.is(a.gameState, GameState.GAME_STATE_STATUS_FLOP);
  t.deepEqual(b, a);
  t.deepEqual(await advanceFrom(hal, hole), a, "a late retry after the flop leaves the flop open for bets");
  t.is((await state(cluster, tableId)).gameState, GameState.GAME_STATE_STATUS_FLOP);

  // A state the table never moved on from: refused, and nothing moves.
  const notYet = { ...a, gameState: GameState.GAME_STATE_STATUS_TURN };
  t.is(await statusOf(advanceFrom(hal, notYet)), status.FAILED_PRECONDITION);
  const otherGame = { ...a, gameId: `T${tableId}-99` };
  t.is(await statusOf(advanceFrom(hal, otherGame)), status.FAILED_PRECONDITION);
  t.deepEqual(await state(cluster, tableId), a);

  // A game voided by the last leave was never moved on from its flop.
  await table.leave({ caller: hal, tableId, idempotencyKey: "l" });
  await table.leave({ caller: ida, tableId, idempotencyKey: "l" });
  await table.sit({ caller: hal, tableId, buyInCents: 1_000, idempotencyKey: "s2" });
  const voided = await state(cluster, tableId);
  t.is(voided.gameState, GameState.GAME_STATE_STATUS_START);
  t.is(await statusOf(advanceFrom(hal, a)), status.FAILED_PRECONDITION);
  t.deepEqual(await state(cluster, tableId), voided);

  // Who may advance is checked first, whatever state is named.
  const outsider = await newPlayer(cluster, "jon");
  t.is(await statusOf(advanceFrom(outsider, start)), status.PERMISSION_DENIED);
  const unnamed = { ...voided, gameState: GameState.GAME_STATE_UNSPECIFIED };
  t.is(await statusOf(advanceFrom(hal, unnamed)), status.INVALID_ARGUMENT);
  t.is(await statusOf(advanceFrom(hal, { ...voided, gameId: "" })), status.INVALID_ARGUMENT);
});

test("a bet that names the stage it saw is placed at its odds, or refused once the table moved on", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const tableId = 15;
  const kim = await newPlayer(cluster, "kim");
  const { seatId } = await table.sit({ caller: kim, tableId, buyInCents: 5_000, idempotencyKey: "s" });
  const hole = await advance(cluster, kim, tableId);
  const hand = hole.handOdds.find((p) => p.oddsTenths > 0)!;
  const bet = (key: string, bettingStage: number) =>
    table.bet({
      caller: kim,
      tableId,
      seatIndex: seatId,
      handIndex: hand.handIndex,
      betAmountCents: 100,
      idempotencyKey: key,
      at: { gameId: hole.gameId, bettingStage },
    });
  const placed = await bet("at-hole", 0);
  t.true(placed.acknowledged);
  t.regex(placed.message, new RegExp(`at odds ${(hand.oddsTenths / 10).toFixed(1)} \\(hole\\)$`));

  await advance(cluster, kim, tableId);
  t.is(await statusOf(bet("late", 0)), status.FAILED_PRECONDITION, "the hole's odds are gone at the flop");
  t.deepEqual(await bet("at-hole", 0), placed, "a retry of the bet placed answers it, though the table moved on");
  t.is(await statusOf(bet("at-hole", 1)), status.ALREADY_EXISTS, "the same key for a bet at another stage");
  const { state } = await table.getState({ caller: kim, tableId });
  t.deepEqual(
    state!.bets.map((b) => b.bettingStage),
    [0],
  );
});

test("a player's seats at every table, with their chips, in table id order", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const lia = await newPlayer(cluster, "lia");
  const max = await newPlayer(cluster, "max");
  t.deepEqual((await table.listSeats({ caller: lia })).seats, [], "seated nowhere yet");
  await table.sit({ caller: lia, tableId: 17, buyInCents: 2_500, idempotencyKey: "s" });
  const { seatId } = await table.sit({ caller: lia, tableId: 16, buyInCents: 1_000, idempotencyKey: "s2" });
  await table.sit({ caller: max, tableId: 16, buyInCents: 700, idempotencyKey: "s" });
  await table.topUp({ caller: lia, tableId: 16, amountCents: 1, idempotencyKey: "t" });
  t.deepEqual((await table.listSeats({ caller: lia })).seats, [
    { tableId: 16, seatId, seatBalanceCents: 1_001 },
    { tableId: 17, seatId: 1, seatBalanceCents: 2_500 },
  ]);
  await table.leave({ caller: lia, tableId: 17, idempotencyKey: "l" });
  t.deepEqual(
    (await table.listSeats({ caller: lia })).seats.map((s) => s.tableId),
    [16],
  );
  t.deepEqual(
    (await table.listSeats({ caller: max })).seats.map((s) => s.seatBalanceCents),
    [700],
  );
});

test("a paying player's seats include their personal table, and no one else's", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const [ora, pia] = [
    await newPlayer(cluster, "ora", Role.ROLE_PAYING_USER),
    await newPlayer(cluster, "pia", Role.ROLE_PAYING_USER),
  ];
  const personalOf = async (playerId: string) =>
    (await cluster.wallet.getPlayer({ playerId })).profile!.personalTableId!;
  const [oraTable, piaTable] = [await personalOf("ora"), await personalOf("pia")];
  await table.sit({ caller: ora, tableId: oraTable, buyInCents: 300, idempotencyKey: "s" });
  await table.sit({ caller: ora, tableId: 15, buyInCents: 200, idempotencyKey: "s2" });
  await table.sit({ caller: pia, tableId: piaTable, buyInCents: 100, idempotencyKey: "s" });
  t.deepEqual(
    (await table.listSeats({ caller: ora })).seats.map((s) => [s.tableId, s.seatBalanceCents]),
    [
      [15, 200],
      [oraTable, 300],
    ],
  );
  t.deepEqual(
    (await table.listSeats({ caller: pia })).seats.map((s) => [s.tableId, s.seatBalanceCents]),
    [[piaTable, 100]],
  );
});

test("the lobby lists tables touched within 30 minutes, with their players", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const fay = await newPlayer(cluster, "fay");
  const gus = await newPlayer(cluster, "gus");
  await table.sit({ caller: fay, tableId: 12, buyInCents: 1_000, idempotencyKey: "s" });
  await table.sit({ caller: gus, tableId: 12, buyInCents: 1_000, idempotencyKey: "s" });
  await table.sit({ caller: gus, tableId: 14, buyInCents: 1_000, idempotencyKey: "s2" });
  await advance(cluster, gus, 12);
  const lobby = await table.listTables({ cachedEtag: "" });
  t.deepEqual(
    lobby.tables.find((s) => s.tableId === 12),
    { tableId: 12, playerCount: 2, gameState: "BETTING" },
  );
  t.false(
    lobby.tables.some((s) => s.tableId === 20),
    "a table never used is not active",
  );
  // Players, not seats: gus sits at two tables and counts once (other tests' players may sit too).
  t.like(
    lobby.tables.find((s) => s.tableId === 14),
    { playerCount: 1 },
  );
  const seats = lobby.tables.reduce((sum, s) => sum + s.playerCount, 0);
  t.true(lobby.totalActivePlayers <= seats - 1, `${lobby.totalActivePlayers} players in ${seats} seats`);
});

test.after("money is conserved across every account and table", async (t) => {
  const check = await moneyCheck(t.context);
  t.true(check.conserved, JSON.stringify(check.detail));
});
