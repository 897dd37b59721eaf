import test, { type ExecutionContext } from "ava";
import fc from "fast-check";
import { ConflictError, IdempotencyMismatchError, InvalidArgumentError } from "@pokerodds/common/errors";
import { MAX_BALANCE_CENTS } from "@pokerodds/common/limits";
import { sitAfterDebit, topUpAfterDebit } from "../src/domain/after-debit.js";
import { TABLE_CREDIT_MAX_CENTS, refusalVersion } from "../src/domain/snapshot.js";
import { applySit, applyTopUp, type SitCommand } from "../src/domain/seats.js";
import { isConserved, tableMoney } from "../src/domain/snapshot.js";
import type { TableSnapshot } from "../src/domain/types.js";
import { T0, advanceTo, bet, deepFreeze, newTable, sit } from "./helpers/fixtures.js";

/** What a top-up refused after its debit adds to the reason: its answer is its key's for good. */
const REFUNDED =
  ": this top-up's amount, already taken from the account, goes back to it; a new idempotency key tops up again";

const sitCmd = (over: Partial<SitCommand> = {}): SitCommand => ({
  playerId: "p7",
  playerName: "Gil",
  avatarImageUrl: "/img/gil.png",
  amountCents: 5_000,
  transferId: "sit-7",
  ...over,
});

const fullTable = (): TableSnapshot => {
  let s = newTable();
  for (const p of ["p1", "p2", "p3", "p4", "p5", "p6"]) s = sit(s, p, 10_000, T0 + 1);
  return s;
};

/** The refusal is the next version and nothing else: same seats, money, game and activity. */
function assertRefusalVersion(t: ExecutionContext, before: TableSnapshot, next: TableSnapshot | null) {
  t.truthy(next);
  const { version, updatedAt, finishedGame, ...rest } = next!;
  const { version: v0, updatedAt: _u0, finishedGame: _f0, ...rest0 } = before;
  t.is(version, v0 + 1);
  t.is(updatedAt, T0 + 50);
  t.is(finishedGame, null);
  t.deepEqual(rest, rest0);
  t.deepEqual(tableMoney(next!), tableMoney(before));
}

test("a sit refused after the debit (table full) is stored as an unchanged version", (t) => {
  const full = fullTable();
  const { next, result } = sitAfterDebit(full, sitCmd(), T0 + 50);
  t.deepEqual(result, { acknowledged: false, message: "table full", seatId: 0, seatBalanceCents: 0 });
  assertRefusalVersion(t, full, next);
  // Plain applySit stores nothing for the same NACK: the rule is what makes it a decision.
  t.is(applySit(full, sitCmd(), T0 + 50).next, null);
});

test("a sit refused after the debit (seated meanwhile) is stored as an unchanged version", (t) => {
  const seated = sit(newTable(), "p7", 10_000, T0 + 1);
  const { next, result } = sitAfterDebit(seated, sitCmd({ transferId: "another-sit" }), T0 + 50);
  t.deepEqual(result, {
    acknowledged: false,
    message: "already seated at this table",
    seatId: 1,
    seatBalanceCents: 10_000,
  });
  assertRefusalVersion(t, seated, next);
});

test("a sit that finds a seat is applySit's outcome; a replay stores nothing", (t) => {
  const table = newTable();
  const seated = sitAfterDebit(table, sitCmd(), T0 + 50);
  t.deepEqual(seated, applySit(table, sitCmd(), T0 + 50));
  t.deepEqual(seated.result, { acknowledged: true, seatId: 1, seatBalanceCents: 5_000 });
  const replay = sitAfterDebit(deepFreeze(seated.next!), sitCmd(), T0 + 60);
  t.deepEqual(replay, { next: null, result: { acknowledged: true, seatId: 1, seatBalanceCents: 5_000 } });
});

test("a sit's invalid input and reused transfer still throw", (t) => {
  t.throws(() => sitAfterDebit(newTable(), sitCmd({ amountCents: 0 }), T0), { instanceOf: InvalidArgumentError });
  const seated = deepFreeze(sitAfterDebit(newTable(), sitCmd(), T0).next!);
  t.throws(() => sitAfterDebit(seated, sitCmd({ playerId: "p8" }), T0), { instanceOf: IdempotencyMismatchError });
});

test("a top-up refused after the debit (not seated) is stored as an unchanged version", (t) => {
  const table = sit(newTable(), "p1", 10_000, T0 + 1);
  const { next, result } = topUpAfterDebit(table, { playerId: "p9", amountCents: 250 }, T0 + 50);
  t.deepEqual(result, {
    credited: false,
    message: `not seated at this table${REFUNDED}`,
  });
  assertRefusalVersion(t, table, next);
  t.throws(() => applyTopUp(table, { playerId: "p9", amountCents: 250 }, T0 + 50), {
    instanceOf: ConflictError,
  });
});

test("a top-up asked for a seat session the player has left is refused the same way, also at a new seat", (t) => {
  const table = sit(newTable(), "p1", 10_000, T0 + 1);
  const asked = table.seats[0]!.sessionId;
  // The player left and sat again: the seat is theirs, its session another.
  const again = { ...table, seats: [{ ...table.seats[0]!, sessionId: "a-later-sit" }] };
  const { next, result } = topUpAfterDebit(again, { playerId: "p1", amountCents: 250, sessionId: asked }, T0 + 50);
  t.deepEqual(result, {
    credited: false,
    message: `the seat this top-up was asked for has been left: nothing was added to the new one${REFUNDED}`,
  });
  assertRefusalVersion(t, again, next);
  // In the session it was asked for, or with none named, it is credited.
  t.like(topUpAfterDebit(table, { playerId: "p1", amountCents: 250, sessionId: asked }, T0 + 50).result, {
    credited: true,
    seatBalanceCents: 10_250,
  });
  t.like(topUpAfterDebit(again, { playerId: "p1", amountCents: 250 }, T0 + 50).result, { credited: true });
});

test("a top-up past the seat balance limit is refused the same way", (t) => {
  const seated = sit(newTable(), "p1", 10_000, T0 + 1);
  // A seat (and the money credited to the table) just below the largest balance.
  const nearLimit = MAX_BALANCE_CENTS - 100;
  const table = {
    ...seated,
    seats: [{ ...seated.seats[0]!, balanceCents: nearLimit }],
    totals: { ...seated.totals, creditedCents: nearLimit },
  };
  const command = { playerId: "p1", amountCents: 101, transferId: "t1" };
  const { next, result } = topUpAfterDebit(table, command, T0 + 50);
  t.deepEqual(result, { credited: false, message: `seat balance limit reached${REFUNDED}` });
  assertRefusalVersion(t, table, next);
});

test("money in past the table's money limit, after the debit, is refused and stored as an unchanged version", (t) => {
  const seated = sit(newTable(), "p1", 10_000, T0 + 1);
  const creditedCents = TABLE_CREDIT_MAX_CENTS - 100;
  const table = { ...seated, totals: { ...seated.totals, creditedCents, deliveredCents: creditedCents - 10_000 } };
  const topUp = topUpAfterDebit(table, { playerId: "p1", amountCents: 101 }, T0 + 50);
  t.deepEqual(topUp.result, { credited: false, message: `table money limit reached${REFUNDED}` });
  assertRefusalVersion(t, table, topUp.next);
  const seat = sitAfterDebit(table, sitCmd({ amountCents: 101 }), T0 + 50);
  t.deepEqual(seat.result, {
    acknowledged: false,
    message: "table money limit reached",
    seatId: 0,
    seatBalanceCents: 0,
  });
  assertRefusalVersion(t, table, seat.next);
});

test("a credited top-up is applyTopUp's change; invalid input throws", (t) => {
  const table = sit(newTable(), "p1", 10_000, T0 + 1);
  const command = { playerId: "p1", amountCents: 250 };
  const credited = topUpAfterDebit(table, command, T0 + 50);
  t.deepEqual(credited, {
    next: applyTopUp(table, command, T0 + 50).next,
    result: { credited: true, seatBalanceCents: 10_250 },
  });
  t.throws(() => topUpAfterDebit(table, { ...command, amountCents: -1 }, T0), { instanceOf: InvalidArgumentError });
});

test("a refusal version keeps every table's money and game as they were, mid-game too", (t) => {
  const tables = [
    newTable(),
    fullTable(),
    bet(advanceTo(sit(sit(newTable(), "a"), "b"), "STATUS_HOLE"), "a", 1, 500),
    advanceTo(sit(newTable(), "a"), "STATUS_RIVER"),
  ];
  fc.assert(
    fc.property(fc.constantFrom(...tables), fc.integer({ min: 0, max: 10 ** 6 }), (table, later) => {
      const next = refusalVersion(table, table.updatedAt + later);
      t.is(next.version, table.version + 1);
      t.is(next.lastActivityAt, table.lastActivityAt);
      t.is(next.gamesFinished, table.gamesFinished);
      t.deepEqual(
        { seats: next.seats, bets: next.bets, outbox: next.outbox, totals: next.totals, gameId: next.gameId },
        { seats: table.seats, bets: table.bets, outbox: table.outbox, totals: table.totals, gameId: table.gameId },
      );
      t.true(isConserved(tableMoney(next)));
    }),
  );
});
