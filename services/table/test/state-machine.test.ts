import test from "ava";
import { ConflictError, ForbiddenError } from "@pokerodds/common/errors";
import { advanceKey, advancePlan, applyAdvance, closeBetting, placeAgainst } from "../src/domain/advance.js";
import { applyBet } from "../src/domain/bets.js";
import { checkedPanels } from "../src/domain/panels.js";
import { applyLeave, applySit, applyTopUp } from "../src/domain/seats.js";
import { bettingStageOf, emptyTable } from "../src/domain/snapshot.js";
import type { BettingStage, GameState, TableSnapshot } from "../src/domain/types.js";
import { UntrueOddsAnswerError } from "../src/domain/untrue-odds-answer.js";
import { publicState } from "../src/domain/view.js";
import {
  ADMIN,
  FLOP_PANELS,
  HOLE_PANELS,
  TURN_PANELS,
  T0,
  advance,
  advanceTo,
  bet,
  closed,
  dealInput,
  dealOf,
  deepFreeze,
  newTable,
  panels,
  riverPanels,
  sit,
} from "./helpers/fixtures.js";

const P1 = { playerId: "p1", isAdmin: false };
const STRANGER = { playerId: "stranger", isAdmin: false };

/** A table with p1 and p2 seated, in the given state (SETUP is reached through a whole game). */
function tableIn(state: GameState): TableSnapshot {
  const seated = sit(sit(newTable(), "p1"), "p2");
  if (state === "STATUS_SETUP") return advance(advanceTo(seated, "STATUS_RIVER"));
  return advanceTo(seated, state);
}

interface Row {
  from: GameState;
  to: GameState;
  kind: "DEAL" | "REVEAL" | "CLEAR";
  stage: BettingStage;
  reveal: number;
  /** Board cards and undealt cards after the advance. */
  board: number;
  deck: number;
  betting: boolean;
}

const ROWS: Row[] = [
  { from: "STATUS_START", to: "STATUS_HOLE", stage: 0, kind: "DEAL", reveal: 0, board: 0, deck: 44, betting: false },
  { from: "STATUS_SETUP", to: "STATUS_HOLE", stage: 0, kind: "DEAL", reveal: 0, board: 0, deck: 44, betting: false },
  { from: "STATUS_HOLE", to: "STATUS_FLOP", stage: 1, kind: "REVEAL", reveal: 3, board: 3, deck: 41, betting: true },
  { from: "STATUS_FLOP", to: "STATUS_TURN", stage: 2, kind: "REVEAL", reveal: 1, board: 4, deck: 40, betting: true },
  { from: "STATUS_TURN", to: "STATUS_RIVER", stage: -1, kind: "REVEAL", reveal: 1, board: 5, deck: 39, betting: true },
  { from: "STATUS_RIVER", to: "STATUS_SETUP", stage: -1, kind: "CLEAR", reveal: 0, board: 0, deck: 0, betting: false },
];

for (const row of ROWS) {
  test(`${row.from}: advance by a seated player -> ${row.to}`, (t) => {
    const before = tableIn(row.from);
    t.is(before.gameState, row.from);
    const plan = advancePlan(before, P1);
    t.is(plan.kind, row.kind);
    t.is(plan.from, row.from);
    t.is(plan.to, row.to);
    t.is(plan.gameId, before.gameId);
    if (plan.kind === "REVEAL") {
      t.deepEqual(plan.reveal, before.deck.slice(0, row.reveal));
      t.deepEqual(plan.board, [...before.board, ...plan.reveal]);
      t.deepEqual(plan.hands, before.hands);
    }
    if (plan.kind === "DEAL") t.is(plan.numberOfHands, 4);
    const after = advance(before, T0 + 1, undefined, P1);
    t.is(after.gameState, row.to);
    t.is(bettingStageOf(after.gameState), row.stage);
    t.is(after.board.length, row.board);
    t.is(after.deck.length, row.deck);
    // A reveal is two versions: the stage's betting closed, then the cards.
    t.is(after.version, before.version + (plan.kind === "REVEAL" ? 2 : 1));
    t.is(after.updatedAt, T0 + 1);
    t.is(after.lastActivityAt, T0 + 1);
    t.deepEqual(
      after.seats.map((s) => s.playerId),
      ["p1", "p2"],
    );
    if (row.to === "STATUS_SETUP") {
      t.is(after.hands, null);
      t.deepEqual([after.handOdds, after.bets], [[], []]);
      t.not(after.gameId, before.gameId);
    } else {
      t.is(after.gameId, before.gameId);
      t.is(after.hands?.length, 4);
    }
    // A reveal takes the front of the deck, in order.
    if (row.reveal > 0) t.deepEqual(after.board.slice(-row.reveal), before.deck.slice(0, row.reveal));
  });

  test(`${row.from}: advance by someone not seated is forbidden, by an admin allowed`, (t) => {
    const before = tableIn(row.from);
    t.throws(() => advancePlan(before, STRANGER), { instanceOf: ForbiddenError });
    t.is(advance(before, T0, undefined, { playerId: "ops", isAdmin: true }).gameState, row.to);
  });

  test(`${row.from}: a bet is ${row.betting ? "accepted" : "refused with 409"}`, (t) => {
    const before = tableIn(row.from);
    const command = { playerId: "p1", seatIndex: 1, handIndex: 0, betAmountCents: 100, betId: "b" };
    if (row.betting) {
      const { next, result } = applyBet(before, command, T0);
      t.true(result.acknowledged);
      t.is(next?.bets.length, before.bets.length + 1);
    } else {
      t.throws(() => applyBet(before, command, T0), { instanceOf: ConflictError });
    }
  });

  test(`${row.from}: sit and top-up are accepted and leave the state alone`, (t) => {
    const before = tableIn(row.from);
    const seated = applySit(
      before,
      { playerId: "p3", playerName: "P3", avatarImageUrl: "", amountCents: 500, transferId: "s3" },
      T0,
    ).next!;
    t.is(seated.gameState, row.from);
    t.deepEqual(seated.seats.at(-1), {
      seatId: 3,
      playerId: "p3",
      playerName: "P3",
      avatarImageUrl: "",
      balanceCents: 500,
      sessionId: "s3",
    });
    const topped = applyTopUp(before, { playerId: "p1", amountCents: 1 }, T0).next!;
    t.is(topped.gameState, row.from);
    t.is(topped.seats[0]!.balanceCents, before.seats[0]!.balanceCents + 1);
  });

  test(`${row.from}: a leave that leaves others seated keeps the game; the last leave resets to STATUS_START`, (t) => {
    const before = tableIn(row.from);
    const first = applyLeave(before, { playerId: "p1", transferId: "l1" }, T0).next!;
    t.is(first.gameState, row.from);
    t.is(first.gameId, before.gameId);
    const last = applyLeave(first, { playerId: "p2", transferId: "l2" }, T0).next!;
    t.is(last.gameState, "STATUS_START");
    t.deepEqual(last.seats, []);
    // Mid-game (and after the river) the table starts a fresh game; before a deal it keeps its id.
    const fresh = row.from !== "STATUS_START" && row.from !== "STATUS_SETUP";
    t.is(last.gameId === before.gameId, !fresh);
    t.is(last.finishedGame?.outcome, row.betting ? "VOID" : undefined);
    if (fresh) t.deepEqual([last.hands, last.board, last.deck, last.handOdds, last.bets], [null, [], [], [], []]);
  });
}

test("a whole game walks START, HOLE, FLOP, TURN, RIVER, SETUP, HOLE with stages 0, 1, 2, -1", (t) => {
  let s = sit(newTable(3), "p1");
  const seen: [GameState, number, string][] = [[s.gameState, bettingStageOf(s.gameState), s.gameId]];
  for (let i = 0; i < 6; i++) {
    s = advance(s);
    seen.push([s.gameState, bettingStageOf(s.gameState), s.gameId]);
  }
  t.deepEqual(seen, [
    ["STATUS_START", -1, "T3-1"],
    ["STATUS_HOLE", 0, "T3-1"],
    ["STATUS_FLOP", 1, "T3-1"],
    ["STATUS_TURN", 2, "T3-1"],
    ["STATUS_RIVER", -1, "T3-1"],
    ["STATUS_SETUP", -1, "T3-2"],
    ["STATUS_HOLE", 0, "T3-2"],
  ]);
});

test("the deal stores the hands and the remaining deck in draw order; every card appears once", (t) => {
  const hole = advance(sit(newTable(), "p1"));
  const { hands, remainingDeck } = dealOf(hole.gameId);
  t.deepEqual(hole.hands, hands);
  t.deepEqual(hole.deck, remainingDeck);
  const river = advanceTo(hole, "STATUS_RIVER");
  t.deepEqual(river.board, remainingDeck.slice(0, 5));
  const cards = [...river.hands!.flatMap((h) => [h.slice(0, 2), h.slice(2)]), ...river.board, ...river.deck];
  t.is(new Set(cards).size, 52);
});

test("the deal fixes the game's target RTP: every reveal asks for it, the state shows it, the next game starts without", (t) => {
  const start = sit(newTable(), "p1");
  t.is(publicState(start).targetRtp, null);
  const hole = applyAdvance(start, advancePlan(start, ADMIN), { ...dealInput(), targetRtp: 0.9 }, T0);
  t.is(publicState(hole).targetRtp, 0.9);
  let s = hole;
  for (const state of ["STATUS_FLOP", "STATUS_TURN", "STATUS_RIVER"] as const) {
    const plan = advancePlan(s, ADMIN);
    t.is(plan.kind === "REVEAL" && plan.targetRtp, 0.9, state);
    s = advanceTo(s, state);
    t.is(publicState(s).targetRtp, 0.9, state);
  }
  const setup = advance(s);
  t.is(setup.deal, null);
  t.is(publicState(setup).targetRtp, null);
});

test("a game keeps when each stage took bets: from its cards to the advance that closes it for the next", (t) => {
  const stagesOf = (s: TableSnapshot) => s.deal?.stages;
  const start = sit(newTable(), "p1");
  t.is(start.deal, null);
  const hole = advance(start, T0 + 1);
  t.deepEqual(stagesOf(hole), [{ bettingStage: 0, openedAt: T0 + 1, closedAt: null }]);
  t.like(hole.deal, { dealtBy: ADMIN.playerId, targetRtp: 0.97 }, "and who dealt");
  t.is(advance(sit(newTable(), "p1"), T0, undefined, P1).deal?.dealtBy, "p1");
  const toFlop = advancePlan(hole, ADMIN);
  const holeClosed = closeBetting(hole, toFlop, T0 + 2)!;
  const holeTimes = { bettingStage: 0, openedAt: T0 + 1, closedAt: T0 + 2 };
  t.deepEqual(stagesOf(holeClosed), [holeTimes]);
  const flop = applyAdvance(holeClosed, toFlop, { kind: "REVEAL", handOdds: FLOP_PANELS }, T0 + 3);
  t.deepEqual(stagesOf(flop), [holeTimes, { bettingStage: 1, openedAt: T0 + 3, closedAt: null }]);
  const river = advance(advance(flop, T0 + 4), T0 + 5);
  t.deepEqual(stagesOf(river), [
    holeTimes,
    { bettingStage: 1, openedAt: T0 + 3, closedAt: T0 + 4 },
    { bettingStage: 2, openedAt: T0 + 4, closedAt: T0 + 5 },
  ]);
  t.is(advance(river, T0 + 6).deal, null, "the next game starts with none");
});

test("an advance's from: the table is at it, past it or before it in its game, or in another game", (t) => {
  const flop = tableIn("STATUS_FLOP");
  const named = (gameState: GameState, gameId = flop.gameId) => placeAgainst(flop, { gameId, gameState });
  t.is(named("STATUS_FLOP"), "at");
  for (const state of ["STATUS_START", "STATUS_HOLE"] as const) t.is(named(state), "past", state);
  for (const state of ["STATUS_TURN", "STATUS_RIVER"] as const) t.is(named(state), "before", state);
  t.is(named("STATUS_FLOP", "T7-99"), "otherGame");
  t.not(
    advanceKey(7, { gameId: "T7-1", gameState: "STATUS_HOLE" }),
    advanceKey(7, { gameId: "T7-1", gameState: "STATUS_FLOP" }),
  );
});

test("an advance's from: SETUP and START are one place, as the last leave turns one into the other", (t) => {
  const setup = tableIn("STATUS_SETUP");
  const first = applyLeave(setup, { playerId: "p1", transferId: "l1" }, T0).next!;
  const { next: emptied } = applyLeave(first, { playerId: "p2", transferId: "l2" }, T0);
  t.like(emptied, { gameId: setup.gameId, gameState: "STATUS_START" });
  for (const gameState of ["STATUS_SETUP", "STATUS_START"] as const) {
    t.is(placeAgainst(setup, { gameId: setup.gameId, gameState }), "at");
    t.is(placeAgainst(emptied!, { gameId: setup.gameId, gameState }), "at");
    t.is(advanceKey(7, { gameId: setup.gameId, gameState }), `advance:7:${setup.gameId}:STATUS_START`);
  }
  const dealt = advance(emptied!);
  t.is(placeAgainst(dealt, { gameId: setup.gameId, gameState: "STATUS_SETUP" }), "past", "dealt from START");
});

test("a reveal closes its stage's betting first: a bet then is refused with 409, and the reveal opens the next stage", (t) => {
  const flop = advanceTo(sit(sit(newTable(), "p1"), "p2"), "STATUS_FLOP");
  const plan = advancePlan(flop, P1);
  // Without the close, the reveal is an internal fault: the odds service would see cards still bettable.
  t.throws(() => applyAdvance(flop, plan, { kind: "REVEAL", handOdds: TURN_PANELS }, T0), { instanceOf: RangeError });
  const shut = closeBetting(flop, plan, T0)!;
  t.like(shut, { gameState: "STATUS_FLOP", version: flop.version + 1, bettingClosed: true, board: flop.board });
  t.is(closeBetting(shut, plan, T0), null, "closed once");
  const seatIndex = flop.seats.find((seat) => seat.playerId === "p1")!.seatId;
  const late = { playerId: "p1", seatIndex, handIndex: 0, betAmountCents: 100, betId: "late" };
  t.throws(() => applyBet(shut, late, T0), {
    instanceOf: ConflictError,
    message: /bet not placed: betting at this stage has closed/,
  });
  const turn = applyAdvance(shut, plan, { kind: "REVEAL", handOdds: TURN_PANELS }, T0);
  t.like(turn, { gameState: "STATUS_TURN", bettingClosed: false });
  t.true(applyBet(turn, late, T0).result.acknowledged);
  // Nothing to close for a deal or a clear; a plan the table has moved on from is planned again.
  const start = sit(newTable(), "p1");
  t.is(closeBetting(start, advancePlan(start, P1), T0), null);
  t.throws(() => closeBetting(turn, plan, T0), { instanceOf: ConflictError });
});

test("a plan made before the table moved on is refused with 409; plan again", (t) => {
  const hole = tableIn("STATUS_HOLE");
  const stale = advancePlan(hole, P1);
  const flop = advance(hole);
  t.throws(() => applyAdvance(flop, stale, { kind: "REVEAL", handOdds: FLOP_PANELS }, T0), {
    instanceOf: ConflictError,
  });
  // Same state but a new game (river -> setup -> ... -> hole again) is also stale.
  const nextHole = advanceTo(advance(advanceTo(flop, "STATUS_RIVER")), "STATUS_HOLE");
  t.is(nextHole.gameState, "STATUS_HOLE");
  t.throws(() => applyAdvance(nextHole, stale, { kind: "REVEAL", handOdds: FLOP_PANELS }, T0), {
    instanceOf: ConflictError,
  });
});

test("an advance whose planner left after its stage closed is finished, not refused halfway", (t) => {
  const hole = tableIn("STATUS_HOLE");
  const plan = advancePlan(hole, P1);
  const closed = closeBetting(hole, plan, T0)!;
  const left = applyLeave(closed, { playerId: "p1", transferId: "l" }, T0).next!;
  t.true(left.seats.length > 0, "another player is still seated: the game goes on");
  const flop = applyAdvance(left, plan, { kind: "REVEAL", handOdds: FLOP_PANELS }, T0);
  t.is(flop.gameState, "STATUS_FLOP");
  t.false(flop.bettingClosed);
  // The caller is checked when an advance is planned: one who has left may not begin another.
  t.throws(() => advancePlan(flop, P1), { instanceOf: ForbiddenError });
});

test("an advance whose planner left before it began (a close, a deal, a clear) is refused with 403", (t) => {
  const leave = (s: TableSnapshot) => applyLeave(s, { playerId: "p1", transferId: "l" }, T0).next!;
  const hole = tableIn("STATUS_HOLE");
  t.throws(() => closeBetting(leave(hole), advancePlan(hole, P1), T0), { instanceOf: ForbiddenError });
  // The lone player plans a deal and leaves: the table stays at START, and nobody seated is dealt to.
  const start = sit(newTable(), "p1");
  const deal = advancePlan(start, P1);
  const empty = leave(start);
  t.is(empty.gameState, "STATUS_START");
  t.throws(() => applyAdvance(empty, deal, dealInput(), T0), { instanceOf: ForbiddenError });
  const river = tableIn("STATUS_RIVER");
  t.throws(() => applyAdvance(leave(river), advancePlan(river, P1), { kind: "CLEAR" }, T0), {
    instanceOf: ForbiddenError,
  });
});

test("odds input that does not fit the plan is refused, and nothing is produced", (t) => {
  const start = sit(newTable(), "p1");
  const deal = advancePlan(start, ADMIN);
  const good = dealInput();
  const bad = (input: Parameters<typeof applyAdvance>[2], plan = deal, from = start) =>
    t.throws(() => applyAdvance(from, plan, input, T0), { instanceOf: RangeError });
  bad({ kind: "REVEAL", handOdds: FLOP_PANELS });
  bad({ ...good, handOdds: HOLE_PANELS.slice(1) });
  bad({ ...good, handOdds: FLOP_PANELS }); // wrong stage
  bad({ ...good, handOdds: HOLE_PANELS.map((p, i) => (i === 1 ? { ...p, handIndex: 2 } : p)) });
  bad({ ...good, handOdds: HOLE_PANELS.map((p, i) => (i === 1 ? { ...p, oddsTenths: 0 } : p)) });
  bad({ ...good, handOdds: HOLE_PANELS.map((p, i) => (i === 1 ? { ...p, oddsTenths: 2.5 } : p)) });
  bad({ ...good, handOdds: HOLE_PANELS.map((p, i) => (i === 1 ? { ...p, winPercentage: 101 } : p)) });
  bad({ ...good, handOdds: HOLE_PANELS.map((p, i) => (i === 1 ? { ...p, handStatus: "WINNER" } : p)) });
  for (const targetRtp of [0, 1, 1.2, -0.5, Number.NaN]) bad({ ...good, targetRtp });
  t.is(applyAdvance(start, deal, good, T0).gameState, "STATUS_HOLE");

  const turn = advanceTo(start, "STATUS_TURN");
  const toRiver = advancePlan(turn, ADMIN);
  bad({ kind: "REVEAL", handOdds: riverPanels([]) }, toRiver, turn); // nobody wins
  bad(
    {
      kind: "REVEAL",
      handOdds: panels(-1, [
        [100, 0, 10],
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ]),
    },
    toRiver,
    turn,
  );
  bad({ kind: "CLEAR" }, toRiver, turn);
  // An input of another kind than the plan's is refused, even with panels that would fit the plan.
  bad({ ...good, handOdds: riverPanels([0]) }, toRiver, closed(turn));
  // The deck must hold the cards to reveal: one is enough for the river, none is not.
  const closedTurn = closed(turn);
  const lastCard = applyAdvance(
    { ...closedTurn, deck: closedTurn.deck.slice(0, 1) },
    toRiver,
    { kind: "REVEAL", handOdds: riverPanels([0]) },
    T0,
  );
  t.is(lastCard.board.length, 5);
  t.deepEqual(lastCard.deck, []);
  bad({ kind: "REVEAL", handOdds: riverPanels([0]) }, toRiver, { ...closedTurn, deck: [] });
});

test("river panels that name no winner are refused: the house would keep every stake", (t) => {
  t.throws(() => checkedPanels(riverPanels([]), 4, -1), { instanceOf: UntrueOddsAnswerError, message: /no winner/ });
  const staked = bet(advance(sit(newTable(), "p1", 100_000)), "p1", 0, 1_000);
  t.throws(() => advance(advanceTo(staked, "STATUS_TURN"), T0, riverPanels([])), { instanceOf: UntrueOddsAnswerError });
});

test("a table with other parameters: seats and hands are configurable", (t) => {
  const s = deepFreeze(emptyTable(2, T0, { numberOfSeats: 2, numberOfHands: 3 }));
  t.deepEqual(s.config, { numberOfSeats: 2, numberOfHands: 3, maxPayoutCents: 100_000_000_000_000 });
  const plan = advancePlan(s, ADMIN);
  t.is(plan.kind === "DEAL" && plan.numberOfHands, 3);
  const full = sit(sit(s, "a"), "b");
  t.deepEqual(
    applySit(full, { playerId: "c", playerName: "", avatarImageUrl: "", amountCents: 1, transferId: "x" }, T0).result,
    { acknowledged: false, message: "table full", seatId: 0, seatBalanceCents: 0 },
  );
  const hole = applyAdvance(
    full,
    advancePlan(full, ADMIN),
    {
      ...dealInput(),
      handOdds: panels(0, [
        [40, 1, 24],
        [30, 1, 32],
        [29, 1, 33],
      ]),
    },
    T0,
  );
  t.is(hole.deck.length, 46);
});

test("emptyTable: STATUS_START, game 1, nothing held; bad parameters are refused", (t) => {
  const s = emptyTable(12, T0);
  t.like(s, { tableId: 12, version: 1, gameId: "T12-1", gameState: "STATUS_START", hands: null, finishedGame: null });
  t.deepEqual(s.totals, { creditedCents: 0, deliveredCents: 0, houseResultCents: 0 });
  t.throws(() => emptyTable(0, T0));
  t.throws(() => emptyTable(1.5, T0));
  t.throws(() => emptyTable(1, T0, { numberOfHands: 7 }));
  t.throws(() => emptyTable(1, T0, { numberOfSeats: 0 }));
  t.throws(() => emptyTable(1, Number.NaN));
});
