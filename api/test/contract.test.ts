import test from "ava";
import { Type } from "@sinclair/typebox";
import { BetRequest, SitRequest, TopUpRequest } from "../src/tables.js";
import { bodyValidator, bodyValidatorWithDefaults, InvalidRequest } from "../src/validate.js";

const sit = bodyValidator(SitRequest);
const topUp = bodyValidator(TopUpRequest);
const bet = bodyValidator(BetRequest);

function refusal(t: import("ava").ExecutionContext, validate: (body: unknown) => unknown, body: unknown): string {
  const error = t.throws(() => validate(body), { instanceOf: InvalidRequest });
  return error?.message ?? "";
}

const MONEY = "must be a number greater than 0 and at most 1,000,000,000 with at most 2 decimal places";

test("money fields refuse what decisions.md refuses", (t) => {
  for (const amount of [0, -0, -5, 1.234, 0.001, 1_000_000_000.01, 2 ** 53, "10", null, true, [10]]) {
    t.is(refusal(t, sit, { buyInAmount: amount }), `buyInAmount ${MONEY}`, JSON.stringify(amount));
    t.is(refusal(t, topUp, { amount }), `amount ${MONEY}`);
    t.is(refusal(t, bet, { seatIndex: 0, handIndex: 0, betAmount: amount }), `betAmount ${MONEY}`);
  }
  t.is(refusal(t, sit, JSON.parse('{"buyInAmount":1e309}')), `buyInAmount ${MONEY}`);
  t.is(refusal(t, sit, { buyInAmount: NaN }), `buyInAmount ${MONEY}`);
});

test("money fields accept amounts with up to 2 decimals", (t) => {
  for (const amount of [0.01, 0.07, 1.1, 19.99, 100, 1_000_000_000]) {
    t.deepEqual(sit({ buyInAmount: amount }), { buyInAmount: amount });
  }
  t.deepEqual(bet({ playerId: "p1", seatIndex: 2, handIndex: 3, betAmount: 2.5 }), {
    playerId: "p1",
    seatIndex: 2,
    handIndex: 3,
    betAmount: 2.5,
  });
});

test("required fields, unknown properties and integer fields are named", (t) => {
  t.is(refusal(t, sit, {}), "buyInAmount is required");
  t.is(refusal(t, sit, { buyInAmount: 10, seat: 1 }), 'unknown property "seat"');
  for (const playerId of ["", "  ", "\u200b\u3164", "\u2800"]) {
    t.is(
      refusal(t, sit, { buyInAmount: 10, playerId }),
      "playerId must be a string of 1 to 256 characters, not only blanks, without control characters",
      JSON.stringify(playerId),
    );
  }
  // A joiner between visible characters is part of them (one emoji of three people).
  t.like(sit({ buyInAmount: 10, playerId: "\u{1f468}\u200d\u{1f469}\u200d\u{1f467}" }), { buyInAmount: 10 });
  t.is(
    refusal(t, bet, { seatIndex: -1, handIndex: 0, betAmount: 1 }),
    "seatIndex must be an integer from 0 to 2147483647",
  );
  t.is(refusal(t, bet, { seatIndex: 0, handIndex: 1.5, betAmount: 1 }), "handIndex must be an integer from 0 to 5");
  t.is(
    refusal(t, bet, { seatIndex: 2 ** 31, handIndex: 0, betAmount: 1 }),
    "seatIndex must be an integer from 0 to 2147483647",
  );
  t.is(refusal(t, bet, "{}"), "request body must be a JSON object");
  for (const at of [null, "T1-7", [0]]) {
    t.is(
      refusal(t, bet, { seatIndex: 0, handIndex: 0, betAmount: 1, at }),
      "at must be a JSON object",
      JSON.stringify(at),
    );
  }
});

test("a defaults validator needs a default for every optional field", (t) => {
  t.throws(() => bodyValidatorWithDefaults(Type.Object({ a: Type.Optional(Type.Integer()) })), {
    message: /no default for a/,
  });
  const validate = bodyValidatorWithDefaults(Type.Object({ a: Type.Optional(Type.Integer({ default: 7 })) }));
  t.deepEqual(validate(undefined), { a: 7 });
  t.deepEqual(validate({ a: 1 }), { a: 1 });
});
