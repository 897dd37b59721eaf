// A version kept as changes since a full one reads back as exactly the version the domain made,
// through the database's encoding, on the replica that wrote it (the snapshot it built on still in
// memory) and on one that reads it cold.
import test from "ava";
import fc from "fast-check";
import { BSON } from "mongodb";
import { DomainError } from "@pokerodds/common/errors";
import { applyBet, applyLeave, applySit, applyTopUp } from "../src/domain/index.js";
import { markDelivered, refusalVersion } from "../src/domain/snapshot.js";
import type { TableSnapshot } from "../src/domain/types.js";
import { BETS_SINCE_FULL, changesSince, withChanges, type VersionChanges } from "../src/stored-version.js";
import { T0, advance, advanceTo, deepFreeze, newTable, sit } from "./helpers/fixtures.js";

const PLAYERS = ["p1", "p2", "p3"];

const op = fc.oneof(
  fc.record({ kind: fc.constant("sit" as const), player: fc.constantFrom(...PLAYERS) }),
  fc.record({ kind: fc.constant("topup" as const), player: fc.constantFrom(...PLAYERS) }),
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("bet" as const), player: fc.constantFrom(...PLAYERS) }) },
  fc.record({ kind: fc.constant("leave" as const), player: fc.constantFrom(...PLAYERS) }),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("advance" as const) }) },
  fc.record({ kind: fc.constant("refusal" as const) }),
  fc.record({ kind: fc.constant("deliver" as const) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** The domain's next version, or null when it refuses. */
function step(s: TableSnapshot, o: Op, now: number): TableSnapshot | null {
  const seatOf = (playerId: string) => s.seats.find((seat) => seat.playerId === playerId)?.seatId ?? 1;
  try {
    switch (o.kind) {
      case "sit":
        return applySit(
          s,
          { playerId: o.player, playerName: o.player, avatarImageUrl: "", amountCents: 10_000, transferId: `s${now}` },
          now,
        ).next;
      case "topup":
        return applyTopUp(s, { playerId: o.player, amountCents: 1 }, now).next;
      case "bet":
        return applyBet(
          s,
          { playerId: o.player, seatIndex: seatOf(o.player), handIndex: 0, betAmountCents: 1, betId: `b${now}` },
          now,
        ).next;
      case "leave":
        return applyLeave(s, { playerId: o.player, transferId: `l${now}` }, now).next;
      case "advance":
        return advance(s, now);
      case "refusal":
        return refusalVersion(s, now);
      case "deliver":
        return markDelivered(
          s,
          s.outbox.slice(0, 1).map((credit) => credit.key),
          now,
        );
    }
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}

/** Through the database and back: what a replica reading it cold gets. */
const stored = <T>(value: T): T => BSON.deserialize(BSON.serialize({ value })).value as T;

test("property: every version reads back as the domain made it, warm or cold; changes carry a bounded number of bets and never the game's", (t) => {
  const kept = { full: 0, changes: 0 };
  fc.assert(
    fc.property(
      fc.array(op, { minLength: 20, maxLength: 200 }),
      fc.array(fc.boolean(), { minLength: 200 }),
      (ops, cold) => {
        // The replica's view: the version kept in full and the head built from it, as the store holds them.
        let full = deepFreeze(newTable());
        let head = full;
        for (const [i, o] of ops.entries()) {
          const next = step(head, o, T0 + i);
          if (!next) continue;
          const changes = changesSince(full, next);
          if (!changes) {
            kept.full++;
            full = cold[i] ? stored(next) : next;
            t.deepEqual(full, next);
            head = deepFreeze(full);
            continue;
          }
          kept.changes++;
          t.false("bets" in changes.changes);
          t.true(changes.newBets.length <= BETS_SINCE_FULL);
          t.is(changes.since, full.version);
          const read: VersionChanges = cold[i] ? stored(changes) : changes;
          if (cold[i]) full = deepFreeze(stored(full));
          head = deepFreeze(withChanges(full, read));
          t.deepEqual(head, next);
        }
      },
    ),
    { numRuns: 150 },
  );
  t.true(kept.changes > kept.full, `kept in full ${kept.full}, as changes ${kept.changes}`);
});

test("a bet is kept as its changes: the bet, the seat it came from, the version and its times", (t) => {
  const full = advanceTo(sit(newTable(), "p1"), "STATUS_HOLE");
  const next = applyBet(
    full,
    { playerId: "p1", seatIndex: 1, handIndex: 0, betAmountCents: 100, betId: "b1" },
    T0 + 2,
  ).next!;
  const changes = changesSince(full, next)!;
  t.deepEqual(Object.keys(changes.changes).sort(), ["lastActivityAt", "seats", "updatedAt", "version"]);
  t.deepEqual(changes.newBets, next.bets);
  t.is(changes.since, full.version);
  t.deepEqual(Object.keys(changesSince(next, refusalVersion(next, T0 + 3))!.changes).sort(), ["updatedAt", "version"]);
});

test("a version is kept in full past BETS_SINCE_FULL bets since the last full one, and when a new game clears the bets", (t) => {
  const full = advanceTo(sit(newTable(), "p1"), "STATUS_HOLE");
  let next = full;
  for (let n = 1; n <= BETS_SINCE_FULL + 1; n++) {
    next = applyBet(
      next,
      { playerId: "p1", seatIndex: 1, handIndex: 0, betAmountCents: 1, betId: `b${n}` },
      T0 + n,
    ).next!;
    t.is(changesSince(full, next) === null, n > BETS_SINCE_FULL, `after ${n} bets`);
  }
  let river = next;
  while (river.gameState !== "STATUS_RIVER") river = advance(river, T0 + 100);
  const cleared = advance(river, T0 + 101);
  t.is(cleared.bets.length, 0);
  t.is(changesSince(river, cleared), null, "the next game's first version");
});
