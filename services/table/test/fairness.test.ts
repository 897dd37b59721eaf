// The deck's commitment is public from the game's start (before any client seed or bet) and the seed
// only at the river; a deal whose commitment is not SHA-256 of its seed, or not from the seed the game
// committed to, is refused before anything is stored.
import { ConflictError } from "@pokerodds/common/errors";
import test from "ava";
import { createHash } from "node:crypto";
import { advancePlan, applyAdvance } from "../src/domain/advance.js";
import { withCommittedDeck } from "../src/domain/cards.js";
import { publicState } from "../src/domain/view.js";
import { ADMIN, ALL_CARDS, FAIRNESS, HOLE_PANELS, T0, advance, dealFrom, newTable, sit } from "./helpers/fixtures.js";

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
  const deal = { kind: "DEAL" as const, ...dealFrom(ALL_CARDS), handOdds: HOLE_PANELS };
  const refused = (fairness: typeof FAIRNESS) =>
    t.throws(() => applyAdvance(start, plan, { ...deal, fairness }, T0), { instanceOf: RangeError });
  refused({ ...FAIRNESS, seedCommitment: "00".repeat(32) });
  refused({ ...FAIRNESS, serverSeed: "22".repeat(32) });
  refused({ ...FAIRNESS, serverSeed: FAIRNESS.serverSeed.toUpperCase() });
  refused({ serverSeed: "", seedCommitment: "", clientSeed: null });
  t.is(applyAdvance(start, plan, deal, T0).fairness?.seedCommitment, FAIRNESS.seedCommitment);
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

  const plan = advancePlan(start, ADMIN, "my-seed_1");
  t.like(plan, { kind: "DEAL", serverSeed: FAIRNESS.serverSeed, clientSeed: "my-seed_1" });
  const deal = { kind: "DEAL" as const, ...dealFrom(ALL_CARDS), handOdds: HOLE_PANELS, fairness: FAIRNESS };
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
