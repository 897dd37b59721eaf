// Reading both audits as of one moment, as far as two services allow: the table side is read before
// and after the wallet, and the reading counts as consistent only when nothing the cross-checks
// compare changed on the table side in between (what the tables credited to seats and delivered to
// accounts, their pending credits, the open transfers, the set of tables). Money cannot move between
// wallet and tables without one of these changing, except steps of the transfers and credits still
// open, which the reconciliation accounts for; bets, advances and payouts to seats move money within
// a table only, so a busy table does not make a reading inconsistent. A reading taken while money
// moved, or one whose cross-checks fail, is repeated (up to 3 readings, within the deadline): a real
// mismatch persists, a passing transfer does not (a sit or top-up refused after its debit leaves no
// trace on the tables, and the wallet may be read between its debit and its refund).
import type { AuditResponse as TableAuditResponse } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import type { AuditResponse as WalletAuditResponse } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { envInt } from "@pokerodds/common";
import { LONGEST_CALL_MS } from "@pokerodds/common/limits";
import { reconcile, type ReconcileInput } from "./reconcile.js";

/**
 * The whole audit, every reading included, unless AUDIT_DEADLINE_S sets another. The wallet's audit
 * reads its whole ledger (about 85 s a million entries on the embedded database), and stops
 * reading when the call ends.
 */
export const AUDIT_DEADLINE_MS = 600_000;

/** AUDIT_DEADLINE_S, read alike by the gateway (its calls' deadline) and `npm run audit` (its wait). */
export function auditDeadlineMs(env: Record<string, string | undefined> = process.env): number {
  return envInt("AUDIT_DEADLINE_S", AUDIT_DEADLINE_MS / 1000, { min: 1, max: LONGEST_CALL_MS / 1000 }, env) * 1000;
}
const MAX_READINGS = 3;

interface AuditSources {
  wallet(deadlineMs: number): Promise<WalletAuditResponse>;
  table(deadlineMs: number): Promise<TableAuditResponse>;
}

interface ReadOptions {
  deadlineMs?: number;
}

/**
 * What must not change on the table side while the wallet is read: the figures the cross-checks
 * compare with the wallet (credited, delivered), the items that may explain a gap (pending credits,
 * open transfers), and which tables there are. Not the version: every bet writes one.
 */
export function tableFingerprint(table: TableAuditResponse): string {
  return JSON.stringify({
    tables: table.tables
      .map((t) => [
        t.tableId,
        t.money?.creditedCents,
        t.money?.deliveredCents,
        t.pendingCredits.map((c) => c.key).sort(),
      ])
      .sort(),
    transfers: table.openTransfers.map((t) => t.transferId).sort(),
  });
}

const CROSS_CHECKS = new Set(["transfers-in", "credits-out", "snapshot"]);

export async function readAudit(sources: AuditSources, options: ReadOptions = {}): Promise<ReconcileInput> {
  const deadlineMs = options.deadlineMs ?? AUDIT_DEADLINE_MS;
  const started = Date.now();
  const remaining = () => Math.max(1, deadlineMs - (Date.now() - started));

  // When the reading began: the first table call of its bracket.
  let auditedAt = new Date();
  let before = await sources.table(remaining());
  // The latest consistent reading decides: a later inconsistent one cannot, so it neither clears a
  // mismatch found nor confirms one, while a later consistent one shows whether it persists.
  let decisive: ReconcileInput | undefined;
  for (let reading = 1; ; reading++) {
    const wallet = await sources.wallet(remaining());
    const afterAt = new Date();
    const after = await sources.table(remaining());
    const input: ReconcileInput = {
      wallet,
      table: after,
      tableBefore: before.totals,
      consistent: tableFingerprint(before) === tableFingerprint(after),
      readings: reading,
      auditedAt,
    };
    if (input.consistent) decisive = input;
    const doubtful =
      !input.consistent || reconcile(input).mismatches.some((finding) => CROSS_CHECKS.has(finding.check));
    // Another reading only while at least half the deadline is left for it.
    if (!doubtful || reading >= MAX_READINGS || Date.now() - started > deadlineMs / 2) {
      return decisive ? { ...decisive, readings: reading } : input;
    }
    // The last table reading opens the next one: the wallet is read again between two table readings.
    auditedAt = afterAt;
    before = after;
  }
}
