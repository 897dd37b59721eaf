import test from "ava";
import { ConflictError, IdempotencyMismatchError, InvalidArgumentError } from "@pokerodds/common/errors";
import { MAX_AMOUNT_CENTS, MAX_BETS_PER_SEAT_PER_GAME } from "@pokerodds/common/limits";
import { type BetCommand, RISKLESS_BETS, applyBet, decideBet } from "../src/domain/bets.js";
import { betFingerprint } from "../src/bet.js";
import { applyLeave } from "../src/domain/seats.js";
import { MAX_GAME_PAYOUT_CENTS, emptyTable, tableMoney } from "../src/domain/snapshot.js";
import type { GameState, TableSnapshot } from "../src/domain/types.js";
import { parseCard, parseHand } from "@pokerodds/common/poker/cards";
import { priceHands } from "@pokerodds/common/poker/stage-odds";
import { exactWinnerSets } from "@pokerodds/common/poker/equity-exact";
import {
  FLOP_PANELS,
  HOLE_PANELS,
  T0,
  TARGET_RTP,
  TURN_PANELS,
  advance,
  advanceTo,
  deepFreeze,
  newTable,
  panels,
  riverPanels,
  sit,
  type PanelSpec,
} from "./helpers/fixtures.js";

/** p1 in seat 1 with 10,000 cents, p2 in seat 2 with 500 cents. */
const table = (state: GameState = "STATUS_HOLE"): TableSnapshot =>
  advanceTo(sit(sit(newTable(), "p1", 10_000), "p2", 500), state);

const cmd = (over: Partial<BetCommand> = {}): BetCommand => ({
  playerId: "p1",
  seatIndex: 1,
  handIndex: 0,
  betAmountCents: 250,
  betId: "b1",
  ...over,
});

const STAGES = [
  { state: "STATUS_HOLE", stage: 0, panels: HOLE_PANELS, live: [0, 1, 2, 3] },
  { state: "STATUS_FLOP", stage: 1, panels: FLOP_PANELS, live: [0, 2] },
  { state: "STATUS_TURN", stage: 2, panels: TURN_PANELS, live: [0, 2] },
] as const;

for (const { state, stage, panels: stagePanels, live } of STAGES) {
  test(`${state}: a bet on each live hand records that stage's displayed odds and debits the seat`, (t) => {
    const before = table(state);
    for (const handIndex of live) {
      const { next, result } = applyBet(before, cmd({ handIndex }), T0 + 5);
      t.true(result.acknowledged);
      t.is(result.seatBalanceCents, 9_750);
      t.deepEqual(next!.bets.at(-1), {
        betId: "b1",
        playerId: "p1",
        seatId: 1,
        handIndex,
        bettingStage: stage,
        betAmountCents: 250,
        oddsTenths: stagePanels[handIndex]!.oddsTenths,
        placedAt: T0 + 5,
      });
      t.is(next!.seats[0]!.balanceCents, 9_750);
      t.is(next!.seats[1]!.balanceCents, 500);
      t.is(tableMoney(next!).openStakesCents, tableMoney(before).openStakesCents + 250);
      t.is(next!.version, before.version + 1);
    }
  });

  if (live.length === 4) continue; // pre-flop every hand can still win
  test(`${state}: a hand whose winPercentage is 0 takes no bets (409)`, (t) => {
    const before = table(state);
    for (let handIndex = 0; handIndex < 4; handIndex++) {
      if ((live as readonly number[]).includes(handIndex)) continue;
      t.is(stagePanels[handIndex]!.winPercentage, 0);
      t.throws(() => applyBet(before, cmd({ handIndex }), T0), { instanceOf: ConflictError, message: /cannot win/ });
    }
  });
}

test("the odds recorded are those displayed at placement, whatever later stages show", (t) => {
  let s = table("STATUS_HOLE");
  s = deepFreeze(applyBet(s, cmd({ handIndex: 2, betId: "hole" }), T0).next!);
  s = advance(s);
  s = deepFreeze(applyBet(s, cmd({ handIndex: 2, betId: "flop" }), T0).next!);
  s = advance(s);
  t.deepEqual(
    s.bets.map((b) => [b.betId, b.bettingStage, b.oddsTenths]),
    [
      ["hole", 0, 49],
      ["flop", 1, 32],
    ],
  );
});

test("insufficient seat balance is a NACK with the unchanged balance; an exact balance is accepted", (t) => {
  const before = table();
  const short = applyBet(before, cmd({ playerId: "p2", seatIndex: 2, betAmountCents: 501 }), T0);
  t.is(short.next, null);
  t.deepEqual(short.result, { acknowledged: false, message: "insufficient seat balance", seatBalanceCents: 500 });
  const exact = applyBet(before, cmd({ playerId: "p2", seatIndex: 2, betAmountCents: 500 }), T0);
  t.true(exact.result.acknowledged);
  t.is(exact.result.seatBalanceCents, 0);
});

test("as stored, a NACK is a refusal version (nothing else changes); a bet and a replay are applyBet's", (t) => {
  const before = table();
  const short = decideBet(before, cmd({ playerId: "p2", seatIndex: 2, betAmountCents: 501 }), T0 + 5);
  t.deepEqual(short.result, { acknowledged: false, message: "insufficient seat balance", seatBalanceCents: 500 });
  t.deepEqual(short.next, { ...before, version: before.version + 1, updatedAt: T0 + 5 });
  const placed = decideBet(before, cmd(), T0);
  t.deepEqual(placed, applyBet(before, cmd(), T0));
  t.is(decideBet(placed.next!, cmd(), T0).next, null, "a replayed bet id stores nothing");
});

test("refusals: not a betting stage, not seated, another seat (409)", (t) => {
  for (const state of ["STATUS_START", "STATUS_RIVER", "STATUS_SETUP"] as const) {
    const s = state === "STATUS_SETUP" ? advance(table("STATUS_RIVER")) : table(state);
    t.throws(() => applyBet(s, cmd(), T0), { instanceOf: ConflictError, message: /betting stage/ });
  }
  const hole = table();
  t.throws(() => applyBet(hole, cmd({ playerId: "p9" }), T0), { instanceOf: ConflictError, message: /not seated/ });
  t.throws(() => applyBet(hole, cmd({ seatIndex: 2 }), T0), { instanceOf: ConflictError, message: /own seat/ });
  t.throws(() => applyBet(hole, cmd({ seatIndex: 3 }), T0), { instanceOf: ConflictError });
});

test("refusals: malformed hand index, amount, seat index or ids (400), checked before the state", (t) => {
  const start = table("STATUS_START");
  for (const handIndex of [-1, 6, 1.5, Number.NaN]) {
    t.throws(() => applyBet(start, cmd({ handIndex }), T0), { instanceOf: InvalidArgumentError });
  }
  // A hand some game may have (0..5) but this table's 4-hand games do not: the table's state, a 409.
  for (const handIndex of [4, 5]) {
    t.throws(() => applyBet(start, cmd({ handIndex }), T0), { instanceOf: ConflictError, message: /4 hands/ });
  }
  for (const betAmountCents of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, MAX_AMOUNT_CENTS + 1, 2 ** 53]) {
    t.throws(() => applyBet(table(), cmd({ betAmountCents }), T0), { instanceOf: InvalidArgumentError });
  }
  t.throws(() => applyBet(start, cmd({ seatIndex: 1.5 }), T0), { instanceOf: InvalidArgumentError });
  t.throws(() => applyBet(start, cmd({ betId: "" }), T0), { instanceOf: InvalidArgumentError });
  t.throws(() => applyBet(start, cmd({ playerId: "" }), T0), { instanceOf: InvalidArgumentError });
});

test("a replayed betId answers the recorded bet and changes nothing; other terms are a mismatch", (t) => {
  const first = applyBet(table(), cmd(), T0);
  const placed = deepFreeze(first.next!);
  const again = applyBet(placed, cmd(), T0 + 9);
  t.is(again.next, null);
  t.deepEqual(again.result, first.result);
  // Even once the stage moved on, the replay is the recorded bet, not a refusal or a new bet.
  const flop = advance(placed);
  t.deepEqual(applyBet(flop, cmd(), T0).result, first.result);
  t.throws(() => applyBet(placed, cmd({ betAmountCents: 251 }), T0), { instanceOf: IdempotencyMismatchError });
  t.throws(() => applyBet(placed, cmd({ handIndex: 1 }), T0), { instanceOf: IdempotencyMismatchError });
  t.throws(() => applyBet(placed, cmd({ seatIndex: 2 }), T0), { instanceOf: IdempotencyMismatchError });
  // A bet id is a player's (request-ids.ts); one recorded for another player is not this player's bet.
  t.throws(() => applyBet(placed, cmd({ playerId: "p2" }), T0), { instanceOf: IdempotencyMismatchError });
});

test("a bet that names the game and stage it saw is placed there only: once the table moves on, or before it gets there, a 409", (t) => {
  const hole = table("STATUS_HOLE");
  const at = { gameId: hole.gameId, bettingStage: 0 };
  const placed = applyBet(hole, cmd({ at }), T0);
  t.like(placed.result, { acknowledged: true, bet: { bettingStage: 0, oddsTenths: HOLE_PANELS[0]!.oddsTenths } });

  const flop = advance(hole);
  const moved = {
    instanceOf: ConflictError,
    message:
      "the table moved on to the flop of game T7-1 before this bet at the hole of game T7-1: no bet placed (its odds are gone); see the new odds",
  };
  t.throws(() => applyBet(flop, cmd({ at }), T0), moved);
  t.like(applyBet(flop, cmd({ at: { ...at, bettingStage: 1 } }), T0).result, { acknowledged: true });
  t.throws(() => applyBet(flop, cmd({ at: { gameId: "T7-2", bettingStage: 1 } }), T0), {
    instanceOf: ConflictError,
    message: /before this bet at the flop of game T7-2/,
  });
  // Where no bet is taken now, the refusal says when bets open again, not "see the new odds".
  t.throws(() => applyBet(advanceTo(flop, "STATUS_RIVER"), cmd({ at: { ...at, bettingStage: 2 } }), T0), {
    instanceOf: ConflictError,
    message:
      "the table moved on to the river of game T7-1 before this bet at the turn of game T7-1: no bet placed (its odds are gone); this game takes no more bets",
  });
  t.throws(() => applyBet({ ...flop, bettingClosed: true }, cmd({ at }), T0), {
    instanceOf: ConflictError,
    message: /no bet placed \(its odds are gone\); bets open again once the next cards are shown$/,
  });
  t.throws(() => applyBet(advanceTo(flop, "STATUS_SETUP"), cmd({ at: { ...at, bettingStage: 1 } }), T0), {
    instanceOf: ConflictError,
    message: /^the table moved on to the start of game T7-2 .*; bets open again once the next game is dealt$/,
  });
  // A stage the game has yet to reach: its odds are not known yet, and nothing moved on.
  t.throws(() => applyBet(hole, cmd({ at: { ...at, bettingStage: 1 } }), T0), {
    instanceOf: ConflictError,
    message:
      "the table is at the hole of game T7-1, not yet at the flop of game T7-1 that this bet names: no bet placed",
  });
  // After the river the table holds the next game, not yet dealt.
  const next = advanceTo(flop, "STATUS_SETUP");
  t.not(next.gameId, flop.gameId);
  t.throws(() => applyBet(next, cmd({ at: { gameId: next.gameId, bettingStage: 0 } }), T0), {
    instanceOf: ConflictError,
    message: `the table is at the start of game ${next.gameId}, not yet at the hole of game ${next.gameId} that this bet names: no bet placed`,
  });
  for (const bettingStage of [-1, 3, 0.5]) {
    t.throws(() => applyBet(hole, cmd({ at: { ...at, bettingStage } }), T0), { instanceOf: InvalidArgumentError });
  }
  // A bet placed under its id answers as placed, wherever the table is now.
  const replayed = applyBet(advance(placed.next!), cmd({ at }), T0);
  t.is(replayed.next, null);
  t.like(replayed.result, { acknowledged: true, bet: { betId: "b1", bettingStage: 0 } });
});

test("several bets by several players, on the same and different hands, all recorded in order", (t) => {
  let s = table();
  s = deepFreeze(applyBet(s, cmd({ betId: "a" }), T0).next!);
  s = deepFreeze(applyBet(s, cmd({ betId: "b", handIndex: 3 }), T0).next!);
  s = deepFreeze(applyBet(s, cmd({ betId: "c", playerId: "p2", seatIndex: 2, betAmountCents: 100 }), T0).next!);
  t.deepEqual(
    s.bets.map((b) => [b.betId, b.playerId, b.handIndex, b.betAmountCents]),
    [
      ["a", "p1", 0, 250],
      ["b", "p1", 3, 250],
      ["c", "p2", 0, 100],
    ],
  );
  t.deepEqual(
    s.seats.map((x) => x.balanceCents),
    [9_500, 400],
  );
});

test("a seat's bets in one game stop at the limit (409), whatever the stage; replays, other seats and the next game go on", (t) => {
  let s = table();
  for (let i = 0; i < MAX_BETS_PER_SEAT_PER_GAME; i++) {
    if (i === 20) s = advanceTo(s, "STATUS_FLOP");
    s = deepFreeze(applyBet(s, cmd({ betId: `b${i}`, betAmountCents: 1 }), T0).next!);
  }
  const over = cmd({ betId: "over", betAmountCents: 1 });
  t.throws(() => applyBet(s, over, T0), {
    instanceOf: ConflictError,
    message: `at most ${MAX_BETS_PER_SEAT_PER_GAME} bets from one seat in one game: seat 1 has them all, with those of anyone who sat there earlier in this game`,
  });
  t.is(applyBet(s, cmd({ betId: "b0", betAmountCents: 1 }), T0).result.acknowledged, true, "a replay answers");
  const other = applyBet(s, cmd({ betId: "c", playerId: "p2", seatIndex: 2, betAmountCents: 1 }), T0);
  t.not(other.next, null, "another seat still bets");
  const nextGame = advanceTo(advanceTo(s, "STATUS_RIVER"), "STATUS_HOLE");
  t.not(applyBet(nextGame, over, T0).next, null, "the next game starts from none");
});

test("players coming and going use up only the seats they sat in: a newcomer gets the free seat with the most room, the game's bets stay bounded, and a player who stays seated bets on", (t) => {
  let s = table();
  const { numberOfSeats } = s.config;
  const seatOf = (playerId: string) => s.seats.find((seat) => seat.playerId === playerId)!.seatId;
  const betFrom = (playerId: string, n: number) =>
    applyBet(s, cmd({ playerId, seatIndex: seatOf(playerId), betId: `${playerId}-${n}`, betAmountCents: 1 }), T0);
  const betAll = (playerId: string) => {
    for (let n = 0; n < MAX_BETS_PER_SEAT_PER_GAME; n++) s = betFrom(playerId, n).next!;
  };
  // p1 (seat 1) and p2 (seat 2) stay. Each newcomer gets the free seat with the fewest bets, bets its
  // most and leaves: seats 3 to 6 in turn, then every free seat is used up.
  const free = numberOfSeats - 2;
  for (let n = 1; n <= free + 1; n++) {
    s = sit(s, `fresh-${n}`, 1_000);
    if (n <= free) {
      t.is(seatOf(`fresh-${n}`), 2 + n, "an unused free seat");
      betAll(`fresh-${n}`);
    } else {
      t.is(seatOf(`fresh-${n}`), 3, "every free seat is used up: the lowest");
      t.throws(() => betFrom(`fresh-${n}`, 0), {
        instanceOf: ConflictError,
        message: `at most ${MAX_BETS_PER_SEAT_PER_GAME} bets from one seat in one game: seat 3 has them all, with those of anyone who sat there earlier in this game`,
      });
    }
    s = applyLeave(s, { playerId: `fresh-${n}`, transferId: `leave-${n}` }, T0).next!;
  }
  t.is(s.bets.length, free * MAX_BETS_PER_SEAT_PER_GAME);
  betAll("p1");
  t.is(s.bets.length, (free + 1) * MAX_BETS_PER_SEAT_PER_GAME, "a player who stayed seated placed all of its own");
  t.throws(() => betFrom("p1", MAX_BETS_PER_SEAT_PER_GAME), { instanceOf: ConflictError });
});

// The bound is on the seat's bets whoever placed them, added up: not on each occupant's own. A player
// who left with some of the seat's room used leaves the newcomer in that seat the rest, no more.
test("a seat's bets are counted together across its occupants: the newcomer in the seat of a player who left after 30 bets places 20 more, and the next is refused (409)", (t) => {
  // Two seats, and p1 stays in seat 1: the newcomer can only get seat 2, where p2 bet.
  let s = advance(sit(sit(deepFreeze(emptyTable(7, T0, { numberOfSeats: 2 })), "p1"), "p2"));
  const seatOf = (playerId: string) => s.seats.find((seat) => seat.playerId === playerId)!.seatId;
  const betFrom = (playerId: string, betId: string) =>
    applyBet(s, cmd({ playerId, seatIndex: seatOf(playerId), betId, betAmountCents: 1 }), T0);
  const earlier = 30;
  for (let n = 0; n < earlier; n++) s = deepFreeze(betFrom("p2", `p2-${n}`).next!);
  s = deepFreeze(applyLeave(s, { playerId: "p2", transferId: "leave-p2" }, T0).next!);
  s = sit(s, "p3");
  t.is(seatOf("p3"), 2);
  for (let n = 0; n < MAX_BETS_PER_SEAT_PER_GAME - earlier; n++) s = deepFreeze(betFrom("p3", `p3-${n}`).next!);
  t.deepEqual(
    [s.bets.filter((b) => b.playerId === "p2").length, s.bets.filter((b) => b.playerId === "p3").length],
    [earlier, MAX_BETS_PER_SEAT_PER_GAME - earlier],
  );
  t.throws(() => betFrom("p3", "p3-over"), {
    instanceOf: ConflictError,
    message: `at most ${MAX_BETS_PER_SEAT_PER_GAME} bets from one seat in one game: seat 2 has them all, with those of anyone who sat there earlier in this game`,
  });
  t.is(s.bets.length, MAX_BETS_PER_SEAT_PER_GAME, "nothing stored");
  t.true(betFrom("p1", "p1-0").result.acknowledged, "seat 1 keeps all of its room");
});

/** The hole of a game where hand 0 pays 1.0 and hand 1 (a long shot) 970,000; p1 seated with `seatCents`. */
const longShotHole = (seatCents: number): TableSnapshot =>
  advance(
    sit(newTable(), "p1", seatCents),
    T0,
    panels(0, [
      [99.9999, 0, 10],
      [0.0001, 0, 9_700_000],
      [0, 1, 0],
      [0, 1, 0],
    ]),
  );

test("a bet whose payout would exceed the table's maximum payout is refused (409)", (t) => {
  const small = deepFreeze(emptyTable(1, T0, { maxPayoutCents: 1_000 }));
  const hole = advance(sit(small, "p1", 10_000));
  // Hand 3 pays 6.5: 153 x 6.5 = 994.5 -> 994 fits, 154 x 6.5 = 1001 does not.
  t.true(applyBet(hole, cmd({ handIndex: 3, betAmountCents: 153 }), T0).result.acknowledged);
  t.throws(() => applyBet(hole, cmd({ handIndex: 3, betAmountCents: 154 }), T0), { instanceOf: ConflictError });
  // At the default limit, a stake x odds product beyond 2^53 is a 409 too, not an internal error.
  const longShot = longShotHole(100_000_000_000);
  t.throws(() => applyBet(longShot, cmd({ handIndex: 1, betAmountCents: 100_000_000_000 }), T0), {
    instanceOf: ConflictError,
    message: /maximum payout/,
  });
  // 103,092,783 x 970,000 = 99,999,999,510,000 fits 10^14 cents; one more cent pays 100,000,000,480,000.
  t.true(applyBet(longShot, cmd({ handIndex: 1, betAmountCents: 103_092_783 }), T0).result.acknowledged);
  t.throws(() => applyBet(longShot, cmd({ handIndex: 1, betAmountCents: 103_092_784 }), T0), {
    instanceOf: ConflictError,
  });
});

test("a bet whose payout is exactly the table's maximum payout is accepted", (t) => {
  const hole = advance(sit(deepFreeze(emptyTable(1, T0, { maxPayoutCents: 1_001 })), "p1", 10_000));
  // Hand 3 pays 6.5: 154 x 6.5 = 1,001, exactly the limit; 155 x 6.5 = 1,007.5 is past it.
  t.true(applyBet(hole, cmd({ handIndex: 3, betAmountCents: 154 }), T0).result.acknowledged);
  t.throws(() => applyBet(hole, cmd({ handIndex: 3, betAmountCents: 155 }), T0), { instanceOf: ConflictError });
});

test("the payouts of all a game's bets together stay within the game's limit: the river can always be settled", (t) => {
  // Ten stakes of 103,092,783 cents on hand 1 pay 999,999,995,100,000 together, 4,900,000 short of
  // the game's 10^15.
  let s = longShotHole(2_000_000_000);
  const bet = (betId: string, handIndex: number, betAmountCents: number) =>
    applyBet(s, cmd({ handIndex, betAmountCents, betId }), T0);
  for (let i = 0; i < 10; i++) s = deepFreeze(bet(`long-${i}`, 1, 103_092_783).next!);
  t.is(MAX_GAME_PAYOUT_CENTS, 1_000_000_000_000_000);
  t.throws(() => bet("long-10", 1, 103_092_783), { instanceOf: ConflictError, message: /maximum payout for one game/ });
  t.throws(() => bet("favourite", 0, 4_900_001), { instanceOf: ConflictError, message: /one game/ });
  t.true(bet("favourite", 0, 4_900_000).result.acknowledged);
  // Hand 1 wins: the river settles every payout, to the cent.
  const river = advance(advance(advance(s)), T0, riverPanels([1]));
  t.is(river.finishedGame?.payoutsCents, 999_999_995_100_000);
});

test("a hand that can only tie (win 0, draw > 0) takes no bets", (t) => {
  const hole = advance(
    sit(newTable(), "p1"),
    T0,
    panels(0, [
      [50, 0, 19],
      [0, 50, 0],
      [50, 0, 19],
      [0, 0, 0],
    ]),
  );
  t.throws(() => applyBet(hole, cmd({ handIndex: 1 }), T0), { instanceOf: ConflictError });
  t.true(applyBet(hole, cmd({ handIndex: 2 }), T0).result.acknowledged);
});

test("a bet's stored terms: one without a stage hashes as every bet did before at existed", (t) => {
  const terms = { tableId: 7, seatIndex: 1, handIndex: 2, betAmountCents: 250 };
  // sha256 of [7,1,2,250], the fingerprint of keys stored before bets could name a stage.
  t.is(betFingerprint(terms), "3f9f736b11ebf38777e13f0c427e2ef94a2ef14f2593172466c6c46017a20a1c");
  t.not(betFingerprint({ ...terms, at: { gameId: "T7-1", bettingStage: 0 } }), betFingerprint(terms));
  t.not(
    betFingerprint({ ...terms, at: { gameId: "T7-1", bettingStage: 0 } }),
    betFingerprint({ ...terms, at: { gameId: "T7-1", bettingStage: 1 } }),
  );
});

test("a player's bets at one stage that would pay back at least their stakes whichever hand wins, and more when some win, are refused at the bet that completes them (409)", (t) => {
  // A flop whose rounded odds sum (as 1 / odds) below 1: 1/75.8 + 1/24.1 + 1/1.1 + 1/40.8 = 0.988.
  const flop = panels(1, [
    [1.2, 0.1, 758],
    [3.9, 0.1, 241],
    [93.2, 0.1, 11],
    [1.6, 0.1, 408],
  ]);
  const atFlop = advance(advance(sit(sit(newTable(), "p1", 1_000_000), "p2", 1_000_000)), T0, flop);
  let s = atFlop;
  const bet = (playerId: string, handIndex: number, betAmountCents: number) => {
    const seatIndex = s.seats.find((seat) => seat.playerId === playerId)!.seatId;
    const betId = `${playerId}-${s.bets.length}`;
    s = applyBet(s, { playerId, seatIndex, handIndex, betAmountCents, betId }, T0).next!;
  };
  // Staked 100,001; paid 101,193 / 101,195 / 101,185 / 101,184 whichever hand wins alone.
  bet("p1", 0, 1_335);
  bet("p1", 1, 4_199);
  bet("p1", 3, 2_480);
  const completing = cmd({ handIndex: 2, betAmountCents: 91_987, betId: "last" });
  t.throws(() => applyBet(s, completing, T0), { instanceOf: ConflictError, message: RISKLESS_BETS });
  // Nor one whose worst case is its stakes back: 1,324 / 4,165 / 92,410 / 2,460 staked 100,359 and
  // would pay 100,359 if hand 0 won, up to 101,651 if another did.
  let evenAtWorst = atFlop;
  for (const [handIndex, betAmountCents] of [
    [0, 1_324],
    [1, 4_165],
    [3, 2_460],
  ] as const) {
    evenAtWorst = applyBet(evenAtWorst, cmd({ handIndex, betAmountCents, betId: `even-${handIndex}` }), T0).next!;
  }
  const evenCompleting = cmd({ handIndex: 2, betAmountCents: 92_410, betId: "even-2" });
  t.throws(() => applyBet(evenAtWorst, evenCompleting, T0), { instanceOf: ConflictError, message: RISKLESS_BETS });
  // 80,000 on hand 2 leaves that hand's win paying 88,000 for 88,014 staked: a set that can lose.
  t.true(applyBet(s, { ...completing, betAmountCents: 80_000 }, T0).result.acknowledged);
  // Another player's bets are not this player's set: p2 may take the hand p1 could not.
  bet("p2", 2, 91_987);
  t.is(s.bets.at(-1)!.playerId, "p2");
  // Nor are this player's bets at an earlier stage: a hedge of an earlier bet is a player's own risk.
  let hedged = advance(sit(sit(newTable(), "p1", 1_000_000), "p2", 1_000_000));
  hedged = applyBet(hedged, cmd({ handIndex: 2, betAmountCents: 91_987, betId: "hole" }), T0).next!;
  hedged = advance(hedged, T0, flop);
  for (const [handIndex, betAmountCents] of [
    [0, 1_335],
    [1, 4_199],
    [3, 2_480],
  ] as const) {
    hedged = applyBet(hedged, cmd({ handIndex, betAmountCents, betId: `flop-${handIndex}` }), T0).next!;
  }
  t.is(hedged.bets.length, 4);
});

test("a set of bets paying back exactly its stakes whichever hand wins is the player's own business", (t) => {
  const hole = advance(
    sit(newTable(), "p1", 10_000),
    T0,
    panels(0, [
      [50, 0, 20],
      [50, 0, 20],
      [0, 0, 0],
      [0, 0, 0],
    ]),
  );
  const first = applyBet(hole, cmd({ handIndex: 0, betAmountCents: 100, betId: "a" }), T0).next!;
  // 100 on each: 200 staked, 200 paid whichever wins.
  t.true(applyBet(first, cmd({ handIndex: 1, betAmountCents: 100, betId: "b" }), T0).result.acknowledged);
});

/** p1 seated with 10,000 units, the game at `stage` with these cards, priced from them as the table prices. */
function pricedAt(stage: "STATUS_FLOP" | "STATUS_TURN", hands: string[], board: string[]): TableSnapshot {
  const handOdds = priceHands(hands.map(parseHand), board.map(parseCard), TARGET_RTP);
  return { ...advanceTo(sit(newTable(), "p1", 1_000_000), stage), hands, board, handOdds };
}

// A hand that can only tie takes no bets, and which hands it ties with the panels do not say: the
// table reads it off the cards. Counted as a tie that pays nothing, it let through a set that could
// not lose (a hunt's flop below: hand 3 ties only with the long shot, hand 0, and that tie still paid
// back 100.12 of 99.99 staked; the player won 0.29 when hand 1 won). Left out altogether, it refused
// sets that lose when it ties.
test("beside a hand that can only tie, a set of bets is refused when no way the cards fall makes it lose", (t) => {
  const hands = ["TcQh", "Js5s", "6s9d", "3hTs"];
  const board = ["5h", "Td", "5c"];
  const atFlop = pricedAt("STATUS_FLOP", hands, board);
  const truePanels = atFlop.handOdds;
  t.like(truePanels[3], { winPercentage: 0, oddsTenths: 0 }, "hand 3 can only tie");
  t.true(truePanels[3]!.drawPercentage > 0);
  /** p1's bets on hands 0 and 1, then the one on hand 2 that completes the set. */
  const completing = (onHand0: number) => {
    let s = applyBet(atFlop, cmd({ handIndex: 0, betAmountCents: onHand0, betId: "x0" }), T0).next!;
    s = applyBet(s, cmd({ handIndex: 1, betAmountCents: 9_117, betId: "x1" }), T0).next!;
    return () => applyBet(s, cmd({ handIndex: 2, betAmountCents: 277, betId: "x2" }), T0);
  };
  // 605 on hand 0: every way the cards fall pays back at least the 9,999 staked (its tie with hand 3, 10,012).
  t.throws(completing(605), { instanceOf: ConflictError, message: RISKLESS_BETS });
  // 310 on hand 0: each solo win still pays the 9,704 back, but its tie with hand 3 pays 5,130.
  t.true(completing(310)().result.acknowledged);
});

test("a hand that can win alone and is not covered leaves a set that can lose; one that can neither win nor tie is no outcome", (t) => {
  /** p1's bets on hands 0, 1 and 2 at a flop with these panels for hand 3; the last one's answer. */
  const betsBesideHand3 = (hand3: PanelSpec) => {
    const flop = panels(1, [[1.2, 0.1, 758], [3.9, 0.1, 241], [93.2, 0.1, 11], hand3]);
    let s = advance(advance(sit(newTable(), "p1", 1_000_000)), T0, flop);
    s = applyBet(s, cmd({ handIndex: 0, betAmountCents: 1_335, betId: "x0" }), T0).next!;
    s = applyBet(s, cmd({ handIndex: 1, betAmountCents: 4_199, betId: "x1" }), T0).next!;
    return () => applyBet(s, cmd({ handIndex: 2, betAmountCents: 91_987, betId: "x2" }), T0);
  };
  t.true(betsBesideHand3([1.6, 0.1, 408])().result.acknowledged);
  // However long the shot: a hand winning alone on 0.5 % of the boards is an outcome too.
  t.true(betsBesideHand3([0.5, 0.1, 1_940])().result.acknowledged);
  t.throws(betsBesideHand3([0, 0, 0]), { instanceOf: ConflictError, message: RISKLESS_BETS });
});

test("beside two hands that can only tie each other, a set covering every hand that can win alone is taken: it loses when they tie", (t) => {
  // The turn Ts 9h 2c 3d: a 2 or a 3 on the river gives 2s2h a full house and AhAd wins only on an ace;
  // a king or an eight gives QcJd and QdJc the same straight, a tie for the win: 8 rivers in 40.
  const hands = ["AhAd", "2s2h", "QcJd", "QdJc"];
  const board = ["Ts", "9h", "2c", "3d"];
  const atTurn = pricedAt("STATUS_TURN", hands, board);
  const truePanels = atTurn.handOdds;
  t.deepEqual(
    truePanels.map((p) => [p.winPercentage, p.drawPercentage, p.oddsTenths]),
    [
      [5, 0, 194],
      [75, 0, 13],
      [0, 20, 0],
      [0, 20, 0],
    ],
  );
  // 100 on hand 0 and 1,500 on hand 1: 1,940 or 1,950 back for 1,600 whichever wins alone, 0 when 2 and 3 tie.
  const first = applyBet(atTurn, cmd({ handIndex: 0, betAmountCents: 100, betId: "y0" }), T0).next!;
  t.true(applyBet(first, cmd({ handIndex: 1, betAmountCents: 1_500, betId: "y1" }), T0).result.acknowledged);
});

test("a hand that can only tie on fewer than 1 % of the boards is still a way to lose", (t) => {
  // The flop Kh 8d Jh: 3h4d and 4h3s can win on no board and tie each other on 6 of the 820 (0.73 %);
  // the prices of the two hands that can win alone sum (as 1 / odds) to 0.992, below 1.
  const hands = ["ThJs", "3h4d", "4h3s", "2sQh"];
  const board = ["Kh", "8d", "Jh"];
  const atFlop = pricedAt("STATUS_FLOP", hands, board);
  const truePanels = atFlop.handOdds;
  t.deepEqual(
    truePanels.map((p) => [p.winPercentage, p.drawPercentage, p.oddsTenths]),
    [
      [83.9024, 0, 12],
      [0, 0.7317, 0],
      [0, 0.7317, 0],
      [15.3659, 0, 63],
    ],
  );
  // 1,000 on hand 0 and 190 on hand 3: 1,200 or 1,197 back for 1,190 whichever wins alone, and 0 when
  // hands 1 and 2 tie: a set that can lose, however rarely, is taken.
  const first = applyBet(atFlop, cmd({ handIndex: 0, betAmountCents: 1_000, betId: "w0" }), T0).next!;
  t.true(applyBet(first, cmd({ handIndex: 3, betAmountCents: 190, betId: "w3" }), T0).result.acknowledged);
});

test("beside a hand that can only tie, a tie paying back exactly the stakes is no way to lose: the set is refused", (t) => {
  const hands = ["TcQh", "Js5s", "6s9d", "3hTs"];
  const board = ["5h", "Td", "5c"];
  const atFlop = pricedAt("STATUS_FLOP", hands, board);
  const truePanels = atFlop.handOdds;
  t.deepEqual(
    truePanels.map((p) => p.oddsTenths),
    [331, 11, 362, 0],
  );
  // 605 + 9,130 + 277 = 10,012 staked. Solo wins pay 20,025 / 10,043 / 10,027; hand 3's only tie, with
  // hand 0, pays 605 x 33.1 / 2 = 10,012.75, rounded down to exactly the 10,012 staked.
  let s = applyBet(atFlop, cmd({ handIndex: 0, betAmountCents: 605, betId: "z0" }), T0).next!;
  s = applyBet(s, cmd({ handIndex: 1, betAmountCents: 9_130, betId: "z1" }), T0).next!;
  t.throws(() => applyBet(s, cmd({ handIndex: 2, betAmountCents: 277, betId: "z2" }), T0), {
    instanceOf: ConflictError,
    message: RISKLESS_BETS,
  });
  // One more cent on hand 1 and the tie pays back 10,012 of 10,013 staked: a set that can lose.
  t.true(
    applyBet(
      applyBet(s, cmd({ handIndex: 1, betAmountCents: 1, betId: "z3" }), T0).next!,
      cmd({ handIndex: 2, betAmountCents: 277, betId: "z2" }),
      T0,
    ).result.acknowledged,
  );
});

// What tieOnlyTieLoses reads off the cards is the ties of a hand that can only tie, and only those: a
// tie among hands the set covers pays about the mean of their solo payouts, never less than the least
// of them but for a cent's rounding, and that cent is no way to lose (requireCanLose). A check of
// every tie instead would take a set that cannot lose whenever two covered hands' tie rounds a cent
// short, as here. Five hands priced at TARGET_RTP from these cards, at the flop Qs Ks 7h:
// - hand 0 (6c3d) can only tie: on each of the 17 boards of 741 where it is best (a 4 and a 5 for a
//   straight, or two of the threes and sixes left), hand 1 (6h3h), of the same ranks, has the same
//   hand; 4h 5h gives hand 1 alone a straight flush, its one solo win, which prices it at 75.7;
// - hands 2 (Ac2h) and 3 (QhAh) tie on 21 boards (a jack and a ten, or a king and an ace).
test("beside a hand that can only tie, a tie among covered hands that rounds a cent short of the stakes is no way to lose: the set is refused", (t) => {
  const hands = ["6c3d", "6h3h", "Ac2h", "QhAh", "5c8h"];
  const board = ["Qs", "Ks", "7h"];
  const atHole = advance(
    sit(deepFreeze(emptyTable(7, T0, { numberOfHands: hands.length })), "p1", 1_000_000),
    T0,
    panels(0, [
      [20, 0, 49],
      [20, 0, 49],
      [20, 0, 49],
      [20, 0, 49],
      [20, 0, 49],
    ]),
  );
  const flopPanels = priceHands(hands.map(parseHand), board.map(parseCard), TARGET_RTP);
  const atFlop: TableSnapshot = deepFreeze({ ...advance(atHole, T0, flopPanels), hands, board });
  t.deepEqual(
    flopPanels.map((p) => [p.winPercentage, p.drawPercentage, p.oddsTenths]),
    [
      [0, 2.2942, 0],
      [0.135, 2.2942, 757],
      [0.4049, 2.834, 532],
      [90.1484, 2.834, 11],
      [4.1835, 0, 232],
    ],
  );
  t.deepEqual(
    exactWinnerSets(hands.map(parseHand), board.map(parseCard)),
    [[1], [0, 1], [2], [3], [2, 3], [4]],
    "hand 0 ties with hand 1 alone; hands 2 and 3 tie with each other",
  );
  /** p1's bets of these stakes on hands 1, 2 and 4, then the answer to the one on hand 3 that completes the set. */
  const completing = (onHand1: number) => {
    let s = atFlop;
    for (const [handIndex, betAmountCents] of [
      [1, onHand1],
      [2, 6],
      [4, 14],
    ] as const) {
      s = applyBet(s, cmd({ handIndex, betAmountCents, betId: `v${handIndex}` }), T0).next!;
    }
    return () => applyBet(s, cmd({ handIndex: 3, betAmountCents: 290, betId: "v3" }), T0);
  };
  // 9 + 6 + 290 + 14 = 319 staked. Solo wins pay 681 / 319 / 319 / 324 (hands 1, 2, 3, 4); hand 0's
  // only tie, with hand 1, pays 9 x 75.7 / 2 = 340.65 -> 340: no way the cards fall pays less than
  // the stakes but the tie of hands 2 and 3, 6 x 53.2 / 2 = 159.6 -> 159 and 290 x 1.1 / 2 = 159.5
  // -> 159, 318: a cent short by rounding alone, while exactly it pays 319.1. Refused.
  t.throws(completing(9), { instanceOf: ConflictError, message: RISKLESS_BETS });
  // 8 on hand 1 and hand 0's tie pays 8 x 75.7 / 2 = 302.8 -> 302 of 318 staked: a set that can lose.
  t.true(completing(8)().result.acknowledged);
});

test("any hand priced above 0 takes bets: odds of 0.1 on a near-certain winner, and a long shot winning 1 % alone", (t) => {
  // Prices at a very low target RTP (0.05): the favourite shows 0.1, the long shots 5.0.
  const hole = advance(
    sit(newTable(), "p1"),
    T0,
    panels(0, [
      [98, 0, 1],
      [1, 0, 50],
      [1, 0, 50],
      [0, 0, 0],
    ]),
  );
  t.like(applyBet(hole, cmd({ handIndex: 0 }), T0).result, { acknowledged: true, bet: { oddsTenths: 1 } });
  t.like(applyBet(hole, cmd({ handIndex: 1 }), T0).result, { acknowledged: true, bet: { oddsTenths: 50 } });
  t.throws(() => applyBet(hole, cmd({ handIndex: 3 }), T0), { instanceOf: ConflictError, message: /cannot win/ });
});

test("a replayed bet of a player who has left answers the recorded bet and a seat balance of 0", (t) => {
  const placed = deepFreeze(applyBet(table(), cmd(), T0).next!);
  const left = deepFreeze(applyLeave(placed, { playerId: "p1", transferId: "l1" }, T0).next!);
  const replay = applyBet(left, cmd(), T0);
  t.is(replay.next, null);
  t.deepEqual(replay.result, { acknowledged: true, bet: placed.bets[0]!, seatBalanceCents: 0 });
});
