import test from "ava";
import {
  ACTIVE_WINDOW_MS,
  lobbyEntry,
  lobbyListedUntil,
  lobbyOf,
  lobbySummary,
  seatedPlayerCount,
  seatsOf,
} from "../src/domain/lobby.js";
import { applyLeave, applyTopUp } from "../src/domain/seats.js";
import { markDelivered } from "../src/domain/snapshot.js";
import type { BettingStage, GameState, TableSnapshot } from "../src/domain/types.js";
import { publicState } from "../src/domain/view.js";
import {
  FLOP_PANELS,
  HOLE_PANELS,
  T0,
  TURN_PANELS,
  advance,
  advanceTo,
  bet,
  closed,
  newTable,
  riverPanels,
  sit,
} from "./helpers/fixtures.js";

/** The spec's fields, but the board stays a list until the gateway names its five cards. */
const VIEW_FIELDS = [
  "tableId",
  "gameId",
  "gameState",
  "bettingStage",
  // Whether that stage takes bets now: false also while an advance has closed it for a reveal.
  "bettingOpen",
  "numberOfHands",
  "numberOfSeats",
  "jackpotCents",
  "hands",
  "board",
  "seats",
  "bets",
  "handOdds",
  // Provably fair: the commitment from the game's start, the seed at the river (null otherwise), the
  // client seed from the hole.
  "seedCommitment",
  "serverSeed",
  "clientSeed",
  // The target RTP the game is priced at, from its deal.
  "targetRtp",
].sort();

const STATES: GameState[] = [
  "STATUS_START",
  "STATUS_HOLE",
  "STATUS_FLOP",
  "STATUS_TURN",
  "STATUS_RIVER",
  "STATUS_SETUP",
];

const STAGE: Record<GameState, BettingStage> = {
  STATUS_START: -1,
  STATUS_HOLE: 0,
  STATUS_FLOP: 1,
  STATUS_TURN: 2,
  STATUS_RIVER: -1,
  STATUS_SETUP: -1,
};

function tableIn(state: GameState): TableSnapshot {
  let s = advance(sit(newTable(), "p1", 10_000));
  s = bet(s, "p1", 1, 500);
  if (state === "STATUS_START") return sit(newTable(), "p1", 10_000);
  if (state === "STATUS_SETUP") return advance(advanceTo(s, "STATUS_RIVER"));
  return advanceTo(s, state);
}

// ---------- public view ----------

test("the public view shows exactly the spec's fields (the board as a list), in every state", (t) => {
  for (const state of STATES) {
    const view = publicState(tableIn(state));
    t.deepEqual(Object.keys(view).sort(), VIEW_FIELDS, state);
    t.is(view.jackpotCents, 0);
    for (const seat of view.seats) {
      t.deepEqual(Object.keys(seat).sort(), ["avatarImageUrl", "playerId", "playerName", "seatBalanceCents", "seatId"]);
    }
    for (const b of view.bets) {
      t.deepEqual(Object.keys(b).sort(), [
        "betAmountCents",
        "bettingStage",
        "handIndex",
        "playerId",
        "recordedOddsTenths",
        "seatIndex",
      ]);
    }
  }
});

test("the public view never contains a card of the undealt deck", (t) => {
  for (const state of STATES) {
    const snapshot = tableIn(state);
    const json = JSON.stringify(publicState(snapshot));
    t.false(json.includes("deck"), state);
    for (const card of snapshot.deck) t.false(json.includes(`"${card}"`), `${state} leaks ${card}`);
  }
  // The deck is there to leak: 44 undealt cards at the hole, 39 at the river.
  t.is(tableIn("STATUS_HOLE").deck.length, 44);
  t.is(tableIn("STATUS_RIVER").deck.length, 39);
});

test("cards appear as they are revealed: hands from the hole, flop, turn, river in order", (t) => {
  const expect = {
    STATUS_START: [false, 0],
    STATUS_HOLE: [true, 0],
    STATUS_FLOP: [true, 3],
    STATUS_TURN: [true, 4],
    STATUS_RIVER: [true, 5],
    STATUS_SETUP: [false, 0],
  } as const;
  for (const state of STATES) {
    const snapshot = tableIn(state);
    const view = publicState(snapshot);
    const [dealt, revealed] = expect[state];
    t.deepEqual(view.hands, dealt ? snapshot.hands : null, state);
    t.deepEqual(view.board, snapshot.board.slice(0, revealed), state);
    t.is(view.bettingStage, STAGE[state]);
    t.is(view.gameState, state);
  }
});

test("seats and bets are shown in cents and tenths; bets are those of the current game only", (t) => {
  const hole = tableIn("STATUS_HOLE");
  const view = publicState(hole);
  t.deepEqual(view.seats, [
    { seatId: 1, playerId: "p1", playerName: "Name p1", seatBalanceCents: 9_500, avatarImageUrl: "/a/p1.png" },
  ]);
  t.deepEqual(view.bets, [
    { playerId: "p1", bettingStage: 0, seatIndex: 1, handIndex: 1, betAmountCents: 500, recordedOddsTenths: 39 },
  ]);
  t.is(publicState(tableIn("STATUS_RIVER")).bets.length, 1, "the river still shows the settled game's bets");
  t.deepEqual(publicState(tableIn("STATUS_SETUP")).bets, []);
  t.like(view, { tableId: 7, gameId: "T7-1", numberOfHands: 4, numberOfSeats: 6 });
});

test("odds panels and favourite flags per stage, as the odds service carried them, for current and earlier stages", (t) => {
  const panelsAt = (state: GameState) => publicState(tableIn(state)).handOdds;
  t.deepEqual(panelsAt("STATUS_START"), []);
  t.deepEqual(panelsAt("STATUS_HOLE"), HOLE_PANELS);
  t.deepEqual(panelsAt("STATUS_FLOP"), [...HOLE_PANELS, ...FLOP_PANELS]);
  t.deepEqual(panelsAt("STATUS_TURN"), [...HOLE_PANELS, ...FLOP_PANELS, ...TURN_PANELS]);
  t.deepEqual(panelsAt("STATUS_RIVER"), [...HOLE_PANELS, ...FLOP_PANELS, ...TURN_PANELS, ...riverPanels([0])]);
  t.deepEqual(panelsAt("STATUS_SETUP"), []);
  const statuses = panelsAt("STATUS_RIVER").map((p) => `${p.bettingStage}:${p.handIndex}:${p.handStatus}`);
  t.deepEqual(statuses, [
    "0:0:IN_PLAY_FAVOURITE",
    "0:1:IN_PLAY_BETTING_STAGE_ACTIVE",
    "0:2:IN_PLAY_BETTING_STAGE_ACTIVE",
    "0:3:IN_PLAY_BETTING_STAGE_ACTIVE",
    "1:0:IN_PLAY_FAVOURITE",
    "1:1:IN_PLAY_BETTING_STAGE_ACTIVE",
    "1:2:IN_PLAY_BETTING_STAGE_ACTIVE",
    "1:3:DEAD_CANNOT_WIN",
    "2:0:IN_PLAY_FAVOURITE",
    "2:1:IN_PLAY_BETTING_STAGE_ACTIVE",
    "2:2:IN_PLAY_BETTING_STAGE_ACTIVE",
    "2:3:DEAD_CANNOT_WIN",
    "-1:0:WINNER",
    "-1:1:LOSER",
    "-1:2:LOSER",
    "-1:3:LOSER",
  ]);
  // A tie at the river: both tied hands are WINNERs.
  const tie = advance(advanceTo(tableIn("STATUS_HOLE"), "STATUS_TURN"), T0, riverPanels([1, 3]));
  t.deepEqual(
    publicState(tie)
      .handOdds.filter((p) => p.bettingStage === -1)
      .map((p) => p.handStatus),
    ["LOSER", "WINNER", "LOSER", "WINNER"],
  );
});

test("the view is a copy: changing it cannot touch the snapshot", (t) => {
  const snapshot = tableIn("STATUS_FLOP");
  const view = publicState(snapshot);
  view.hands!.push("x");
  (view.handOdds[0] as { oddsTenths: number }).oddsTenths = 999;
  t.is(snapshot.hands!.length, 4);
  t.is(snapshot.handOdds[0]!.oddsTenths, HOLE_PANELS[0]!.oddsTenths);
});

// ---------- lobby ----------

test("lobby: BETTING while a betting stage is open, otherwise WAITING; players counted", (t) => {
  const expect: Record<GameState, string> = {
    STATUS_START: "WAITING",
    STATUS_HOLE: "BETTING",
    STATUS_FLOP: "BETTING",
    STATUS_TURN: "BETTING",
    STATUS_RIVER: "WAITING",
    STATUS_SETUP: "WAITING",
  };
  for (const state of STATES) {
    t.deepEqual(lobbySummary(tableIn(state), T0), {
      tableId: 7,
      playerCount: 1,
      gameState: expect[state],
      active: true,
    });
  }
  t.is(lobbySummary(sit(sit(newTable(), "a"), "b"), T0).playerCount, 2);
  t.is(lobbySummary(newTable(), T0).playerCount, 0);
});

test("bettingOpen: a betting stage takes bets until an advance closes it; the lobby then shows WAITING", (t) => {
  for (const state of STATES) t.is(publicState(tableIn(state)).bettingOpen, STAGE[state] >= 0, state);
  for (const state of ["STATUS_HOLE", "STATUS_FLOP", "STATUS_TURN"] as const) {
    const shut = closed(tableIn(state));
    // Still the stage's state and number (the ruling's walk), but no bets taken.
    t.like(publicState(shut), { gameState: state, bettingStage: STAGE[state], bettingOpen: false });
    t.is(lobbySummary(shut, T0).gameState, "WAITING");
    // The reveal opens the next stage (the river takes no bets).
    const next = publicState(advance(tableIn(state)));
    t.not(next.gameState, state);
    t.is(next.bettingOpen, next.gameState !== "STATUS_RIVER");
  }
});

test("lobby: totalActivePlayers counts players, not seats: one seated at two tables is one", (t) => {
  const first = sit(sit(newTable(), "a"), "b");
  const second = sit(newTable(), "a");
  t.is(seatedPlayerCount([first, second]), 2);
  t.is(seatedPlayerCount([second]), 1);
  t.is(seatedPlayerCount([newTable()]), 0);
});

test("lobbyEntry: what a table adds to the lobby changes with its players and its state, not its balances", (t) => {
  const seated = sit(newTable(), "a", 100, T0);
  const entry = lobbyEntry(seated, T0);
  t.not(entry, null);
  t.is(lobbyEntry(applyTopUp(seated, { playerId: "a", amountCents: 5 }, T0 + 1).next!, T0 + 1), entry);
  t.not(lobbyEntry(sit(seated, "b", 100, T0), T0), entry, "another player");
  t.not(lobbyEntry(applyLeave(seated, { playerId: "a", transferId: "l" }, T0).next!, T0), entry, "a player gone");
  t.not(lobbyEntry(advance(seated), T0), entry, "a betting stage open");
  t.is(lobbyEntry(seated, T0 + ACTIVE_WINDOW_MS + 1), null, "not active: nothing in the lobby");
});

test("lobbyListedUntil: the lobby stands until its first active table leaves the window", (t) => {
  const early = sit(newTable(3), "a", 100, T0);
  const late = sit(newTable(5), "b", 100, T0 + 60_000);
  const gone = sit(newTable(9), "c", 100, T0 - 2 * ACTIVE_WINDOW_MS);
  t.is(lobbyListedUntil([late, gone, early], T0 + 60_000), T0 + ACTIVE_WINDOW_MS);
  t.true(lobbySummary(early, T0 + ACTIVE_WINDOW_MS).active);
  t.false(lobbySummary(early, T0 + ACTIVE_WINDOW_MS + 1).active);
  t.is(lobbyListedUntil([gone], T0), Infinity, "no active table: nothing leaves");
});

test("a player's seats: every table where the player sits, active or not, in table id order", (t) => {
  const later = sit(sit(newTable(9), "b", 300), "a", 450);
  const longAgo = sit(newTable(3), "a", 125, T0 - 10 * ACTIVE_WINDOW_MS);
  const elsewhere = sit(newTable(5), "b");
  t.deepEqual(seatsOf([later, elsewhere, longAgo], "a"), [
    { tableId: 3, seatId: 1, seatBalanceCents: 125 },
    { tableId: 9, seatId: 2, seatBalanceCents: 450 },
  ]);
  t.deepEqual(seatsOf([elsewhere], "a"), []);
  const lobby = lobbyOf([later, elsewhere, longAgo, sit(newTable(4), "c", 100, T0 - 10 * ACTIVE_WINDOW_MS)], T0);
  t.deepEqual(
    lobby.tables.map((table) => table.tableId),
    [5, 9],
    "the lobby lists only the active tables, by table id",
  );
  t.is(lobby.totalActivePlayers, 2, "a and b; c sits only at a table nobody played for long");
});

test("lobby: active for 30 minutes after the last player operation, inclusive", (t) => {
  const s = sit(newTable(), "p1", 100, T0);
  t.is(ACTIVE_WINDOW_MS, 1_800_000);
  t.true(lobbySummary(s, T0 + ACTIVE_WINDOW_MS).active);
  t.false(lobbySummary(s, T0 + ACTIVE_WINDOW_MS + 1).active);
  // Any player operation renews the window ...
  const later = applyTopUp(s, { playerId: "p1", amountCents: 1 }, T0 + 1_000_000).next!;
  t.true(lobbySummary(later, T0 + ACTIVE_WINDOW_MS + 1).active);
  // ... an outbox delivery report does not.
  const owing = applyLeave(sit(s, "p2", 1, T0), { playerId: "p2", transferId: "l" }, T0).next!;
  const delivered = markDelivered(owing, [owing.outbox[0]!.key], T0 + ACTIVE_WINDOW_MS)!;
  t.false(lobbySummary(delivered, T0 + ACTIVE_WINDOW_MS + 1).active);
});
