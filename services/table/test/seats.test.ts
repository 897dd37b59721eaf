import test, { type ExecutionContext } from "ava";
import fc from "fast-check";
import { ConflictError, IdempotencyMismatchError, InvalidArgumentError } from "@pokerodds/common/errors";
import { MAX_AMOUNT_CENTS, MAX_BALANCE_CENTS } from "@pokerodds/common/limits";
import { type SitCommand, applyLeave, applySit, applyTopUp, sitPreconditions } from "../src/domain/seats.js";
import { TABLE_CREDIT_MAX_CENTS, isConserved, markDelivered, tableMoney } from "../src/domain/snapshot.js";
import type { TableSnapshot } from "../src/domain/types.js";
import { T0, advance, advanceTo, balanceOf, bet, deepFreeze, newTable, sit } from "./helpers/fixtures.js";

const sitCmd = (over: Partial<SitCommand> = {}): SitCommand => ({
  playerId: "p1",
  playerName: "Ann",
  avatarImageUrl: "/img/ann.png",
  amountCents: 5_000,
  transferId: "sit-1",
  ...over,
});

const leave = (s: TableSnapshot, playerId: string, transferId = `leave-${playerId}`, now = T0) =>
  applyLeave(s, { playerId, transferId }, now);

// ---------- sit ----------

test("sit seats the player at the lowest free seatId (no bets yet) with the buy-in, and counts the credit", (t) => {
  const { next, result } = applySit(newTable(), sitCmd(), T0 + 3);
  t.deepEqual(result, { acknowledged: true, seatId: 1, seatBalanceCents: 5_000 });
  t.deepEqual(next!.seats, [
    {
      seatId: 1,
      playerId: "p1",
      playerName: "Ann",
      avatarImageUrl: "/img/ann.png",
      balanceCents: 5_000,
      sessionId: "sit-1",
    },
  ]);
  t.is(next!.totals.creditedCents, 5_000);
  t.is(next!.lastActivityAt, T0 + 3);
  // Seat 2 freed: the next player gets it, seats stay ordered by seatId.
  let s = sit(sit(sit(newTable(), "a"), "b"), "c");
  s = deepFreeze(leave(s, "b").next!);
  s = sit(s, "d");
  t.deepEqual(
    s.seats.map((x) => [x.seatId, x.playerId]),
    [
      [1, "a"],
      [2, "d"],
      [3, "c"],
    ],
  );
});

test("sitPreconditions: already seated, table full, or ok", (t) => {
  let s = newTable();
  t.deepEqual(sitPreconditions(s, "p1", 5_000), { ok: true });
  for (const p of ["p1", "p2", "p3", "p4", "p5", "p6"]) s = sit(s, p);
  t.deepEqual(sitPreconditions(s, "p1", 5_000), {
    ok: false,
    message: "already seated at this table",
    seatId: 1,
    seatBalanceCents: 10_000,
  });
  t.deepEqual(sitPreconditions(s, "p7", 5_000), { ok: false, message: "table full", seatId: 0, seatBalanceCents: 0 });
});

/**
 * A table that has taken in all but `roomCents` of TABLE_CREDIT_MAX_CENTS (nearly all of it paid
 * out long ago), with p1 seated at 10,000: conserved, as a stored table is.
 */
function nearMoneyLimit(roomCents: number): TableSnapshot {
  const seated = sit(newTable(), "p1", 10_000);
  const creditedCents = TABLE_CREDIT_MAX_CENTS - roomCents;
  const table = { ...seated, totals: { ...seated.totals, creditedCents, deliveredCents: creditedCents - 10_000 } };
  return deepFreeze(table);
}

test("money in past the table's money limit is refused: a sit is a NACK, a top-up a conflict", (t) => {
  const s = nearMoneyLimit(5_000);
  t.true(isConserved(tableMoney(s)));
  const refused = { ok: false, message: "table money limit reached", seatId: 0, seatBalanceCents: 0 };
  t.deepEqual(sitPreconditions(s, "p2", 5_001), refused);
  t.deepEqual(applySit(s, sitCmd({ playerId: "p2", amountCents: 5_001 }), T0), {
    next: null,
    result: { acknowledged: false, message: "table money limit reached", seatId: 0, seatBalanceCents: 0 },
  });
  t.throws(() => applyTopUp(s, { playerId: "p1", amountCents: 5_001 }, T0), {
    instanceOf: ConflictError,
    message: "table money limit reached",
  });
  // Up to the limit itself, money is taken.
  t.deepEqual(sitPreconditions(s, "p2", 5_000), { ok: true });
  t.is(applyTopUp(s, { playerId: "p1", amountCents: 5_000 }, T0).next!.totals.creditedCents, TABLE_CREDIT_MAX_CENTS);
});

test("a table at its money limit still lets every player leave and every credit be delivered", (t) => {
  // The house lost 2^51 cents at this table over its life, most of it paid out long ago: what leaves
  // the table in all is more than it ever took in.
  let s = sit(nearMoneyLimit(5_000), "p2", 5_000);
  const won = 400_000_000_000_000;
  const house = -(2 ** 51);
  s = deepFreeze({
    ...s,
    seats: s.seats.map((seat) => ({ ...seat, balanceCents: seat.balanceCents + won })),
    totals: { ...s.totals, houseResultCents: house, deliveredCents: s.totals.deliveredCents - 2 * won - house },
  });
  t.true(isConserved(tableMoney(s)));
  for (const playerId of ["p1", "p2"]) s = deepFreeze(leave(s, playerId).next!);
  const keys = s.outbox.map((c) => c.key);
  s = deepFreeze(markDelivered(s, keys, T0 + 1)!);
  t.deepEqual(s.outbox, []);
  t.is(s.totals.deliveredCents, TABLE_CREDIT_MAX_CENTS - house);
  t.true(Number.isSafeInteger(s.totals.deliveredCents) && isConserved(tableMoney(s)));
});

const MONEY_LIMIT = "table money limit reached";

/** One sit, top-up or leave of the property below, applied as the sagas would: a refusal changes nothing. */
function moveNearLimit(t: ExecutionContext, s: TableSnapshot, move: Move, i: number): TableSnapshot {
  const { kind, playerId, amountCents } = move;
  const room = TABLE_CREDIT_MAX_CENTS - s.totals.creditedCents;
  if (kind === "leave") return leave(s, playerId).next ?? s;
  if (kind === "sit") {
    const { next, result } = applySit(s, sitCmd({ playerId, amountCents, transferId: `sit-${i}` }), T0);
    if (!result.acknowledged && result.message === MONEY_LIMIT) t.true(amountCents > room);
    if (result.acknowledged) t.true(amountCents <= room);
    return next ?? s;
  }
  try {
    return applyTopUp(s, { playerId, amountCents }, T0).next!;
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    if (error.message === MONEY_LIMIT) t.true(amountCents > room);
    return s;
  }
}

interface Move {
  kind: "sit" | "topup" | "leave";
  playerId: string;
  amountCents: number;
}

test("property: near its money limit a table takes exactly what fits, stays conserved, and every seat leaves whole", (t) => {
  const move = fc.record({
    kind: fc.constantFrom("sit" as const, "topup" as const, "leave" as const),
    playerId: fc.constantFrom("p1", "p2", "p3", "p4"),
    amountCents: fc.integer({ min: 1, max: MAX_AMOUNT_CENTS }),
  });
  const room = fc.integer({ min: 0, max: 3 * MAX_AMOUNT_CENTS });
  fc.assert(
    fc.property(room, fc.array(move, { maxLength: 30 }), (start, moves) => {
      let s = nearMoneyLimit(start);
      moves.forEach((m, i) => {
        s = deepFreeze(moveNearLimit(t, s, m, i));
        t.true(s.totals.creditedCents <= TABLE_CREDIT_MAX_CENTS && isConserved(tableMoney(s)));
      });
      for (const { playerId } of s.seats) s = deepFreeze(leave(s, playerId).next!);
      const keys = s.outbox.map((c) => c.key);
      if (keys.length > 0) s = markDelivered(s, keys, T0 + 1)!;
      t.deepEqual([s.seats, s.outbox], [[], []]);
      t.true(isConserved(tableMoney(s)));
    }),
  );
});

test("sit is a NACK (nothing stored) when the table filled up or the player got seated meanwhile", (t) => {
  let s = newTable();
  for (const p of ["p1", "p2", "p3", "p4", "p5", "p6"]) s = sit(s, p);
  t.deepEqual(applySit(s, sitCmd({ playerId: "p7", transferId: "x" }), T0), {
    next: null,
    result: { acknowledged: false, message: "table full", seatId: 0, seatBalanceCents: 0 },
  });
  t.deepEqual(applySit(s, sitCmd({ playerId: "p2", transferId: "y" }), T0), {
    next: null,
    result: { acknowledged: false, message: "already seated at this table", seatId: 2, seatBalanceCents: 10_000 },
  });
});

test("a replayed sit transfer answers the recorded seat and credits nothing", (t) => {
  const first = deepFreeze(applySit(newTable(), sitCmd(), T0).next!);
  t.deepEqual(applySit(first, sitCmd(), T0), {
    next: null,
    result: { acknowledged: true, seatId: 1, seatBalanceCents: 5_000 },
  });
  t.throws(() => applySit(first, sitCmd({ playerId: "p2" }), T0), { instanceOf: IdempotencyMismatchError });
  // After the seat has bet (its outcome unrecorded: a crash), a replay still answers the sit's own buy-in.
  const after = bet(advance(first), "p1", 0, 1_000);
  t.is(balanceOf(after, "p1"), 4_000);
  t.deepEqual(applySit(after, sitCmd(), T0).result, { acknowledged: true, seatId: 1, seatBalanceCents: 5_000 });
});

test("sit validates its input (400)", (t) => {
  for (const amountCents of [0, -5, 1.5, Number.NaN, MAX_AMOUNT_CENTS + 1, 2 ** 53]) {
    t.throws(() => applySit(newTable(), sitCmd({ amountCents }), T0), { instanceOf: InvalidArgumentError });
  }
  t.throws(() => applySit(newTable(), sitCmd({ playerId: "" }), T0), { instanceOf: InvalidArgumentError });
  t.throws(() => applySit(newTable(), sitCmd({ transferId: "" }), T0), { instanceOf: InvalidArgumentError });
  for (const bad of [{ playerName: 7 }, { avatarImageUrl: null }]) {
    const command = sitCmd(bad as unknown as Partial<SitCommand>);
    t.throws(() => applySit(newTable(), command, T0), {
      instanceOf: InvalidArgumentError,
      message: /must be a string/,
    });
  }
});

// ---------- top-up ----------

test("top-up adds to the seat in any state, which keeps no record of it; not seated is 409", (t) => {
  const hole = advanceTo(sit(newTable(), "p1", 1_000), "STATUS_FLOP");
  const { next, result } = applyTopUp(hole, { playerId: "p1", amountCents: 250 }, T0 + 1);
  t.deepEqual(result, { seatBalanceCents: 1_250 });
  // However many top-ups, the seat stays the same size (a replay is the store's to catch, by its key).
  t.deepEqual(next!.seats[0], { ...hole.seats[0]!, balanceCents: 1_250 });
  t.is(next!.totals.creditedCents, 1_250);
  t.is(next!.gameState, "STATUS_FLOP");
  const topped = deepFreeze(next!);
  t.throws(() => applyTopUp(topped, { playerId: "p9", amountCents: 1 }, T0), {
    instanceOf: ConflictError,
  });
  t.throws(() => applyTopUp(topped, { playerId: "p1", amountCents: 0 }, T0), {
    instanceOf: InvalidArgumentError,
  });
  t.throws(() => applyTopUp(topped, { playerId: "p1", amountCents: MAX_AMOUNT_CENTS + 1 }, T0), {
    instanceOf: InvalidArgumentError,
  });
  // A seat may hold up to the largest balance an account may, and no more.
  const nearLimit = {
    ...topped,
    seats: [{ ...topped.seats[0]!, balanceCents: MAX_BALANCE_CENTS - 100 }],
    totals: { ...topped.totals, creditedCents: MAX_BALANCE_CENTS - 100 },
  };
  const full = applyTopUp(nearLimit, { playerId: "p1", amountCents: 100 }, T0);
  t.deepEqual(full.result, { seatBalanceCents: MAX_BALANCE_CENTS });
  t.throws(() => applyTopUp(nearLimit, { playerId: "p1", amountCents: 101 }, T0), {
    instanceOf: ConflictError,
    message: "seat balance limit reached",
  });
});

// ---------- leave ----------

test("leave frees the seat and owes its whole balance to the account through the outbox", (t) => {
  const s = sit(sit(newTable(), "p1", 1_234), "p2");
  const { next, result } = leave(s, "p1", "leave-req-9", T0 + 4);
  t.deepEqual(result, { creditsReturnedCents: 1_234 });
  t.deepEqual(
    next!.seats.map((x) => x.playerId),
    ["p2"],
  );
  t.deepEqual(next!.outbox, [
    {
      key: "table:T7:leave:sit-p1-1",
      playerId: "p1",
      amountCents: 1_234,
      reason: "LEAVE",
      reference: "leave-req-9",
      createdAt: T0 + 4,
    },
  ]);
  t.is(next!.gameState, "STATUS_START");
});

test("leave is idempotent: not seated answers 0 and stores nothing", (t) => {
  const s = sit(sit(newTable(), "p1"), "p2");
  const once = deepFreeze(leave(s, "p1").next!);
  t.deepEqual(leave(once, "p1"), { next: null, result: { creditsReturnedCents: 0 } });
  t.deepEqual(leave(newTable(), "nobody"), { next: null, result: { creditsReturnedCents: 0 } });
});

test("leaving with a zero seat balance returns 0 and owes nothing", (t) => {
  let s = advance(sit(sit(newTable(), "p1", 100), "p2"));
  s = bet(s, "p1", 0, 100);
  const { next, result } = leave(s, "p1");
  t.deepEqual(result, { creditsReturnedCents: 0 });
  t.deepEqual(next!.outbox, []);
  t.is(next!.seats.length, 1);
});

test("each seat session has its own leave key: sit, leave, sit, leave gives two credits", (t) => {
  let s = sit(newTable(), "p2");
  s = sit(s, "p1", 100);
  s = deepFreeze(leave(s, "p1", "same-request").next!);
  s = sit(s, "p1", 200);
  s = deepFreeze(leave(s, "p1", "same-request").next!);
  t.deepEqual(
    s.outbox.map((c) => [c.key, c.amountCents]),
    [
      ["table:T7:leave:sit-p1-2", 100],
      ["table:T7:leave:sit-p1-4", 200],
    ],
  );
});

test("a leave asked for an earlier seat session leaves the player's new seat alone", (t) => {
  let s = sit(newTable(), "p1", 100);
  const earlier = s.seats[0]!.sessionId;
  s = deepFreeze(leave(s, "p1").next!);
  s = sit(s, "p1", 200);
  t.deepEqual(applyLeave(s, { playerId: "p1", transferId: "late", sessionId: earlier }, T0), {
    next: null,
    result: { creditsReturnedCents: 0 },
  });
  const current = s.seats[0]!.sessionId;
  t.like(applyLeave(s, { playerId: "p1", transferId: "late", sessionId: current }, T0).result, {
    creditsReturnedCents: 200,
  });
});

// ---------- void ----------

for (const state of ["STATUS_HOLE", "STATUS_FLOP", "STATUS_TURN"] as const) {
  test(`${state}: the last player leaving voids the game and refunds every open bet to its account`, (t) => {
    let s = advance(sit(sit(newTable(), "p1", 10_000), "p2", 10_000));
    s = bet(s, "p1", 0, 1_000, "a");
    s = bet(s, "p2", 1, 300, "b");
    s = bet(s, "p1", 2, 50, "c");
    s = advanceTo(s, state);
    s = deepFreeze(leave(s, "p2", "l2").next!); // p2 leaves first; the game goes on
    t.is(s.gameState, state);
    const { next, result } = leave(s, "p1", "l1", T0 + 8);
    t.deepEqual(result, { creditsReturnedCents: 8_950 });
    t.like(next, {
      gameState: "STATUS_START",
      gameId: "T7-2",
      hands: null,
      board: [],
      deck: [],
      handOdds: [],
      bets: [],
    });
    t.deepEqual(
      next!.outbox.map((c) => [c.key, c.playerId, c.amountCents, c.reason, c.reference]),
      [
        ["table:T7:leave:sit-p2-2", "p2", 9_700, "LEAVE", "l2"],
        ["table:T7:leave:sit-p1-1", "p1", 8_950, "LEAVE", "l1"],
        ["table:T7-1:refund:p1", "p1", 1_050, "VOID_REFUND", "T7-1"],
        ["table:T7-1:refund:p2", "p2", 300, "VOID_REFUND", "T7-1"],
      ],
    );
    t.like(next!.finishedGame, {
      gameId: "T7-1",
      outcome: "VOID",
      finishedAt: T0 + 8,
      stakesCents: 1_350,
      payoutsCents: 0,
      refundsCents: 1_350,
      houseResultCents: 0,
    });
    t.deepEqual(
      next!.finishedGame!.bets.map((b) => [b.betId, b.returnedCents, b.remainderNumerator, b.paidTo]),
      [
        ["a", 1_000, 0, "ACCOUNT"],
        ["b", 300, 0, "ACCOUNT"],
        ["c", 50, 0, "ACCOUNT"],
      ],
    );
    // Nothing is kept from a refund: no winners, no fraction of a cent (0 / 1, as `npm run verify` expects).
    t.deepEqual(next!.finishedGame!.winningHands, []);
    t.deepEqual(next!.finishedGame!.roundingRemainder, { numerator: 0, denominator: 1 });
    // Everything that was credited is owed back to the accounts; the house neither won nor lost.
    t.deepEqual(tableMoney(next!), {
      seatsCents: 0,
      openStakesCents: 0,
      outboxCents: 20_000,
      deliveredCents: 0,
      houseResultCents: 0,
      creditedCents: 20_000,
    });
  });
}

test("the last player leaving after the river settles nothing again: a fresh game in STATUS_START", (t) => {
  let s = advance(sit(newTable(), "p1", 10_000));
  s = bet(s, "p1", 0, 1_000);
  s = advanceTo(s, "STATUS_RIVER");
  const settled = balanceOf(s, "p1")!;
  const { next, result } = leave(s, "p1");
  t.is(result.creditsReturnedCents, settled);
  t.like(next, { gameState: "STATUS_START", gameId: "T7-2", finishedGame: null });
  t.deepEqual(
    next!.outbox.map((c) => c.reason),
    ["LEAVE"],
  );
  t.is(tableMoney(next!).houseResultCents, s.totals.houseResultCents);
});

// ---------- outbox delivery ----------

test("markDelivered moves delivered credits out of the outbox; repeats and unknown keys change nothing", (t) => {
  let s = sit(sit(sit(newTable(), "p1", 100), "p2", 200), "p3", 300);
  s = deepFreeze(leave(s, "p1").next!);
  s = deepFreeze(leave(s, "p2").next!);
  const activity = s.lastActivityAt;
  const [k1, k2] = s.outbox.map((c) => c.key);
  const once = deepFreeze(markDelivered(s, [k1!, "unknown"], T0 + 60_000)!);
  t.deepEqual(
    once.outbox.map((c) => c.key),
    [k2],
  );
  t.is(once.totals.deliveredCents, 100);
  t.is(once.version, s.version + 1);
  t.is(once.updatedAt, T0 + 60_000);
  t.is(once.lastActivityAt, activity, "delivery is not table activity");
  t.is(markDelivered(once, [k1!], T0), null);
  t.is(markDelivered(once, [], T0), null);
  const all = markDelivered(once, [k2!], T0)!;
  t.deepEqual(tableMoney(all), {
    seatsCents: 300,
    openStakesCents: 0,
    outboxCents: 0,
    deliveredCents: 300,
    houseResultCents: 0,
    creditedCents: 600,
  });
});
