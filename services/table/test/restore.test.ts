import test from "ava";
import fc from "fast-check";
import { sealRestored, withCommittedDeck } from "../src/domain/index.js";
import { tableMoney } from "../src/domain/snapshot.js";
import type { TableSnapshot } from "../src/domain/types.js";
import { FAIRNESS, T0, advance, advanceTo, bet, closed, deepFreeze, newTable, sit } from "./helpers/fixtures.js";

const LATER = T0 + 60_000;

/** p1 and p2 seated with 10,000 cents each; the game dealt when `state` is a betting stage. */
const table = (state: TableSnapshot["gameState"]): TableSnapshot => advanceTo(sit(sit(newTable(), "p1"), "p2"), state);

/** The table, with bets of p1 and p2 on hands 0 and 1, at `state` (from the hole). */
function withBets(state: TableSnapshot["gameState"]): TableSnapshot {
  const hole = bet(bet(bet(table("STATUS_HOLE"), "p1", 0, 300), "p2", 1, 500), "p1", 1, 200);
  return advanceTo(hole, state);
}

for (const state of ["STATUS_HOLE", "STATUS_FLOP", "STATUS_TURN"] as const) {
  test(`a game in play at ${state} is void: every open bet refunded to its player's account, the seats kept`, (t) => {
    const before = withBets(state);
    const sealed = sealRestored(before, LATER);
    t.is(sealed.version, before.version + 1);
    t.like(sealed.finishedGame, { gameId: before.gameId, outcome: "VOID", stakesCents: 1_000, refundsCents: 1_000 });
    t.deepEqual(
      sealed.outbox.map(({ playerId, amountCents, reason }) => ({ playerId, amountCents, reason })),
      [
        { playerId: "p1", amountCents: 500, reason: "VOID_REFUND" },
        { playerId: "p2", amountCents: 500, reason: "VOID_REFUND" },
      ],
    );
    t.deepEqual(sealed.seats, before.seats);
    // The next game, with no cards, no seed yet (the store commits a fresh one) and no bets.
    t.like(sealed, { gameState: "STATUS_SETUP", gameNumber: before.gameNumber + 1, hands: null, fairness: null });
    t.deepEqual([sealed.bets, sealed.board], [[], []]);
    t.is(sealed.lastActivityAt, before.lastActivityAt, "a seal is housekeeping, not play");
  });
}

test("a game whose stage was closing when the backup was taken is void too", (t) => {
  const before = closed(withBets("STATUS_FLOP"));
  t.true(before.bettingClosed);
  t.like(sealRestored(before, LATER), { gameState: "STATUS_SETUP", finishedGame: { outcome: "VOID" } });
});

for (const state of ["STATUS_SETUP", "STATUS_START"] as const) {
  test(`a game not dealt yet at ${state} loses its committed seed, and the store commits a new one`, (t) => {
    const before = deepFreeze({ ...table("STATUS_SETUP"), gameState: state, fairness: FAIRNESS });
    const sealed = sealRestored(before, LATER);
    t.like(sealed, { version: before.version + 1, gameId: before.gameId, gameState: state, fairness: null });
    t.is(sealed.finishedGame, null);
    const recommitted = withCommittedDeck(sealed, () => "cd".repeat(32));
    t.is(recommitted.fairness?.serverSeed, "cd".repeat(32));
    t.not(recommitted.fairness?.seedCommitment, FAIRNESS.seedCommitment);
  });
}

test("a settled game (the river) is left as it is: its seed is revealed already, the next game draws a new one", (t) => {
  const before = withBets("STATUS_RIVER");
  const sealed = sealRestored(before, LATER);
  t.deepEqual({ ...sealed, version: before.version, updatedAt: before.updatedAt }, { ...before, finishedGame: null });
});

test("every seal conserves the table's money, and a void returns exactly the open stakes", (t) => {
  const stage = fc.constantFrom("STATUS_HOLE", "STATUS_FLOP", "STATUS_TURN");
  const stakes = fc.array(
    fc.record({ player: fc.constantFrom("p1", "p2"), hand: fc.nat(3), cents: fc.integer({ min: 1, max: 999 }) }),
    { maxLength: 6 },
  );
  fc.assert(
    fc.property(stage, stakes, (state, bets) => {
      let s = table("STATUS_HOLE");
      for (const b of bets) s = bet(s, b.player, b.hand, b.cents);
      s = advanceTo(s, state);
      const before = tableMoney(s);
      const after = tableMoney(sealRestored(s, LATER));
      const open = bets.reduce((sum, b) => sum + b.cents, 0);
      return (
        before.openStakesCents === open &&
        after.openStakesCents === 0 &&
        after.outboxCents === before.outboxCents + open &&
        after.seatsCents === before.seatsCents &&
        after.houseResultCents === before.houseResultCents
      );
    }),
    { numRuns: 300 },
  );
  t.pass();
});

test("advancing a sealed game deals anew: the void's next game is dealt like any other", (t) => {
  const sealed = withCommittedDeck(sealRestored(withBets("STATUS_FLOP"), LATER), () => FAIRNESS.serverSeed);
  t.is(advance(sealed, LATER).gameState, "STATUS_HOLE");
});
