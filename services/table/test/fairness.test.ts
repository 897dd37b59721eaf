// The deck's commitment is public from the game's start (before any client seed or bet) and the seed
// only at the river; a deal is the deck its seeds derive, and one from a malformed seed, or not from the
// seed the game committed to, is refused before anything is stored.
import { ConflictError, ForbiddenError } from "@pokerodds/common/errors";
import test from "ava";
import { ADMIN_CLIENT_SEED, advancePlan, applyAdvance } from "../src/domain/advance.js";
import { withCommittedDeck } from "../src/domain/cards.js";
import { publicState } from "../src/domain/view.js";
import type { Caller } from "../src/domain/index.js";
import { ADMIN, FAIRNESS, T0, advance, dealInput, dealOf, newTable, sit } from "./helpers/fixtures.js";

/** The player seated at the tables of these tests. */
const PLAYER_1: Caller = { playerId: "p1", isAdmin: false };

test("the commitment is shown from the hole on, the seed at the river only, and neither after", (t) => {
  let table = sit(newTable(), "p1");
  t.like(publicState(table), { seedCommitment: null, serverSeed: null });
  const shown: Array<[string, string | null, string | null]> = [];
  for (let step = 0; step < 5; step++) {
    table = advance(table);
    const view = publicState(table);
    shown.push([view.gameState, view.seedCommitment, view.serverSeed]);
  }
  const { seedCommitment, serverSeed } = FAIRNESS;
  t.deepEqual(shown, [
    ["STATUS_HOLE", seedCommitment, null],
    ["STATUS_FLOP", seedCommitment, null],
    ["STATUS_TURN", seedCommitment, null],
    ["STATUS_RIVER", seedCommitment, serverSeed],
    ["STATUS_SETUP", null, null],
  ]);
});

test("a deal from a malformed seed is refused; a good one is committed to by its SHA-256", (t) => {
  const start = sit(newTable(), "p1");
  const plan = advancePlan(start, ADMIN);
  const refused = (serverSeed: string) =>
    t.throws(() => applyAdvance(start, plan, { ...dealInput(), serverSeed }, T0), { instanceOf: RangeError });
  refused("");
  refused(FAIRNESS.serverSeed.toUpperCase());
  refused("zz".repeat(32));
  refused("ab".repeat(31));
  t.deepEqual(applyAdvance(start, plan, dealInput(), T0).fairness, FAIRNESS);
});

test("a deal is the deck its seeds derive for its game: the client seed and the game id change it", (t) => {
  const start = sit(newTable(), "p1");
  const hole = applyAdvance(start, advancePlan(start, PLAYER_1, "p1-seed"), dealInput(), T0);
  const derived = dealOf(start.gameId, 4, "p1-seed");
  t.deepEqual([hole.hands, hole.deck], [derived.hands, derived.remainingDeck]);
  t.notDeepEqual(hole.hands, dealOf(start.gameId, 4, null).hands);
  t.notDeepEqual(hole.hands, dealOf("T7-2", 4, "p1-seed").hands);
});

test("an admin's deal takes no client seed: the house, knowing its committed seed, could try seeds until the deck suited it", (t) => {
  const start = withCommittedDeck(sit(newTable(), "p1"), () => FAIRNESS.serverSeed);
  t.throws(() => advancePlan(start, ADMIN, "house-seed"), { instanceOf: ForbiddenError, message: ADMIN_CLIENT_SEED });
  // Also when an admin acts for the seated player, and whatever the admin deals it deals without one.
  t.throws(() => advancePlan(start, { ...PLAYER_1, isAdmin: true }, "house-seed"), { instanceOf: ForbiddenError });
  t.like(advancePlan(start, ADMIN), { kind: "DEAL", clientSeed: null });
  t.like(advancePlan(start, PLAYER_1, "p1-seed"), { kind: "DEAL", clientSeed: "p1-seed" });
});

test("a game is committed to its deck from its start: the deal must use that seed, and records the client seed", (t) => {
  const uncommitted = sit(newTable(), "p1");
  const start = withCommittedDeck(uncommitted, () => FAIRNESS.serverSeed);
  t.like(publicState(start), { seedCommitment: FAIRNESS.seedCommitment, serverSeed: null, clientSeed: null });
  // Committed once: a later write keeps the seed.
  t.is(
    withCommittedDeck(start, () => "22".repeat(32)),
    start,
  );
  t.throws(() => withCommittedDeck(uncommitted, () => "not hex"), { instanceOf: RangeError });

  const plan = advancePlan(start, PLAYER_1, "my-seed_1");
  t.like(plan, { kind: "DEAL", serverSeed: FAIRNESS.serverSeed, clientSeed: "my-seed_1" });
  const hole = applyAdvance(start, plan, dealInput(), T0);
  t.like(publicState(hole), { seedCommitment: FAIRNESS.seedCommitment, serverSeed: null, clientSeed: "my-seed_1" });
  // A deal from any other seed than the committed one is refused, even a well-formed pair.
  const other = { ...dealInput(), serverSeed: "22".repeat(32) };
  t.throws(() => applyAdvance(start, plan, other, T0), { message: /committed seed/ });
  // A deal planned before the table committed (nothing stored yet) is planned again.
  const early = advancePlan(uncommitted, ADMIN);
  t.throws(() => applyAdvance(start, early, other, T0), { instanceOf: ConflictError });
  // Any advance but the deal ignores the client seed; the next game starts uncommitted (the store commits it).
  let table = hole;
  for (let step = 0; step < 4; step++) table = advance(table);
  t.like(publicState(table), { gameState: "STATUS_SETUP", seedCommitment: null, clientSeed: null });
  t.not(withCommittedDeck(table, () => "33".repeat(32)).fairness, null);
});
