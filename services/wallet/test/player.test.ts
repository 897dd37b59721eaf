import { PLAYER_ID_MAX_LENGTH } from "@pokerodds/common/limits";
import { InvalidArgumentError } from "@pokerodds/common";
import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import test from "ava";
import { isEntitledToPersonalTable, nextPersonalTableId, validateClaims } from "../src/domain/player.js";

test("PAYING_USER and ADMIN get a personal table, the others do not", (t) => {
  t.true(isEntitledToPersonalTable("PAYING_USER"));
  t.true(isEntitledToPersonalTable("ADMIN"));
  t.false(isEntitledToPersonalTable("BASIC_USER"));
  t.false(isEntitledToPersonalTable("ANON_USER"));
});

test("personal tables are numbered from 1001 up", (t) => {
  t.is(nextPersonalTableId(null), FIRST_PERSONAL_TABLE_ID);
  t.is(FIRST_PERSONAL_TABLE_ID, 1001);
  t.is(nextPersonalTableId(1001), 1002);
});

test("claims need a player id; names are bounded and free of control characters", (t) => {
  const claims = { playerId: "u-1", username: "a@b.c", displayName: "Ann", role: "BASIC_USER" as const };
  t.deepEqual(validateClaims(claims), claims);
  t.deepEqual(validateClaims({ ...claims, username: "", displayName: "" }), {
    ...claims,
    username: "",
    displayName: "",
  });
  for (const bad of [
    { playerId: "" },
    { playerId: "x".repeat(PLAYER_ID_MAX_LENGTH + 1) },
    { displayName: "a\u0000" },
    { username: "u".repeat(321) },
  ]) {
    t.throws(() => validateClaims({ ...claims, ...bad }), { instanceOf: InvalidArgumentError }, JSON.stringify(bad));
  }
});
