// The table side of the money audit (audit.ts) over stored tables as a bug or an edit of the database
// could leave them: the per-table figures the reconciliation (audit/) checks.
import test from "ava";
import { auditTables } from "../src/audit.js";
import type { TableSnapshot } from "../src/domain/types.js";
import type { TableParts } from "../src/parts.js";
import { newTable, sit } from "./helpers/fixtures.js";

/** Just what auditTables reads: the stored heads, and no open transfer. */
function partsHolding(tables: TableSnapshot[]): TableParts {
  const store = {
    tableIds: async () => tables.map((table) => table.tableId),
    latest: async (tableId: number) => ({ snapshot: tables.find((table) => table.tableId === tableId)! }),
  };
  const transfers = { listPending: async () => [], outcome: async () => null };
  return { store, transfers } as unknown as TableParts;
}

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
