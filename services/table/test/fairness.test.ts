// The deck's commitment is public from the game's start (before any client seed or bet) and the seed
// only at the river; a deal whose commitment is not SHA-256 of its seed, or not from the seed the game
// committed to, or whose cards are not the deck its seeds derive, is refused before anything is stored.
import { ConflictError, ForbiddenError } from "@pokerodds/common/errors";
import test from "ava";
import { createHash } from "node:crypto";
import { ADMIN_CLIENT_SEED, advancePlan, applyAdvance } from "../src/domain/advance.js";
import { withCommittedDeck } from "../src/domain/cards.js";
import { publicState } from "../src/domain/view.js";
import type { Caller } from "../src/domain/index.js";
import { ADMIN, FAIRNESS, HOLE_PANELS, T0, advance, dealOf, newTable, sit } from "./helpers/fixtures.js";

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

test("a deal whose commitment does not match its seed, or is malformed, is refused", (t) => {
  const start = sit(newTable(), "p1");
  const plan = advancePlan(start, ADMIN);
  const deal = { kind: "DEAL" as const, ...dealOf(start.gameId), handOdds: HOLE_PANELS };
  const refused = (fairness: typeof FAIRNESS) =>
    t.throws(() => applyAdvance(start, plan, { ...deal, fairness }, T0), { instanceOf: RangeError });
  refused({ ...FAIRNESS, seedCommitment: "00".repeat(32) });
  refused({ ...FAIRNESS, serverSeed: "22".repeat(32) });
  refused({ ...FAIRNESS, serverSeed: FAIRNESS.serverSeed.toUpperCase() });
  refused({ serverSeed: "", seedCommitment: "", clientSeed: null });
  t.is(applyAdvance(start, plan, deal, T0).fairness?.seedCommitment, FAIRNESS.seedCommitment);
});

test("a deal whose cards are not the deck its seeds derive is refused: no game is bet on cards a reveal cannot verify", (t) => {
  const start = sit(newTable(), "p1");
  const plan = advancePlan(start, PLAYER_1, "p1-seed");
  const derived = dealOf(start.gameId, 4, "p1-seed");
  const deal = { kind: "DEAL" as const, ...derived, handOdds: HOLE_PANELS };
  const refused = (cards: { hands: string[]; remainingDeck: string[] }) =>
    t.throws(() => applyAdvance(start, plan, { ...deal, ...cards }, T0), { message: /not the deck its seeds derive/ });
  // Every card once, seed and commitment right, but the order chosen: hands swapped, or a board card swapped.
  const [first, second, ...others] = derived.hands;
  refused({ hands: [second!, first!, ...others], remainingDeck: derived.remainingDeck });
  const [flop1, flop2, ...rest] = derived.remainingDeck;
  refused({ hands: derived.hands, remainingDeck: [flop2!, flop1!, ...rest] });
  // The deck of the seed without the player's client seed, or of another game.
  refused(dealOf(start.gameId, 4, null));
  refused(dealOf("T7-2", 4, "p1-seed"));
  t.deepEqual(applyAdvance(start, plan, deal, T0).hands, derived.hands);
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
  const deal = { kind: "DEAL" as const, ...dealOf(start.gameId, 4, "my-seed_1"), handOdds: HOLE_PANELS };
  const hole = applyAdvance(start, plan, deal, T0);
  t.like(publicState(hole), { seedCommitment: FAIRNESS.seedCommitment, serverSeed: null, clientSeed: "my-seed_1" });
  // A deal from any other seed than the committed one is refused, even a well-formed pair.
  const other = {
    serverSeed: "22".repeat(32),
    seedCommitment: createHash("sha256").update(Buffer.alloc(32, 0x22)).digest("hex"),
  };
  t.throws(() => applyAdvance(start, plan, { ...deal, fairness: other }, T0), { message: /committed to/ });
  // A deal planned before the table committed (nothing stored yet) is planned again.
  const early = advancePlan(uncommitted, ADMIN);
  t.throws(() => applyAdvance(start, early, { ...deal, fairness: other }, T0), { instanceOf: ConflictError });
  // Any advance but the deal ignores the client seed; the next game starts uncommitted (the store commits it).
  let table = hole;
  for (let step = 0; step < 4; step++) table = advance(table);
  t.like(publicState(table), { gameState: "STATUS_SETUP", seedCommitment: null, clientSeed: null });
  t.not(withCommittedDeck(table, () => "33".repeat(32)).fairness, null);
});
