// Which tables exist and who may use them: public tables 1..TABLE_COUNT; personal tables
// (FIRST_PERSONAL_TABLE_ID and up) that the wallet has given to a player; and any table already written (so a table that money
// sits on stays reachable if TABLE_COUNT is lowered).
import { ForbiddenError, InvalidArgumentError, NotFoundError } from "@pokerodds/common";
import { INT32_MAX } from "@pokerodds/common/limits";
import { FIRST_PERSONAL_TABLE_ID, noSuchTable } from "@pokerodds/common/table-ids";
import type { CallScope, WalletPort } from "./dependencies.js";
import type { SnapshotStore } from "./snapshot-store.js";

interface TableInfo {
  tableId: number;
  /** The player whose personal table this is; null for a public table. */
  ownerId: string | null;
}

/** Players whose personal table this process remembers. */
const PERSONAL_TABLES_KNOWN = 100_000;

/** How long the list of written tables below the personal ones is kept before it is read again. */
const WRITTEN_PUBLIC_REFRESH_MS = 10 * 60_000;

export class TableDirectory {
  /** A personal table never changes hands, so a known owner is cached for good. */
  private readonly owners = new Map<number, string>();
  /** The same, by player. Each map holds at most PERSONAL_TABLES_KNOWN, then is forgotten at once. */
  private readonly personalTables = new Map<string, number>();
  /** Tables above TABLE_COUNT written when it was higher, as last read (a failed read is forgotten). */
  private writtenAbove: { ids: Promise<number[]>; at: number } | undefined;
  /** A refresh of writtenAbove in flight. */
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly store: SnapshotStore,
    private readonly wallet: WalletPort,
    readonly tableCount: number,
  ) {}

  /** The table, or NOT_FOUND; INVALID_ARGUMENT for an id that cannot be a table. */
  async require(tableId: number, scope: CallScope): Promise<TableInfo> {
    if (!Number.isInteger(tableId) || tableId < 1 || tableId > INT32_MAX) {
      throw new InvalidArgumentError("tableId must be an integer from 1");
    }
    if (tableId <= this.tableCount) return { tableId, ownerId: null };
    if (tableId >= FIRST_PERSONAL_TABLE_ID) {
      const ownerId = this.owners.get(tableId) ?? (await this.wallet.personalTableOwner(tableId, scope));
      if (ownerId !== null) {
        if (this.owners.size >= PERSONAL_TABLES_KNOWN) this.owners.clear();
        this.owners.set(tableId, ownerId);
        return { tableId, ownerId };
      }
    } else if (await this.store.isRegistered(tableId)) {
      return { tableId, ownerId: null };
    }
    throw new NotFoundError(noSuchTable(tableId));
  }

  /** Personal tables are for their owner alone (and an ADMIN may look). */
  static requireAccess(table: TableInfo, playerId: string, isAdmin: boolean): void {
    if (!isAdmin) TableDirectory.requireSeatable(table, playerId);
  }

  /**
   * Only its owner holds a seat at a personal table: sits, tops up, bets and leaves there (an ADMIN
   * acting for the owner names the owner).
   */
  static requireSeatable(table: TableInfo, playerId: string): void {
    if (table.ownerId !== null && table.ownerId !== playerId) {
      throw new ForbiddenError(`table ${table.tableId} is another player's personal table`);
    }
  }

  /**
   * The tables anyone may sit at: the public ones and those written while TABLE_COUNT was higher
   * (listed every 10 minutes, and any active since then). With a player's own personal table
   * (personalTableOf), every table where the player can hold a seat; not the personal tables of
   * everyone else, whose number grows with the players.
   */
  async sharedTables(): Promise<number[]> {
    const ids = new Set(Array.from({ length: this.tableCount }, (_, i) => i + 1));
    const [written, active] = await Promise.all([
      this.writtenAboveTableCount(),
      this.store.activity.activeAt(Date.now()),
    ]);
    for (const id of [...written, ...active]) if (id < FIRST_PERSONAL_TABLE_ID) ids.add(id);
    return [...ids].sort((a, b) => a - b);
  }

  /**
   * Reads the written tables above TABLE_COUNT (about a thousand `_id` probes) now, at start-up,
   * so that no ListSeats waits for the first read. A failed read is read again by the next call.
   */
  async prime(): Promise<void> {
    await this.writtenAboveTableCount();
  }

  /** The player's personal table (only its owner sits there), or null when the player has none. */
  async personalTableOf(playerId: string, scope: CallScope): Promise<number | null> {
    const known = this.personalTables.get(playerId);
    if (known !== undefined) return known;
    const tableId = await this.wallet.personalTable(playerId, scope);
    // A table, once a player's, stays theirs; a player without one may get one.
    if (tableId !== null) {
      if (this.personalTables.size >= PERSONAL_TABLES_KNOWN) this.personalTables.clear();
      this.personalTables.set(playerId, tableId);
    }
    return tableId;
  }

  /**
   * Written tables between TABLE_COUNT and the personal ones: only a replica configured with more
   * public tables writes one. Each id is probed (at most FIRST_PERSONAL_TABLE_ID - 2 `_id` reads),
   * at most every WRITTEN_PUBLIC_REFRESH_MS; meanwhile, and while a refresh runs, the last list
   * read is the answer; only a call made before the first read (prime, at start-up) has ended waits.
   */
  private writtenAboveTableCount(): Promise<number[]> {
    const now = Date.now();
    if (!this.writtenAbove) this.writtenAbove = this.readWrittenAbove(now);
    else if (now - this.writtenAbove.at > WRITTEN_PUBLIC_REFRESH_MS && !this.refreshing) {
      const next = this.readWrittenAbove(now);
      this.refreshing = next.ids.then(
        () => {
          this.writtenAbove = next;
          this.refreshing = undefined;
        },
        () => {
          this.refreshing = undefined;
        },
      );
    }
    return this.writtenAbove.ids;
  }

  /** A read of the written tables above TABLE_COUNT; a failed first read is forgotten (the next call reads again). */
  private readWrittenAbove(at: number): { ids: Promise<number[]>; at: number } {
    const candidates = [];
    for (let id = this.tableCount + 1; id < FIRST_PERSONAL_TABLE_ID; id++) candidates.push(id);
    const read = { ids: this.store.registeredAmong(candidates), at };
    read.ids.catch(() => {
      if (this.writtenAbove === read) this.writtenAbove = undefined;
    });
    return read;
  }
}
