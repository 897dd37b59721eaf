// The deck's commitment is public from the hole (before any bet) and the seed only at the river; a
// deal whose commitment is not SHA-256 of its seed is refused before anything is stored.
import test from "ava";
import { advancePlan, applyAdvance } from "../src/domain/advance.js";
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
  refused({ serverSeed: "", seedCommitment: "" });
  t.is(applyAdvance(start, plan, deal, T0).fairness?.seedCommitment, FAIRNESS.seedCommitment);
});
