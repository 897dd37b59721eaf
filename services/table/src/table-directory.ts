// Which tables exist and who may use them: public tables 1..TABLE_COUNT; personal tables
// (FIRST_PERSONAL_TABLE_ID and up) that the wallet has given to a player; and any table already written (so a table that money
// sits on stays reachable if TABLE_COUNT is lowered).
import { ForbiddenError, InvalidArgumentError, NotFoundError } from "@pokerodds/common";
import { INT32_MAX } from "@pokerodds/common/limits";
import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import type { CallScope, WalletPort } from "./dependencies.js";
import type { SnapshotStore } from "./snapshot-store.js";

export interface TableInfo {
  tableId: number;
  /** The player whose personal table this is; null for a public table. */
  ownerId: string | null;
}

export class TableDirectory {
  /** A personal table never changes hands, so a known owner is cached for good. */
  private readonly owners = new Map<number, string>();

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
        this.owners.set(tableId, ownerId);
        return { tableId, ownerId };
      }
    } else if (await this.store.isRegistered(tableId)) {
      return { tableId, ownerId: null };
    }
    throw new NotFoundError(`no table ${tableId}`);
  }

  /** Personal tables are for their owner alone (and an ADMIN may look). */
  static requireAccess(table: TableInfo, playerId: string, isAdmin: boolean): void {
    if (table.ownerId !== null && table.ownerId !== playerId && !isAdmin) {
      throw new ForbiddenError(`table ${table.tableId} is another player's personal table`);
    }
  }

  /** Every table that may be listed: the public ones and every table ever written. */
  async ids(): Promise<number[]> {
    const ids = new Set(Array.from({ length: this.tableCount }, (_, i) => i + 1));
    for (const id of await this.store.tableIds()) ids.add(id);
    return [...ids].sort((a, b) => a - b);
  }
}
