// What the web client calls a seat (web/src/model/seat-names.ts), run under Node: a display name is
// the identity provider's and nobody's to reserve, so a seat that could pass for another shows its id.
import test from "ava";
import { seatLabels } from "../../web/src/model/seat-names.js";

test("a seat shows its name, or its id when it has none", (t) => {
  const labels = seatLabels([
    { playerId: "alice", playerName: "Alice" },
    { playerId: "bob", playerName: "" },
  ]);
  t.deepEqual(
    [...labels],
    [
      ["alice", "Alice"],
      ["bob", "bob"],
    ],
  );
});

test("two seats with one name, or a name that is another seat's id, show their ids beside it", (t) => {
  const labels = seatLabels([
    { playerId: "alice", playerName: "Alice" },
    { playerId: "mallory", playerName: "Alice" },
    { playerId: "eve", playerName: "bob" },
    { playerId: "bob", playerName: "" },
  ]);
  t.deepEqual(
    [...labels],
    [
      ["alice", "Alice (alice)"],
      ["mallory", "Alice (mallory)"],
      ["eve", "bob (eve)"],
      ["bob", "bob"],
    ],
  );
});

test("a name that only looks like another's (case, blanks, look-alike letters, a copied label) shows its id too", (t) => {
  const labels = seatLabels([
    { playerId: "alice-1", playerName: "Alice" },
    { playerId: "m1", playerName: "alice\u200b" },
    { playerId: "m2", playerName: "Alice " },
    { playerId: "m3", playerName: "\u0410lice" },
    { playerId: "m4", playerName: "Alice (alice-1)" },
    { playerId: "carol", playerName: "Carol" },
  ]);
  t.deepEqual(
    [...labels.values()],
    ["Alice (alice-1)", "alice\u200b (m1)", "Alice  (m2)", "\u0410lice (m3)", "Alice (alice-1) (m4)", "Carol"],
  );
});
