import test from "ava";
import { sumCents } from "../src/domain/money.js";
import { applyLeave } from "../src/domain/seats.js";
import { isConserved, sealNext, tableMoney } from "../src/domain/snapshot.js";
import { T0, advance, advanceTo, bet, newTable, riverPanels, sit } from "./helpers/fixtures.js";

test("tableMoney follows the money from seats into stakes, the house and the outbox", (t) => {
  let s = sit(sit(newTable(), "p1", 10_000), "p2", 5_000);
  t.deepEqual(tableMoney(s), {
    seatsCents: 15_000,
    openStakesCents: 0,
    outboxCents: 0,
    deliveredCents: 0,
    houseResultCents: 0,
    creditedCents: 15_000,
  });
  s = advance(s);
  s = bet(s, "p1", 0, 1_000); // 3.2
  s = bet(s, "p2", 1, 2_000); // 3.9
  t.like(tableMoney(s), { seatsCents: 12_000, openStakesCents: 3_000 });
  s = applyLeave(s, { playerId: "p2", transferId: "l" }, T0).next!;
  t.like(tableMoney(s), { seatsCents: 9_000, openStakesCents: 3_000, outboxCents: 3_000 });
  s = advance(advanceTo(s, "STATUS_TURN"), T0, riverPanels([1])); // p2's hand wins, p2 is gone
  t.deepEqual(tableMoney(s), {
    seatsCents: 9_000,
    openStakesCents: 0,
    outboxCents: 3_000 + 7_800,
    deliveredCents: 0,
    houseResultCents: 3_000 - 7_800,
    creditedCents: 15_000,
  });
  t.true(isConserved(tableMoney(s)));
});

test("sealNext refuses to produce a snapshot that creates or loses a cent", (t) => {
  const s = sit(newTable(), "p1", 100);
  const seat = s.seats[0]!;
  t.throws(() => sealNext(s, { seats: [{ ...seat, balanceCents: 101 }] }, T0), { message: /not conserved/ });
  t.throws(() => sealNext(s, { seats: [] }, T0), { message: /not conserved/ });
  t.throws(() => sealNext(s, { totals: { ...s.totals, houseResultCents: 1 } }, T0), { message: /not conserved/ });
  const ok = sealNext(s, { seats: [{ ...seat, playerName: "renamed" }] }, T0 + 1);
  t.like(ok, { version: s.version + 1, updatedAt: T0 + 1, lastActivityAt: T0 + 1, finishedGame: null });
});

test("every finished game is counted, settled or void", (t) => {
  const hole = advanceTo(sit(newTable(), "p1", 100_000), "STATUS_HOLE");
  t.is(hole.gamesFinished, 0);
  const river = advance(advanceTo(hole, "STATUS_TURN"), T0, riverPanels([0]));
  t.is(river.gamesFinished, 1);
  const voided = applyLeave(hole, { playerId: "p1", transferId: "l" }, T0).next!;
  t.is(voided.finishedGame?.outcome, "VOID");
  t.is(voided.gamesFinished, 1);
});

test("sumCents throws rather than lose a cent past the exact integer range", (t) => {
  t.is(sumCents([Number.MAX_SAFE_INTEGER - 1, 1]), Number.MAX_SAFE_INTEGER);
  t.throws(() => sumCents([Number.MAX_SAFE_INTEGER, 1]), { instanceOf: RangeError });
});
