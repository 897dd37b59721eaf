import test from "ava";
import fc from "fast-check";
import { AUDIT_ISSUES_LISTED, MAX_BALANCE_CENTS } from "@pokerodds/common/limits";
import { LedgerAuditor, type AuditReport } from "../src/domain/audit.js";
import { WELCOME_CREDIT_CENTS } from "../src/domain/money.js";
import {
  nextEntry,
  welcomeRequest,
  type LedgerEntry,
  type MovementKind,
  type RequestableKind,
} from "../src/domain/movement.js";

const at = new Date("2026-01-01T00:00:00Z");

const movement = fc.record({
  kind: fc.constantFrom<RequestableKind>("debit", "credit", "deposit", "withdraw"),
  requestedCents: fc.integer({ min: 1, max: 300_000 }),
  reason: fc.constantFrom("sit", "leave", "payout", "operator"),
});
/** Accounts as the wallet would write them: the welcome credit, then movements applied or refused. */
const ledgers = fc.array(fc.array(movement, { maxLength: 30 }), { minLength: 1, maxLength: 6 }).map((accounts) =>
  accounts.map((movements, index) => {
    const playerId = `p${index}`;
    const entries = [nextEntry(null, welcomeRequest(playerId), at)];
    for (const [n, m] of movements.entries()) {
      const request = { ...m, playerId, idempotencyKey: `${playerId}-k${n}`, reference: "" };
      entries.push(nextEntry(entries[entries.length - 1]!, request, at));
    }
    return entries;
  }),
);

function audit(
  accounts: LedgerEntry[][],
  players = new Set(accounts.map((entries) => entries[0]!.playerId)),
): AuditReport {
  const auditor = new LedgerAuditor();
  for (const entry of accounts.flat()) auditor.add(entry);
  return auditor.report(players);
}

test("ledgers written by the rules audit clean, and the totals are the sums of their kinds", (t) => {
  fc.assert(
    fc.property(ledgers, (accounts) => {
      const report = audit(accounts);
      t.deepEqual(report.issues, []);
      t.true(report.clean && report.conserved);
      const all = accounts.flat();
      const sum = (kind: string) => all.filter((e) => e.kind === kind).reduce((s, e) => s + Math.abs(e.amountCents), 0);
      t.deepEqual(report.totals, {
        balancesCents: accounts.reduce((s, entries) => s + entries[entries.length - 1]!.balanceAfterCents, 0),
        welcomeCreditsCents: accounts.length * WELCOME_CREDIT_CENTS,
        depositsCents: sum("deposit"),
        withdrawalsCents: sum("withdraw"),
        debitsCents: sum("debit"),
        creditsCents: sum("credit"),
      });
      t.is(report.accounts, accounts.length);
      t.is(report.entries, all.length);
      t.is(report.refusedEntries, all.filter((e) => !e.applied).length);
      const applied = all.filter((e) => e.applied);
      t.is(
        report.reasonTotals.reduce((s, r) => s + r.count, 0),
        applied.length,
      );
    }),
    { numRuns: 500 },
  );
});

const OPPOSITE: Record<MovementKind, MovementKind> = {
  welcome: "debit",
  debit: "credit",
  credit: "debit",
  deposit: "withdraw",
  withdraw: "deposit",
};
type Tamper = (entry: LedgerEntry) => LedgerEntry;
const tampers: Record<string, Tamper> = {
  "amount changed": (e) => ({ ...e, amountCents: e.amountCents + 1 }),
  "balance changed": (e) => ({ ...e, balanceAfterCents: e.balanceAfterCents + 1 }),
  "amount and balance changed together": (e) => ({
    ...e,
    amountCents: e.amountCents - 100,
    balanceAfterCents: e.balanceAfterCents - 100,
  }),
  "requested amount changed": (e) => ({ ...e, requestedCents: e.requestedCents + 1 }),
  "outcome flipped": (e) => ({ ...e, applied: !e.applied }),
  // Relabelling within one direction (a credit as a deposit) moves no money: only the table side's
  // reconciliation of the per-reason totals can see that.
  "direction reversed": (e) => ({ ...e, kind: OPPOSITE[e.kind] }),
  "sequence changed": (e) => ({ ...e, sequence: e.sequence + 5 }),
};

test("any single tampered entry is reported, naming its account and sequence", (t) => {
  fc.assert(
    fc.property(ledgers, fc.nat(), fc.nat(), fc.constantFrom(...Object.keys(tampers)), (accounts, a, e, how) => {
      const account = accounts[a % accounts.length]!;
      const index = e % account.length;
      const original = account[index]!;
      // A refused request's amount moved no money; changing it may leave it just as refused.
      fc.pre(how !== "requested amount changed" || original.applied);
      const tampered = accounts.map((entries) =>
        entries.map((entry) => (entry === original ? tampers[how]!(entry) : entry)),
      );
      const report = audit(tampered);
      t.false(report.clean, how);
      t.true(
        report.issues.some((issue) => issue.playerId === original.playerId && issue.sequence >= original.sequence),
        how,
      );
    }),
    { numRuns: 1000 },
  );
});

test("a missing entry breaks the sequence; entries of an unknown player are reported", (t) => {
  const entries = [nextEntry(null, welcomeRequest("p"), at)];
  for (let n = 0; n < 3; n++) {
    const request = {
      kind: "credit" as const,
      playerId: "p",
      requestedCents: 100,
      idempotencyKey: `k${n}`,
      reason: "leave",
      reference: "",
    };
    entries.push(nextEntry(entries[n]!, request, at));
  }
  const withoutSecond = [entries[0]!, ...entries.slice(2)];
  t.true(audit([withoutSecond]).issues.some((issue) => issue.sequence === 3 && issue.problem.includes("sequence 3")));
  const unknown = audit([entries], new Set());
  t.deepEqual(unknown.issues, [
    { playerId: "p", sequence: 0, problem: "ledger entries for a player that does not exist" },
  ]);
  t.true(audit([entries]).clean);
});

test("the welcome credit must open the account", (t) => {
  const credit = {
    kind: "credit" as const,
    playerId: "p",
    requestedCents: 100,
    idempotencyKey: "k",
    reason: "leave",
    reference: "",
  };
  const report = audit([[nextEntry(null, credit, at)]]);
  t.true(report.issues.some((issue) => issue.problem.includes("welcome")));
});

test("a second welcome credit, later in the account, is reported: the wallet mints it once", (t) => {
  const first = nextEntry(null, welcomeRequest("p"), at);
  // Written as the rules would (balance and amount consistent), so only the welcome rule can see it.
  const again = nextEntry(first, { ...welcomeRequest("p"), idempotencyKey: "forged" }, at);
  t.is(again.balanceAfterCents, 2 * WELCOME_CREDIT_CENTS);
  const report = audit([[first, again]]);
  t.false(report.clean);
  t.deepEqual(report.issues, [
    { playerId: "p", sequence: 2, problem: "the welcome credit must be the account's first entry, and only that" },
  ]);
});

test("a welcome credit of another amount than WELCOME_CREDIT_CENTS is reported", (t) => {
  const inflated = nextEntry(null, { ...welcomeRequest("p"), requestedCents: 100 * WELCOME_CREDIT_CENTS }, at);
  const report = audit([[inflated]]);
  t.false(report.clean);
  t.deepEqual(report.issues, [
    { playerId: "p", sequence: 1, problem: `welcome credit of ${100 * WELCOME_CREDIT_CENTS} cents` },
  ]);
});

test("a refusal recorded with another reason than the rules give is reported", (t) => {
  const welcome = nextEntry(null, welcomeRequest("p"), at);
  const request = {
    kind: "debit" as const,
    playerId: "p",
    requestedCents: 200_000,
    idempotencyKey: "k",
    reason: "sit",
    reference: "",
  };
  const refused = nextEntry(welcome, request, at);
  t.is(refused.refusal, "insufficient_funds");
  const report = audit([[welcome, { ...refused, refusal: "balance_limit" }]]);
  t.false(report.clean);
  t.true(report.issues.some((issue) => issue.sequence === 2 && issue.problem.includes("balance_limit")));
});

test("the order entries are read in changes nothing: accounts interleaved, entries read early", (t) => {
  fc.assert(
    fc.property(
      ledgers.chain((accounts) =>
        fc.tuple(fc.constant(accounts), fc.shuffledSubarray(accounts.flat(), { minLength: accounts.flat().length })),
      ),
      ([accounts, shuffled]) => {
        const auditor = new LedgerAuditor();
        for (const entry of shuffled) auditor.add(entry);
        t.deepEqual(auditor.report(new Set(accounts.map((entries) => entries[0]!.playerId))), audit(accounts));
      },
    ),
  );
});

test("a missing entry is named at its gap, whatever the order", (t) => {
  const entries = [nextEntry(null, welcomeRequest("gap"), at)];
  for (let n = 0; n < 3; n++) {
    const request = {
      kind: "credit" as const,
      playerId: "gap",
      requestedCents: 1,
      idempotencyKey: `g${n}`,
      reason: "payout",
      reference: "",
    };
    entries.push(nextEntry(entries[entries.length - 1]!, request, at));
  }
  const auditor = new LedgerAuditor();
  for (const entry of [entries[3]!, entries[0]!, entries[1]!]) auditor.add(entry);
  const report = auditor.report(new Set(["gap"]));
  t.false(report.clean);
  t.true(report.issues.every((issue) => issue.sequence === 4));
  t.is(report.issues[0]?.problem, "sequence 4 where 3 was expected");
});

test("a fault on every account lists the first issues and counts them all, so the reply stays small", (t) => {
  // 250 accounts the players collection no longer knows (restored from an older backup): 250 issues.
  const accounts = Array.from({ length: 250 }, (_, i) => [nextEntry(null, welcomeRequest(`gone-${i}`), at)]);
  const report = audit(accounts, new Set());
  t.is(report.issueCount, 250);
  t.is(report.issues.length, AUDIT_ISSUES_LISTED);
  t.deepEqual(report.issues[0], {
    playerId: "gone-0",
    sequence: 0,
    problem: "ledger entries for a player that does not exist",
  });
  t.false(report.clean);
  t.is(audit(accounts).issueCount, 0);
});

test("totals past the exact integer range are reported, not summed inexactly", (t) => {
  // Ten accounts at the largest balance: 10^16 cents in all, past 2^53.
  const accounts = Array.from({ length: 10 }, (_, i) => {
    const welcome = nextEntry(null, welcomeRequest(`rich-${i}`), at);
    const fill = {
      kind: "credit" as const,
      playerId: `rich-${i}`,
      requestedCents: MAX_BALANCE_CENTS - WELCOME_CREDIT_CENTS,
      idempotencyKey: `fill-${i}`,
      reason: "payout",
      reference: "",
    };
    return [welcome, nextEntry(welcome, fill, at)];
  });
  const report = audit(accounts);
  t.false(report.clean);
  t.deepEqual(
    report.issues.find((issue) => issue.problem === "totals exceed the exact integer range"),
    { playerId: "", sequence: 0, problem: "totals exceed the exact integer range" },
    "an issue of the ledger as a whole names no account and no sequence",
  );
});

test("the per-reason totals count and add up exactly the applied entries of each kind and reason", (t) => {
  fc.assert(
    fc.property(ledgers, (accounts) => {
      const expected = new Map<string, { count: number; amountCents: number }>();
      for (const e of accounts.flat().filter((entry) => entry.applied)) {
        const key = `${e.kind} ${e.reason}`;
        const total = expected.get(key) ?? { count: 0, amountCents: 0 };
        expected.set(key, { count: total.count + 1, amountCents: total.amountCents + Math.abs(e.amountCents) });
      }
      const byKey = (rows: [string, { count: number; amountCents: number }][]) =>
        rows.sort(([a], [b]) => a.localeCompare(b));
      t.deepEqual(
        byKey(
          audit(accounts).reasonTotals.map((r) => [
            `${r.kind} ${r.reason}`,
            { count: r.count, amountCents: r.amountCents },
          ]),
        ),
        byKey([...expected]),
      );
    }),
    { numRuns: 300 },
  );
  const welcome = audit([[nextEntry(null, welcomeRequest("p"), at)]]);
  t.deepEqual(welcome.reasonTotals, [
    { kind: "welcome", reason: welcomeRequest("p").reason, count: 1, amountCents: WELCOME_CREDIT_CENTS },
  ]);
});

test("issues are listed as they are found: an entry is checked as soon as the entries before it have been read", (t) => {
  /** welcome, debit, debit: the last one's balance off by a cent. */
  const account = (playerId: string) => {
    const entries = [nextEntry(null, welcomeRequest(playerId), at)];
    for (let n = 1; n <= 2; n++) {
      const request = {
        kind: "debit" as const,
        playerId,
        requestedCents: 10,
        idempotencyKey: `${playerId}-${n}`,
        reason: "sit",
        reference: "",
      };
      entries.push(nextEntry(entries[entries.length - 1]!, request, at));
    }
    const last = entries.pop()!;
    return [...entries, { ...last, balanceAfterCents: last.balanceAfterCents + 1 }];
  };
  const [a1, a2, a3] = account("a");
  const [b1, b2, b3] = account("b");
  const issuesOf = (order: LedgerEntry[]) => {
    const auditor = new LedgerAuditor();
    for (const entry of order) auditor.add(entry);
    return auditor.report(new Set(["a", "b"])).issues.map((issue) => [issue.playerId, issue.sequence]);
  };
  // Read in order, b's last entry before a's.
  t.deepEqual(issuesOf([a1!, b1!, b2!, b3!, a2!, a3!]), [
    ["b", 3],
    ["a", 3],
  ]);
  // a's entries read early are checked as soon as a's first comes, before b's are read.
  t.deepEqual(issuesOf([a3!, a2!, b1!, a1!, b2!, b3!]), [
    ["a", 3],
    ["b", 3],
  ]);
});

test("entries that follow a gap are checked in sequence order, however they were read", (t) => {
  const entries = [nextEntry(null, welcomeRequest("g"), at)];
  for (let n = 0; n < 3; n++) {
    const request = {
      kind: "credit" as const,
      playerId: "g",
      requestedCents: 5,
      idempotencyKey: `g${n}`,
      reason: "payout",
      reference: "",
    };
    entries.push(nextEntry(entries[entries.length - 1]!, request, at));
  }
  // Sequence 2 is missing and 4 is read before 3: 3 is checked first, where the gap is, and 4 follows it.
  const auditor = new LedgerAuditor();
  for (const entry of [entries[0]!, entries[3]!, entries[2]!]) auditor.add(entry);
  t.deepEqual(auditor.report(new Set(["g"])).issues, [
    { playerId: "g", sequence: 3, problem: "sequence 3 where 2 was expected" },
    {
      playerId: "g",
      sequence: 3,
      problem:
        "recorded 5 cents applied, balance 100010 after a balance of 100000 cents; the rules give 5 cents applied, balance 100005",
    },
  ]);
});
