import test from "ava";
import fc from "fast-check";
import { BetRequest, SitRequest, TopUpRequest } from "../src/tables.js";
import { bodyValidator, InvalidRequest } from "../src/validate.js";
import { ContractViolation } from "../src/violation.js";
import { MAX_AMOUNT_UNITS } from "@pokerodds/common/limits";
import { MAX_REPORTED_CENTS, parseMoney, toUnits } from "../src/money.js";

const MAX_CENTS = MAX_AMOUNT_UNITS * 100;
const centsOf = (value: unknown): number => parseMoney(value);

test("every amount of whole cents parses to exactly those cents", (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: MAX_CENTS }), (cents) => {
      t.is(centsOf(cents / 100), cents);
    }),
  );
});

test("a JSON amount with at most 2 decimals parses to the cents its text says", (t) => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: MAX_AMOUNT_UNITS - 1 }),
      fc.integer({ min: 0, max: 99 }),
      (units, fraction) => {
        fc.pre(units > 0 || fraction > 0);
        const text = `${units}.${String(fraction).padStart(2, "0")}`;
        t.is(centsOf(JSON.parse(text)), units * 100 + fraction);
      },
    ),
  );
});

test("a third decimal place that is not zero is refused", (t) => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: MAX_AMOUNT_UNITS - 1 }),
      fc.integer({ min: 0, max: 99 }),
      fc.integer({ min: 1, max: 9 }),
      (units, fraction, third) => {
        const text = `${units}.${String(fraction).padStart(2, "0")}${third}`;
        t.throws(() => parseMoney(JSON.parse(text)), { instanceOf: RangeError });
      },
    ),
  );
});

// Mostly amounts near valid ones: plain random doubles almost never have 2 decimals.
const anyNumber = fc.oneof(
  fc.double({ min: -10, max: MAX_AMOUNT_UNITS * 2 }),
  fc.integer({ min: -100, max: MAX_CENTS + 100 }).map((cents) => cents / 100),
  fc.integer({ min: 1, max: MAX_CENTS }).map((cents) => cents / 100 + Number.EPSILON * cents),
  fc.integer({ min: 1, max: MAX_CENTS * 10 }).map((mills) => mills / 1000),
);

// The routes call parseMoney only on a body their validator admitted (tables/routes.ts). So its
// refusal is unreachable from a request: the validators admit exactly the amounts it accepts, and
// answer every other value with a 400 of their own.
const MONEY_FIELDS = [
  { name: "sit", validate: bodyValidator(SitRequest), field: "buyInAmount", rest: {} },
  { name: "topup", validate: bodyValidator(TopUpRequest), field: "amount", rest: {} },
  { name: "bet", validate: bodyValidator(BetRequest), field: "betAmount", rest: { seatIndex: 1, handIndex: 0 } },
] as const;

test("a request's validator admits exactly the amounts parseMoney accepts; the rest are 400s", (t) => {
  for (const { name, validate, field, rest } of MONEY_FIELDS) {
    const answer = (value: unknown): "admitted" | number => {
      try {
        validate({ ...rest, [field]: value });
        return "admitted";
      } catch (error) {
        return error instanceof InvalidRequest ? 400 : 500;
      }
    };
    const parses = (value: unknown): boolean => {
      try {
        parseMoney(value);
        return true;
      } catch {
        return false;
      }
    };
    let admitted = 0;
    fc.assert(
      fc.property(fc.oneof(anyNumber, fc.jsonValue()), (value) => {
        const verdict = answer(value);
        if (verdict === "admitted") admitted++;
        return verdict === "admitted" ? parses(value) : verdict === 400 && !parses(value);
      }),
      { numRuns: 2000 },
    );
    t.true(admitted > 0, `${name}: some amounts were admitted`);
    for (const value of [0, -0, 1.005, MAX_AMOUNT_UNITS + 0.01, JSON.parse("1e309"), "10"]) {
      t.is(answer(value), 400, `${name} ${String(value)}`);
    }
  }
});

test("whatever it accepts is whole cents in range that round-trip exactly", (t) => {
  fc.assert(
    fc.property(anyNumber, (value) => {
      let cents: number;
      try {
        cents = parseMoney(value);
      } catch {
        return;
      }
      t.true(Number.isSafeInteger(cents) && cents >= 1 && cents <= MAX_CENTS);
      t.is(cents / 100, value);
    }),
  );
  t.pass();
});

test("sums of parsed amounts are exact, unlike float sums", (t) => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 50 }), (centsList) => {
      const total = centsList.reduce((sum, cents) => sum + parseMoney(cents / 100), 0);
      t.is(
        total,
        centsList.reduce((sum, cents) => sum + cents, 0),
      );
    }),
  );
  t.not(0.1 + 0.2, 0.3);
  t.is(centsOf(0.1) + parseMoney(0.2), parseMoney(0.3));
});

test("non-positive, non-finite, too large and non-number values are refused", (t) => {
  const refused: unknown[] = [
    0,
    -0,
    -1,
    -0.01,
    NaN,
    Infinity,
    -Infinity,
    JSON.parse("1e309"),
    MAX_AMOUNT_UNITS + 0.01,
    2 ** 53,
    2 ** 53 + 2,
    1.234,
    1.005,
    0.001,
    "10",
    "10.00",
    null,
    undefined,
    true,
    [10],
    { amount: 10 },
    10n,
  ];
  for (const value of refused) t.throws(() => parseMoney(value), { instanceOf: RangeError }, String(value));
  fc.assert(
    fc.property(
      fc.anything().filter((value) => typeof value !== "number"),
      (value) => {
        t.throws(() => parseMoney(value));
      },
    ),
  );
});

test("the limits themselves", (t) => {
  t.is(centsOf(0.01), 1);
  t.is(centsOf(MAX_AMOUNT_UNITS), MAX_CENTS);
  t.is(centsOf(0.07), 7);
  t.is(centsOf(1.1), 110);
  t.is(centsOf(999_999_999.99), 99_999_999_999);
});

const asJson = (cents: number) => JSON.stringify(toUnits(cents));

/** The shortest decimal text of cents / 100, computed exactly. */
function decimalText(cents: number): string {
  const whole = BigInt(cents) / 100n;
  const fraction = BigInt(cents) % 100n;
  return fraction === 0n ? `${whole}` : `${whole}.${String(fraction).padStart(2, "0").replace(/0$/, "")}`;
}

test("reported cents print with at most 2 decimals and read back as the same cents", (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: MAX_REPORTED_CENTS }), (cents) => {
      const text = asJson(cents);
      t.is(text, decimalText(cents));
      t.is(Math.round(JSON.parse(text) * 100), cents);
    }),
  );
});

test("cents -> JSON -> parseMoney round-trips over the whole request range", (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: MAX_CENTS }), (cents) => {
      t.is(centsOf(JSON.parse(asJson(cents))), cents);
    }),
  );
  for (const cents of [1, 7, 10, 99, 100, 101, 110, MAX_CENTS - 1, MAX_CENTS])
    t.is(centsOf(JSON.parse(asJson(cents))), cents);
});

test("the limits of what a response may report", (t) => {
  t.is(toUnits(0), 0);
  t.is(asJson(MAX_REPORTED_CENTS), "10000000000000");
  t.is(asJson(MAX_REPORTED_CENTS - 1), "9999999999999.99");
  for (const cents of [-1, -0.5, 0.5, 1.5, MAX_REPORTED_CENTS + 1, 2 ** 53, NaN, Infinity]) {
    t.throws(() => toUnits(cents), { instanceOf: ContractViolation }, String(cents));
  }
});
