// A (player, idempotency key) pair names one transfer and one bet, and no other pair names the same.
import test from "ava";
import { betIdOf, transferIdOf } from "../src/request-ids.js";

test("the same pair always names the same transfer and bet; pairs whose characters run on alike do not", (t) => {
  t.is(transferIdOf("alice", "k1"), transferIdOf("alice", "k1"));
  t.is(betIdOf("alice", "k1"), betIdOf("alice", "k1"));
  // Joined without a separator these are one string: "ab" + "c" and "a" + "bc".
  t.not(transferIdOf("ab", "c"), transferIdOf("a", "bc"));
  t.not(betIdOf("ab", "c"), betIdOf("a", "bc"));
  // Nor do a player's keys name another player's transfer ("a:b" as a player id, "a" with key "b:...").
  t.not(transferIdOf("a:b", "c"), transferIdOf("a", "b:c"));
});
