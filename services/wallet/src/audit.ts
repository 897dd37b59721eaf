import { LedgerAuditor, type AuditReport } from "./domain/audit.js";
import type { LedgerStore } from "./ledger-store.js";
import type { PlayerStore } from "./player-store.js";

/**
 * Streams the whole ledger through the auditor. Players are read after the entries: a player is
 * always created before its first entry, so an entry read here always finds its player. Stops
 * reading when `signal` aborts (the call ended).
 */
export async function auditLedger(
  ledger: LedgerStore,
  players: PlayerStore,
  signal: AbortSignal,
): Promise<AuditReport> {
  const auditor = new LedgerAuditor();
  for await (const entry of ledger.all()) {
    signal.throwIfAborted();
    auditor.add(entry);
  }
  return auditor.report(await players.allIds());
}
