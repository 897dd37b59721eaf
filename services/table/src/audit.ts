// The table side of the money audit: where every table's money is, each table's conservation check
// (credited = seats + open stakes + outbox + delivered + house result), and the transfers between
// wallet and tables still in progress. The wallet's own audit reconciles the accounts.
import pMap from "p-map";
import { HEADS_AT_ONCE } from "./snapshot-store.js";
import { ForbiddenError } from "@pokerodds/common";
import { perMoneyField } from "@pokerodds/common/table-money";
import {
  isConserved,
  sumCents,
  tableMoney,
  type Caller,
  type GameState,
  type OutboxCredit,
  type TableMoney,
  type TableSnapshot,
} from "./domain/index.js";
import type { TableParts } from "./parts.js";
import type { TransferClaim } from "./transfer-store.js";

export interface TableAudit {
  tableId: number;
  version: number;
  gameId: string;
  gameState: GameState;
  money: TableMoney;
  pendingCredits: readonly OutboxCredit[];
  conserved: boolean;
  /** Seats below 0: the domain never writes one, so each is a bug or an edit of the database. */
  negativeSeats: number;
  gamesFinished: number;
}

export interface AuditReport {
  tables: TableAudit[];
  totals: TableMoney;
  openTransfers: TransferClaim[];
  games: number;
  conserved: boolean;
}

/**
 * How long a replica keeps each table's line of its last audit. An audit reads the tables two or
 * three times, around the wallet (audit/), and each reading reads again only the tables changed
 * since the one before: one `_id` probe each for the others, where a head not cached costs about twelve.
 */
const AUDIT_LINES_KEPT_MS = 15 * 60_000;

/** The Audit call: every table's line, re-read only where the table changed since this replica's last audit. */
export function auditReader(parts: TableParts): (caller: Caller, signal: AbortSignal) => Promise<AuditReport> {
  let lines = new Map<number, TableAudit>();
  let forget: NodeJS.Timeout | undefined;
  return async (caller, signal) => {
    if (!caller.isAdmin) throw new ForbiddenError("the audit is for an ADMIN");
    clearTimeout(forget);
    try {
      const report = await auditTables(parts, lines, signal);
      lines = new Map(report.tables.map((line) => [line.tableId, line]));
      return report;
    } finally {
      forget = setTimeout(() => (lines = new Map()), AUDIT_LINES_KEPT_MS).unref();
    }
  };
}

/** Every table's line, a few at a time (`known` where its table has no version since); stops reading when `signal` aborts. */
async function auditTables(
  parts: TableParts,
  known: ReadonlyMap<number, TableAudit>,
  signal: AbortSignal,
): Promise<AuditReport> {
  // The transfers before the tables: one open then is listed, whether or not its table, read later,
  // shows it on a seat. Listed after the tables, a transfer could finish in between: its seat credit
  // missed by its table's reading and itself no longer open, a gap nothing would explain.
  const open = await Promise.all((await parts.transfers.listPending()).map((entry) => stillOpen(parts, entry)));
  const tables = await pMap(
    await parts.store.tableIds(),
    async (tableId): Promise<TableAudit> => {
      const line = known.get(tableId);
      if (line && !(await parts.store.storedAfter(tableId, line.version))) return line;
      return lineOf((await parts.store.latest(tableId)).snapshot);
    },
    { concurrency: HEADS_AT_ONCE, signal },
  );
  const totals: TableMoney = perMoneyField((field) => sumCents(tables.map((t) => t.money[field])));
  return {
    tables,
    totals,
    openTransfers: open.filter((claim) => claim !== null),
    games: tables.reduce((sum, t) => sum + t.gamesFinished, 0),
    conserved: tables.every((t) => t.conserved),
  };
}

/** A table's line of the audit, from its latest snapshot. */
function lineOf(snapshot: TableSnapshot): TableAudit {
  const money = tableMoney(snapshot);
  return {
    tableId: snapshot.tableId,
    version: snapshot.version,
    gameId: snapshot.gameId,
    gameState: snapshot.gameState,
    money,
    pendingCredits: snapshot.outbox,
    conserved: isConserved(money),
    negativeSeats: snapshot.seats.filter((seat) => seat.balanceCents < 0).length,
    gamesFinished: snapshot.gamesFinished,
  };
}

/**
 * A pending entry's transfer as it is driven (its claim, once made), or null once it is answered. A
 * request under the key of another that won the claim may have written the entry with its own
 * terms (a top-up's amount for a sit in flight) until that sit finishes: the claim is what moves money.
 */
async function stillOpen(parts: TableParts, entry: TransferClaim): Promise<TransferClaim | null> {
  const claim = (await parts.transfers.find(entry._id)) ?? entry;
  if (claim.state === "FINAL") return null;
  return (await parts.transfers.outcome(entry._id)) ? null : claim;
}
