// The web client's own check of a typed amount (web/src/model/money.ts), run under Node: what it lets
// through is what the API takes, so an amount over the API's bound is refused on the page, in the
// player's words, rather than by the server in its field names.
import test from "ava";
import { readFileSync } from "node:fs";
import { MAX_AMOUNT_UNITS } from "@pokerodds/common/limits";
import { parseAmount } from "../../web/src/model/money.js";

/** Every `maximum` of an `x-money` field in the public OpenAPI document. */
function moneyMaximums(): number[] {
  const document = readFileSync(new URL("../../gateway/test/fixtures/openapi.json", import.meta.url), "utf8");
  const found: number[] = [];
  JSON.parse(document, (_key, value: unknown) => {
    const field = value as { "x-money"?: boolean; maximum?: number } | null;
    if (field && typeof field === "object" && field["x-money"] && field.maximum !== undefined)
      found.push(field.maximum);
    return value;
  });
  return found;
}

test("the page's largest amount is the API's, for every money field", (t) => {
  const maximums = moneyMaximums();
  t.true(maximums.length >= 3, "buy-in, top-up and bet at least");
  t.deepEqual(new Set(maximums), new Set([MAX_AMOUNT_UNITS]));
});

test("an amount over the largest is refused in the player's words; the largest is taken", (t) => {
  t.deepEqual(parseAmount("1000000000"), { amount: 1_000_000_000 });
  t.deepEqual(parseAmount("1000000000.01"), { problem: "The amount can be at most 1,000,000,000.00." });
  t.deepEqual(parseAmount("99999999999999999999"), { problem: "The amount can be at most 1,000,000,000.00." });
  t.deepEqual(parseAmount("12.50"), { amount: 12.5 });
});

test("thousands grouped as the page writes them are taken; any other comma is refused, never read as a point", (t) => {
  t.deepEqual(parseAmount("1,000"), { amount: 1_000 });
  t.deepEqual(parseAmount("1,000.50"), { amount: 1_000.5 });
  t.deepEqual(parseAmount("1,000,000,000.00"), { amount: 1_000_000_000 });
  const comma = { problem: "Use a point for cents, such as 12.50; a comma only between thousands, as in 1,000." };
  for (const typed of ["10,50", "1,00", "1,0000", ",100", "1,000,00"]) t.deepEqual(parseAmount(typed), comma, typed);
});
