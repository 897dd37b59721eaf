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
  // A scan is no snapshot: MongoDB's moves on to newer data as it goes, and can pass an entry not yet
  // visible there but read the later ones of its account. Each gap is read again by `_id` before it
  // is reported; only entries still missing then are.
  for (const { playerId, from, to } of auditor.gaps()) {
    for (let sequence = from; sequence <= to; sequence++) {
      signal.throwIfAborted();
      const entry = await ledger.entry(playerId, sequence);
      if (!entry) break;
      auditor.add(entry);
    }
  }
  return auditor.report(await players.allIds());
}
