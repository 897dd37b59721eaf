// The table side of the money audit (audit.ts) over stored tables as a bug or an edit of the database
// could leave them: the per-table figures the reconciliation (audit/) checks.
import test from "ava";
import { auditReader } from "../src/audit.js";
import type { Caller } from "../src/domain/index.js";
import type { TableSnapshot } from "../src/domain/types.js";
import type { TableParts } from "../src/parts.js";
import type { TransferClaim } from "../src/transfer-store.js";
import { newTable, sit } from "./helpers/fixtures.js";

/** Just what auditTables reads: the stored heads, and the open transfers (none unless given). */
function partsHolding(
  tables: TableSnapshot[],
  transfers: Pick<TableParts["transfers"], "listPending" | "outcome" | "find"> = {
    listPending: async () => [],
    outcome: async () => null,
    find: async () => null,
  },
): TableParts {
  const store = {
    tableIds: async () => tables.map((table) => table.tableId),
    latest: async (tableId: number) => ({ snapshot: tables.find((table) => table.tableId === tableId)! }),
    storedAfter: async (tableId: number, version: number) =>
      tables.find((table) => table.tableId === tableId)!.version > version,
  };
  return { store, transfers } as unknown as TableParts;
}

/** One audit by a replica that has audited nothing before. */
const auditTables = (parts: TableParts, caller: Caller, signal: AbortSignal) => auditReader(parts)(caller, signal);

const ADMIN = { playerId: "admin", isAdmin: true };

test("a seat below 0 is counted even when its table's total holds (another seat as much higher)", async (t) => {
  const honest = sit(sit(newTable(1), "p1", 10_000), "p2", 10_000);
  const [first, second] = honest.seats;
  const moved = {
    ...honest,
    tableId: 2,
    seats: [
      { ...first!, balanceCents: -500 },
      { ...second!, balanceCents: 20_500 },
    ],
  };
  const report = await auditTables(partsHolding([honest, moved]), ADMIN, new AbortController().signal);
  t.deepEqual(
    report.tables.map(({ tableId, conserved, negativeSeats }) => ({ tableId, conserved, negativeSeats })),
    [
      { tableId: 1, conserved: true, negativeSeats: 0 },
      { tableId: 2, conserved: true, negativeSeats: 1 },
    ],
  );
});

test("the audit is an ADMIN's", async (t) => {
  await t.throwsAsync(auditTables(partsHolding([]), { playerId: "p1", isAdmin: false }, new AbortController().signal), {
    message: "the audit is for an ADMIN",
  });
});

test("a transfer open when the audit starts is listed, though it finishes while the tables are read", async (t) => {
  // The sit is debited and open; it credits the seat just after its table was read, then finishes.
  const claim = { _id: "p1:sit-1", kind: "sit", playerId: "p1", tableId: 1, amountCents: 10_000 } as TransferClaim;
  let finished = false;
  const table = newTable(1);
  const parts = partsHolding([table], {
    listPending: async () => (finished ? [] : [claim]),
    outcome: async () => (finished ? { ok: true, value: {} } : null),
    find: async () => claim,
  });
  const latest = parts.store.latest.bind(parts.store);
  parts.store.latest = async (tableId) => {
    const head = await latest(tableId);
    finished = true;
    return head;
  };
  const report = await auditTables(parts, ADMIN, new AbortController().signal);
  t.is(report.totals.creditedCents, 0);
  t.deepEqual(
    report.openTransfers.map((open) => open._id),
    ["p1:sit-1"],
  );
});

test("an open transfer is listed with its claim's terms, not those of a request that lost the claim under its key", async (t) => {
  // Under one key, a top-up at table 1 wrote the pending entry, then lost the claim to a sit at
  // table 2, whose debit is in flight: the entry keeps the top-up's terms until the sit finishes.
  const entry = { _id: "p1:k", kind: "topup", tableId: 1, amountCents: 5_000, state: "PENDING" } as TransferClaim;
  const claim = { ...entry, kind: "sit", tableId: 2, amountCents: 10_000 } as TransferClaim;
  const claims = new Map<string, TransferClaim>([[entry._id, claim]]);
  const transfers = {
    listPending: async () => [entry],
    outcome: async () => null,
    find: async (id: string) => claims.get(id) ?? null,
  };
  const audit = () =>
    auditTables(partsHolding([newTable(1), newTable(2)], transfers), ADMIN, new AbortController().signal);
  t.deepEqual(
    (await audit()).openTransfers.map(({ kind, tableId, amountCents }) => ({ kind, tableId, amountCents })),
    [{ kind: "sit", tableId: 2, amountCents: 10_000 }],
  );
  // A request that lost to a refusal answered before any money moved (a FINAL claim) leaves nothing open.
  claims.set(entry._id, {
    ...claim,
    state: "FINAL",
    outcome: { ok: false, error: { kind: "conflict", message: "no" } },
  });
  t.deepEqual((await audit()).openTransfers, []);
  // Before any claim, the entry is what recovery will claim and drive.
  claims.clear();
  t.deepEqual((await audit()).openTransfers, [entry]);
});

test("a later audit reads again only the tables with a version since the last one", async (t) => {
  const tables = [sit(newTable(1), "p1", 10_000), sit(newTable(2), "p2", 20_000), newTable(3)];
  const parts = partsHolding(tables);
  const heads: number[] = [];
  const latest = parts.store.latest.bind(parts.store);
  parts.store.latest = async (tableId) => {
    heads.push(tableId);
    return latest(tableId);
  };
  const audit = auditReader(parts);
  const signal = new AbortController().signal;
  const first = await audit(ADMIN, signal);
  t.deepEqual(heads.splice(0), [1, 2, 3]);
  t.deepEqual(await audit(ADMIN, signal), first, "nothing changed: the same lines, no head read");
  t.deepEqual(heads, []);

  tables[1] = sit(tables[1]!, "p4", 5_000);
  const third = await audit(ADMIN, signal);
  t.deepEqual(heads, [2]);
  t.deepEqual(third, await auditTables(partsHolding(tables), ADMIN, signal), "as an audit that read every table");
  t.is(third.totals.seatsCents, 35_000);
});
