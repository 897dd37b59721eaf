import { IdempotencyMismatchError, InvalidArgumentError } from "@pokerodds/common";
import test from "ava";
import fc from "fast-check";
import { MAX_AMOUNT_CENTS, MAX_BALANCE_CENTS, MOVEMENT_KEY_MAX_LENGTH } from "@pokerodds/common/limits";
import { WELCOME_CREDIT_CENTS } from "../src/domain/money.js";
import {
  decide,
  entryIdOf,
  isRecorded,
  isSameRequest,
  nextEntry,
  replay,
  validateMovementRequest,
  welcomeRequest,
  type MovementKind,
  type MovementRequest,
} from "../src/domain/movement.js";

const RUNS = { numRuns: 5000 };
const balance = fc.integer({ min: 0, max: MAX_BALANCE_CENTS });
const amount = fc.integer({ min: 1, max: MAX_AMOUNT_CENTS });
const kind = fc.constantFrom<MovementKind>("welcome", "debit", "credit", "deposit", "withdraw");
const outgoing = fc.constantFrom<MovementKind>("debit", "withdraw");
const incoming = fc.constantFrom<MovementKind>("welcome", "credit", "deposit");

const request = (overrides: Partial<MovementRequest> = {}): MovementRequest => ({
  kind: "debit",
  playerId: "p1",
  requestedCents: 500,
  idempotencyKey: "k1",
  reason: "sit",
  reference: "table-3",
  ...overrides,
});

test("no outcome ever leaves a balance below zero or above the limit, and every cent is accounted for", (t) => {
  fc.assert(
    fc.property(balance, kind, amount, (before, k, requested) => {
      const outcome = decide(before, k, requested);
      t.true(outcome.balanceAfterCents >= 0 && outcome.balanceAfterCents <= MAX_BALANCE_CENTS);
      t.is(outcome.balanceAfterCents, before + outcome.amountCents);
      t.true(Number.isSafeInteger(outcome.balanceAfterCents));
    }),
    RUNS,
  );
});

test("money goes out exactly when the balance covers it, in full", (t) => {
  fc.assert(
    fc.property(balance, outgoing, amount, (before, k, requested) => {
      const outcome = decide(before, k, requested);
      if (requested <= before) {
        t.deepEqual(outcome, {
          applied: true,
          refusal: null,
          amountCents: -requested,
          balanceAfterCents: before - requested,
        });
      } else {
        t.deepEqual(outcome, {
          applied: false,
          refusal: "insufficient_funds",
          amountCents: 0,
          balanceAfterCents: before,
        });
      }
    }),
    RUNS,
  );
});

test("money comes in in full unless the balance would pass its limit", (t) => {
  fc.assert(
    fc.property(balance, incoming, amount, (before, k, requested) => {
      const outcome = decide(before, k, requested);
      if (before + requested <= MAX_BALANCE_CENTS) t.is(outcome.amountCents, requested);
      else
        t.deepEqual(outcome, { applied: false, refusal: "balance_limit", amountCents: 0, balanceAfterCents: before });
    }),
    RUNS,
  );
});

test("a debit of exactly the balance applies and leaves zero; one cent more is refused", (t) => {
  t.is(decide(500, "debit", 500).balanceAfterCents, 0);
  t.false(decide(500, "debit", 501).applied);
  t.false(decide(0, "withdraw", 1).applied);
});

test("only a credit refused at the balance limit goes unrecorded; a deposit's refusal there is its key's answer", (t) => {
  for (const kind of ["deposit", "welcome", "credit"] as const) {
    const outcome = decide(MAX_BALANCE_CENTS, kind, 1);
    t.is(outcome.refusal, "balance_limit");
    t.is(isRecorded({ kind, ...outcome }), kind !== "credit", kind);
  }
  t.true(isRecorded({ kind: "debit", ...decide(0, "debit", 1) }));
});

test("the next entry follows the head by one sequence and records the request", (t) => {
  const at = new Date("2026-01-02T03:04:05Z");
  const entry = nextEntry({ sequence: 7, balanceAfterCents: 1_000 }, request(), at);
  t.deepEqual(entry, {
    entryId: "p1:8",
    playerId: "p1",
    sequence: 8,
    kind: "debit",
    requestedCents: 500,
    applied: true,
    refusal: null,
    amountCents: -500,
    balanceAfterCents: 500,
    reason: "sit",
    reference: "table-3",
    idempotencyKey: "k1",
    createdAt: at,
  });
  const refused = nextEntry({ sequence: 8, balanceAfterCents: 499 }, request(), at);
  t.like(refused, {
    sequence: 9,
    applied: false,
    refusal: "insufficient_funds",
    amountCents: 0,
    balanceAfterCents: 499,
  });
});

test("an account's first entry is its welcome credit at sequence 1", (t) => {
  const entry = nextEntry(null, welcomeRequest("p1"), new Date());
  t.like(entry, { sequence: 1, kind: "welcome", amountCents: WELCOME_CREDIT_CENTS, balanceAfterCents: 100_000 });
  t.is(entry.idempotencyKey, "wallet:welcome:p1");
  t.is(entry.entryId, "p1:1");
});

test("entry ids are one per (player, sequence), whatever the player id holds", (t) => {
  const playerId = fc.string({ maxLength: 8, unit: fc.constantFrom("a", ":", "1", "b") });
  const sequence = fc.integer({ min: 1, max: 30 });
  fc.assert(
    fc.property(playerId, sequence, playerId, sequence, (p1, s1, p2, s2) => {
      t.is(entryIdOf(p1, s1) === entryIdOf(p2, s2), p1 === p2 && s1 === s2);
    }),
    RUNS,
  );
  t.is(entryIdOf("a:1", 2), "a:1:2");
});

test("a replay needs the same request: any difference in kind, player, amount, reason or reference is refused", (t) => {
  const first = nextEntry({ sequence: 1, balanceAfterCents: 1_000 }, request(), new Date());
  t.true(isSameRequest(first, request()));
  t.is(replay(first, request()), first);
  for (const changed of [
    { kind: "withdraw" as const },
    { playerId: "p2" },
    { requestedCents: 501 },
    { reason: "topup" },
    { reference: "table-4" },
  ]) {
    t.false(isSameRequest(first, request(changed)), JSON.stringify(changed));
    t.throws(() => replay(first, request(changed)), { instanceOf: IdempotencyMismatchError });
  }
  // The key is what finds the first entry; it is not part of the comparison.
  t.true(isSameRequest(first, request({ idempotencyKey: "other" })));
  // Nor is the table, a label of the reference (a transfer or game belongs to one table).
  t.true(isSameRequest(first, request({ tableId: 3 })));
});

test("a movement for a table records the table in its entry; one for none records none", (t) => {
  const fields = { playerId: "p1", amountCents: 100, idempotencyKey: "k", reason: "sit", reference: "tr-1" };
  const atTable = validateMovementRequest("debit", { ...fields, tableId: 3 });
  t.is(nextEntry({ sequence: 1, balanceAfterCents: 500 }, atTable, new Date()).tableId, 3);
  const noTable = validateMovementRequest("deposit", { ...fields, reason: "" });
  t.false("tableId" in nextEntry({ sequence: 1, balanceAfterCents: 500 }, noTable, new Date()));
  t.false("tableId" in nextEntry(null, welcomeRequest("p1"), new Date()));
  for (const invalid of [0, -1, 1.5, Number.NaN]) {
    t.throws(() => validateMovementRequest("debit", { ...fields, tableId: invalid }), {
      instanceOf: InvalidArgumentError,
      message: /table id/,
    });
  }
});

test("a refused outcome replays as refused", (t) => {
  const refused = nextEntry({ sequence: 1, balanceAfterCents: 100 }, request(), new Date());
  t.like(replay(refused, request()), { applied: false, balanceAfterCents: 100 });
});

test("amounts are whole cents from 1 to 1e11; a credit (what a table owes) up to the largest balance", (t) => {
  for (const kind of ["debit", "credit", "deposit", "withdraw"] as const) {
    const fields = { playerId: "p1", idempotencyKey: "k", reason: kind === "debit" ? "sit" : "payout", reference: "" };
    const max = kind === "credit" ? MAX_BALANCE_CENTS : MAX_AMOUNT_CENTS;
    for (const valid of [1, 100, MAX_AMOUNT_CENTS, max]) {
      t.is(validateMovementRequest(kind, { ...fields, amountCents: valid }).requestedCents, valid, `${kind} ${valid}`);
    }
    for (const invalid of [0, -1, -0, 0.5, max + 1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      t.throws(() => validateMovementRequest(kind, { ...fields, amountCents: invalid }), {
        instanceOf: InvalidArgumentError,
        message: `amount must be a whole number of cents from 1 to ${max}`,
      });
    }
  }
});

test("movement requests are validated: player, amount, key, reason where required, lengths, control characters", (t) => {
  const fields = { playerId: "p1", amountCents: 100, idempotencyKey: "k", reason: "sit", reference: "" };
  const { amountCents, ...rest } = fields;
  t.deepEqual(validateMovementRequest("debit", fields), { kind: "debit", ...rest, requestedCents: amountCents });
  t.is(validateMovementRequest("deposit", { ...fields, reason: "" }).reason, "");
  t.is(
    validateMovementRequest("credit", { ...fields, reason: "payout", idempotencyKey: "table:T3-17:payout:p1" }).kind,
    "credit",
  );
  const invalid: [string, Parameters<typeof validateMovementRequest>[0], Partial<typeof fields>][] = [
    ["empty player", "debit", { playerId: "" }],
    ["zero amount", "credit", { amountCents: 0 }],
    ["fractional amount", "credit", { amountCents: 1.5 }],
    ["too large", "deposit", { amountCents: MAX_AMOUNT_CENTS + 1 }],
    ["empty key", "debit", { idempotencyKey: "" }],
    // A credit's own reason, so that only the key is wrong.
    ["reserved key", "credit", { idempotencyKey: "wallet:welcome:p1", reason: "leave" }],
    // A table's predictable payout key, taken first by an operator, would refuse that payout for ever.
    ["a table's key for a deposit", "deposit", { idempotencyKey: "table:T3-17:payout:p1", reason: "" }],
    ["a table's transfer key for a withdrawal", "withdraw", { idempotencyKey: "tr-0a1b:debit", reason: "" }],
    ["long key", "debit", { idempotencyKey: "k".repeat(MOVEMENT_KEY_MAX_LENGTH + 1) }],
    ["debit without reason", "debit", { reason: "" }],
    ["credit with blank reason", "credit", { reason: "  " }],
    ["debit with a credit's reason", "debit", { reason: "payout" }],
    ["credit with a debit's reason", "credit", { reason: "sit" }],
    ["credit with an unlisted reason", "credit", { reason: "bonus" }],
    ["control character", "debit", { reference: "a\nb" }],
  ];
  for (const [name, k, change] of invalid) {
    t.throws(() => validateMovementRequest(k, { ...fields, ...change }), { instanceOf: InvalidArgumentError }, name);
  }
});

test("the wallet's reserved key prefix is refused on a request that is otherwise valid", (t) => {
  const fields = { playerId: "p1", amountCents: 100, reason: "leave", reference: "" };
  t.notThrows(() => validateMovementRequest("credit", { ...fields, idempotencyKey: "table:T1-1:leave:s1" }));
  t.throws(() => validateMovementRequest("credit", { ...fields, idempotencyKey: "wallet:welcome:p1" }), {
    instanceOf: InvalidArgumentError,
    message: /reserved/,
  });
});

test("a reference holds up to 200 characters, an operator's reason up to 64, and table ids start at 1", (t) => {
  const fields = { playerId: "p1", amountCents: 100, idempotencyKey: "k", reason: "", reference: "" };
  t.is(validateMovementRequest("deposit", { ...fields, reference: "r".repeat(200) }).reference.length, 200);
  t.throws(() => validateMovementRequest("deposit", { ...fields, reference: "r".repeat(201) }), {
    instanceOf: InvalidArgumentError,
    message: /reference/,
  });
  for (const kind of ["deposit", "withdraw"] as const) {
    t.is(validateMovementRequest(kind, { ...fields, reason: "o".repeat(64) }).reason.length, 64);
    t.throws(() => validateMovementRequest(kind, { ...fields, reason: "o".repeat(65) }), {
      instanceOf: InvalidArgumentError,
      message: /reason/,
    });
  }
  t.is(validateMovementRequest("debit", { ...fields, reason: "sit", tableId: 1 }).tableId, 1);
});
