import test from "ava";
import fc from "fast-check";
import { MAX_BALANCE_CENTS } from "@pokerodds/common/limits";
import { advancePlan, applyAdvance } from "../src/domain/advance.js";
import { applyBet } from "../src/domain/bets.js";
import { payoutOf } from "@pokerodds/common/payout";
import { settleGame } from "../src/domain/payouts.js";
import { applyLeave } from "../src/domain/seats.js";
import { tableMoney } from "../src/domain/snapshot.js";
import type { Bet, TableSnapshot } from "../src/domain/types.js";
import {
  ADMIN,
  T0,
  advance,
  advanceTo,
  balanceOf,
  bet,
  closed,
  deepFreeze,
  newTable,
  riverPanels,
  sit,
} from "./helpers/fixtures.js";

const RUNS = { numRuns: 1000 };

/** p1, p2, p3 seated with 100,000 cents each, in the given state. */
const seated = (state: TableSnapshot["gameState"] = "STATUS_HOLE"): TableSnapshot =>
  advanceTo(sit(sit(sit(newTable(), "p1", 100_000), "p2", 100_000), "p3", 100_000), state);

const toRiver = (s: TableSnapshot, winners: number[], now = T0): TableSnapshot =>
  advance(advanceTo(s, "STATUS_TURN"), now, riverPanels(winners));

// ---------- payoutOf ----------

test("payoutOf: stake x odds / k rounded down to the cent, with the exact remainder", (t) => {
  t.deepEqual(payoutOf(1_000, 32, 1), { payoutCents: 3_200, remainderNumerator: 0, denominator: 10 });
  t.deepEqual(payoutOf(333, 49, 1), { payoutCents: 1_631, remainderNumerator: 7, denominator: 10 });
  t.deepEqual(payoutOf(1_000, 32, 2), { payoutCents: 1_600, remainderNumerator: 0, denominator: 20 });
  t.deepEqual(payoutOf(1_000, 32, 3), { payoutCents: 1_066, remainderNumerator: 20, denominator: 30 });
  t.deepEqual(payoutOf(1_000, 32, 4), { payoutCents: 800, remainderNumerator: 0, denominator: 40 });
  t.deepEqual(payoutOf(1, 19, 1), { payoutCents: 1, remainderNumerator: 9, denominator: 10 });
  t.deepEqual(payoutOf(1, 9, 1), { payoutCents: 0, remainderNumerator: 9, denominator: 10 });
});

test("payoutOf is exact beyond 2^53 where doubles would overpay", (t) => {
  // 99,999,999,999 x 3,333,333 = 333333299996666667 > 2^53; the double quotient rounds up.
  const p = payoutOf(99_999_999_999, 3_333_333, 4);
  t.deepEqual(p, { payoutCents: 8_333_332_499_916_666, remainderNumerator: 27, denominator: 40 });
  t.true(Math.floor((99_999_999_999 * 3_333_333) / 40) > p.payoutCents);
  t.throws(() => payoutOf(100_000_000_000, 9_700_000, 1), { instanceOf: RangeError });
  // The largest exact payout is paid; the next cent is out of range.
  t.deepEqual(payoutOf(Number.MAX_SAFE_INTEGER, 10, 1), {
    payoutCents: Number.MAX_SAFE_INTEGER,
    remainderNumerator: 0,
    denominator: 10,
  });
  t.throws(() => payoutOf(Number.MAX_SAFE_INTEGER, 11, 1), { instanceOf: RangeError });
  t.throws(() => payoutOf(1, 10, 0), { instanceOf: RangeError });
  t.throws(() => payoutOf(1.5, 10, 1), { instanceOf: RangeError });
});

test("payoutOf refuses a negative stake, negative odds and fewer than one winner: never a negative payout", (t) => {
  t.throws(() => payoutOf(-1_000, 32, 1), { instanceOf: RangeError });
  t.throws(() => payoutOf(1_000, -32, 1), { instanceOf: RangeError });
  t.throws(() => payoutOf(1_000, -1, 1), { instanceOf: RangeError });
  t.throws(() => payoutOf(1_000, 32, -1), { instanceOf: RangeError });
  t.throws(() => payoutOf(1_000, 32, 0), { instanceOf: RangeError });
  t.deepEqual(payoutOf(0, 0, 1), { payoutCents: 0, remainderNumerator: 0, denominator: 10 });
});

test("property: a payout never exceeds the exact amount and is less than one cent below it", (t) => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 100_000_000_000 }),
      fc.integer({ min: 1, max: 10_000_000 }),
      fc.integer({ min: 1, max: 4 }),
      (amount, odds, k) => {
        const exact = BigInt(amount) * BigInt(odds);
        const den = BigInt(10 * k);
        if (exact / den > BigInt(Number.MAX_SAFE_INTEGER)) {
          t.throws(() => payoutOf(amount, odds, k), { instanceOf: RangeError });
          return true;
        }
        const p = payoutOf(amount, odds, k);
        const paid = BigInt(p.payoutCents) * den;
        return (
          p.denominator === 10 * k &&
          paid <= exact &&
          exact < paid + den &&
          BigInt(p.remainderNumerator) === exact - paid
        );
      },
    ),
    RUNS,
  );
});

// ---------- settlement at the river ----------

test("a sole winner pays stake x odds to the seat; losing bets pay nothing; the house keeps the rest", (t) => {
  let s = seated();
  s = bet(s, "p1", 0, 1_000); // 3.2 -> wins 3,200
  s = bet(s, "p2", 1, 2_000); // loses
  const river = toRiver(s, [0], T0 + 7);
  t.is(balanceOf(river, "p1"), 99_000 + 3_200);
  t.is(balanceOf(river, "p2"), 98_000);
  t.is(balanceOf(river, "p3"), 100_000);
  t.deepEqual(river.finishedGame, {
    gameId: "T7-1",
    outcome: "SETTLED",
    finishedAt: T0 + 7,
    winningHands: [0],
    stakesCents: 3_000,
    payoutsCents: 3_200,
    refundsCents: 0,
    houseResultCents: -200,
    roundingRemainder: { numerator: 0, denominator: 10 },
    bets: [
      {
        betId: river.bets[0]!.betId,
        playerId: "p1",
        handIndex: 0,
        betAmountCents: 1_000,
        oddsTenths: 32,
        returnedCents: 3_200,
        remainderNumerator: 0,
        paidTo: "SEAT",
      },
      {
        betId: river.bets[1]!.betId,
        playerId: "p2",
        handIndex: 1,
        betAmountCents: 2_000,
        oddsTenths: 39,
        returnedCents: 0,
        remainderNumerator: 0,
        paidTo: "NONE",
      },
    ],
  });
  t.deepEqual(tableMoney(river), {
    seatsCents: 300_200,
    openStakesCents: 0,
    outboxCents: 0,
    deliveredCents: 0,
    houseResultCents: -200,
    creditedCents: 300_000,
  });
  t.deepEqual(river.outbox, []);
  // The record belongs to the change that settled the game only.
  t.is(advance(river).finishedGame, null);
});

for (const k of [2, 3, 4]) {
  test(`a ${k}-way dead heat pays every bet on a tied winner stake x odds / ${k}, rounded down`, (t) => {
    let s = seated();
    s = bet(s, "p1", 0, 1_000); // 3.2
    s = bet(s, "p2", 1, 1_001); // 3.9
    s = bet(s, "p3", k - 1, 777); // on the last tied winner
    s = bet(s, "p3", 3, 50); // on hand 3: wins only in the 4-way heat
    const winners = [...Array(k).keys()];
    const river = toRiver(s, winners);
    const expected = river.bets.map((b) =>
      winners.includes(b.handIndex) ? Math.floor((b.betAmountCents * b.oddsTenths) / (10 * k)) : 0,
    );
    t.deepEqual(
      river.finishedGame!.bets.map((b) => b.returnedCents),
      expected,
    );
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    t.is(river.finishedGame!.payoutsCents, sum(expected));
    t.is(river.finishedGame!.houseResultCents, 2_828 - sum(expected));
    const exactNumerator = sum(
      river.bets.filter((b) => winners.includes(b.handIndex)).map((b) => b.betAmountCents * b.oddsTenths),
    );
    t.deepEqual(river.finishedGame!.roundingRemainder, {
      numerator: exactNumerator - sum(expected) * 10 * k,
      denominator: 10 * k,
    });
    t.deepEqual(river.finishedGame!.winningHands, winners);
    // Spot values: 1,000 x 3.2 / k.
    t.is(expected[0], { 2: 1_600, 3: 1_066, 4: 800 }[k]);
  });
}

test("a winning stake that returns nothing (a cent at 3.2 in a 4-way dead heat) is paid to NONE, seated or not", (t) => {
  let s = seated();
  s = bet(s, "p1", 0, 1, "cent-seated");
  s = bet(s, "p2", 0, 1, "cent-left");
  s = deepFreeze(applyLeave(s, { playerId: "p2", transferId: "leave-2" }, T0).next!);
  const river = toRiver(s, [0, 1, 2, 3]);
  const cents = river.finishedGame!.bets.filter((b) => b.betId.startsWith("cent-"));
  t.deepEqual(
    cents.map(({ returnedCents, remainderNumerator, paidTo }) => ({ returnedCents, remainderNumerator, paidTo })),
    [
      { returnedCents: 0, remainderNumerator: 32, paidTo: "NONE" },
      { returnedCents: 0, remainderNumerator: 32, paidTo: "NONE" },
    ],
  );
  t.is(balanceOf(river, "p1"), 99_999);
  t.false(
    river.outbox.some((credit) => credit.reason === "PAYOUT"),
    "no payout of nothing to the leaver's account",
  );
});

test("a bettor who left is paid at the river through the outbox, once per player and game", (t) => {
  let s = seated();
  s = bet(s, "p1", 0, 1_000, "x1");
  s = bet(s, "p1", 0, 333, "x2");
  s = bet(s, "p1", 1, 100, "x3");
  s = deepFreeze(applyLeave(s, { playerId: "p1", transferId: "leave-1" }, T0).next!);
  t.is(s.gameState, "STATUS_HOLE", "others still seated: the game goes on");
  t.deepEqual(
    s.bets.map((b) => b.betId),
    ["x1", "x2", "x3"],
    "the leaver's bets stay in play",
  );
  const river = toRiver(s, [0]);
  // 1,000 x 3.2 + floor(333 x 3.2) = 3,200 + 1,065
  t.deepEqual(river.outbox.at(-1), {
    key: "table:T7-1:payout:p1",
    playerId: "p1",
    amountCents: 4_265,
    reason: "PAYOUT",
    reference: "T7-1",
    createdAt: T0,
  });
  t.deepEqual(
    river.finishedGame!.bets.map((b) => b.paidTo),
    ["ACCOUNT", "ACCOUNT", "NONE"],
  );
  t.is(tableMoney(river).outboxCents, 98_567 + 4_265);
});

/** `playerId`'s seat raised to `roomCents` below the largest balance, the table credited as much. */
function withRoomBelowLimit(s: TableSnapshot, playerId: string, roomCents: number): TableSnapshot {
  const lift = MAX_BALANCE_CENTS - roomCents - balanceOf(s, playerId)!;
  return deepFreeze({
    ...s,
    seats: s.seats.map((seat) =>
      seat.playerId === playerId ? { ...seat, balanceCents: seat.balanceCents + lift } : seat,
    ),
    totals: { ...s.totals, creditedCents: s.totals.creditedCents + lift },
  });
}

test("a payout that would take a seat past the largest balance goes to the account instead", (t) => {
  let s = seated();
  s = bet(s, "p1", 0, 1_000, "y1");
  s = bet(s, "p1", 0, 1_000, "y2");
  // p1's seat 4,000 cents below the limit: the first payout of 3,200 fits, the second no longer does.
  s = withRoomBelowLimit(s, "p1", 4_000);
  const river = toRiver(s, [0]);
  t.deepEqual(
    river.finishedGame!.bets.map((b) => b.paidTo),
    ["SEAT", "ACCOUNT"],
  );
  t.is(balanceOf(river, "p1"), MAX_BALANCE_CENTS - 800);
  t.like(river.outbox.at(-1), { key: "table:T7-1:payout:p1", playerId: "p1", amountCents: 3_200, reason: "PAYOUT" });
});

test("a payout that takes a seat exactly to the largest balance stays on the seat", (t) => {
  let s = bet(seated(), "p1", 0, 1_000);
  // p1's seat exactly 3,200 cents below the limit: room for the payout, to the cent.
  s = withRoomBelowLimit(s, "p1", 3_200);
  const river = toRiver(s, [0]);
  t.is(river.finishedGame!.bets[0]!.paidTo, "SEAT");
  t.is(balanceOf(river, "p1"), MAX_BALANCE_CENTS);
  t.deepEqual(river.outbox, []);
});

test("a bettor who left and sat again is paid to the new seat", (t) => {
  let s = seated();
  s = bet(s, "p1", 0, 1_000);
  s = deepFreeze(applyLeave(s, { playerId: "p1", transferId: "l" }, T0).next!);
  s = sit(s, "p1", 5);
  const river = toRiver(s, [0]);
  t.is(balanceOf(river, "p1"), 5 + 3_200);
  t.is(river.outbox.filter((c) => c.reason === "PAYOUT").length, 0);
});

test("a game with no bets settles to an empty record", (t) => {
  const river = toRiver(seated(), [2]);
  t.like(river.finishedGame, { stakesCents: 0, payoutsCents: 0, houseResultCents: 0, winningHands: [2] });
});

// ---------- property: settlement conserves money ----------

const arbBets = fc.array(
  fc.record({
    player: fc.constantFrom("p1", "p2", "p3", "gone1", "gone2"),
    handIndex: fc.integer({ min: 0, max: 3 }),
    betAmountCents: fc.integer({ min: 1, max: 100_000_000_000 }),
    oddsTenths: fc.integer({ min: 1, max: 1_000 }),
  }),
  { maxLength: 30 },
);
const arbWinners = fc.subarray([0, 1, 2, 3], { minLength: 1 });

test("property: settlement pays each bet within a cent below exact and conserves every cent", (t) => {
  const turn = seated("STATUS_TURN");
  fc.assert(
    fc.property(arbBets, arbWinners, (specs, winners) => {
      const bets: Bet[] = specs.map((b, i) => ({
        betId: `b${i}`,
        playerId: b.player,
        seatId: 1,
        handIndex: b.handIndex,
        bettingStage: 2,
        betAmountCents: b.betAmountCents,
        oddsTenths: b.oddsTenths,
        placedAt: T0,
      }));
      const stakes = bets.reduce((a, b) => a + b.betAmountCents, 0);
      const before: TableSnapshot = deepFreeze({
        ...turn,
        bets,
        totals: { ...turn.totals, creditedCents: turn.totals.creditedCents + stakes },
      });
      const k = winners.length;
      const { seats, credits, record } = settleGame(before, riverPanels(winners), T0);
      let exactTotal = 0n;
      for (const [i, s] of record.bets.entries()) {
        const b = bets[i]!;
        const exact = winners.includes(b.handIndex) ? BigInt(b.betAmountCents) * BigInt(b.oddsTenths) : 0n;
        exactTotal += exact;
        const paid = BigInt(s.returnedCents) * BigInt(10 * k);
        if (paid > exact || exact - paid >= BigInt(10 * k)) return false;
        if (!winners.includes(b.handIndex) && (s.returnedCents !== 0 || s.paidTo !== "NONE")) return false;
      }
      const seatGain = seats.reduce((a, s) => a + s.balanceCents, 0) - 300_000;
      const credited = credits.reduce((a, c) => a + c.amountCents, 0);
      // Players absent from the table are always paid through the outbox, one credit each.
      const ok =
        record.stakesCents === stakes &&
        seatGain + credited === record.payoutsCents &&
        record.houseResultCents === stakes - record.payoutsCents &&
        BigInt(record.roundingRemainder.numerator) ===
          exactTotal - BigInt(record.payoutsCents) * BigInt(record.roundingRemainder.denominator) &&
        credits.every((c) => c.playerId.startsWith("gone") && c.amountCents > 0) &&
        new Set(credits.map((c) => c.key)).size === credits.length;
      if (!ok) return false;
      // The same through applyAdvance: the sealed snapshot reconciles to the cent.
      const after = applyAdvance(
        closed(before),
        advancePlan(before, ADMIN),
        { kind: "REVEAL", handOdds: riverPanels(winners) },
        T0,
      );
      const m = tableMoney(after);
      return (
        m.openStakesCents === 0 &&
        m.seatsCents + m.outboxCents + m.houseResultCents === m.creditedCents &&
        m.houseResultCents === record.houseResultCents
      );
    }),
    RUNS,
  );
  t.pass();
});

test("bets through applyBet at all three stages settle at the odds each recorded", (t) => {
  let s = seated();
  const place = (id: string, hand: number, betAmountCents: number) => {
    const seatIndex = s.seats.find((x) => x.playerId === "p1")!.seatId;
    s = deepFreeze(applyBet(s, { playerId: "p1", seatIndex, handIndex: hand, betAmountCents, betId: id }, T0).next!);
  };
  place("hole", 0, 100); // 3.2
  s = advance(s);
  place("flop", 0, 100); // 1.6
  s = advance(s);
  place("turn", 0, 100); // 1.2
  const river = toRiver(s, [0]);
  t.deepEqual(
    river.finishedGame!.bets.map((b) => b.returnedCents),
    [320, 160, 120],
  );
  t.is(balanceOf(river, "p1"), 100_000 - 300 + 600);
});

test("a bettor who left, whose winning bet rounds down to nothing, is owed no credit: the outbox takes none of 0 cents", (t) => {
  let s = seated();
  s = bet(s, "p1", 0, 1, "tiny"); // 1 cent at 3.2: 0.08 of a cent in a four-way dead heat
  s = bet(s, "p2", 1, 1_000, "big"); // 1,000 at 3.9 / 4 = 975
  s = deepFreeze(applyLeave(s, { playerId: "p1", transferId: "l1" }, T0).next!);
  s = deepFreeze(applyLeave(s, { playerId: "p2", transferId: "l2" }, T0).next!);
  const river = toRiver(s, [0, 1, 2, 3]);
  t.deepEqual(
    river.finishedGame!.bets.map((b) => [b.betId, b.returnedCents, b.remainderNumerator]),
    [
      ["tiny", 0, 32],
      ["big", 975, 0],
    ],
  );
  t.deepEqual(
    river.outbox.filter((c) => c.reason === "PAYOUT").map((c) => [c.playerId, c.amountCents]),
    [["p2", 975]],
  );
  t.true(river.outbox.every((c) => c.amountCents > 0));
});
