// Personal tables: one document per table, its id the `_id`. Ids are taken one after another from
// FIRST_PERSONAL_TABLE_ID by unique inserts of the next one, never removed, so they have no gap: the
// highest is found by `_id` probes, never by sorting the collection. Each table is also recorded
// under its player's id (`personalTableOwners`), so a player's table is an `_id` read too: only
// `_id` reads use an index on FerretDB, and a query by player scanned every table ever allocated.
import type { Collection, Db } from "mongodb";
import { insertUnlessPresent } from "@pokerodds/common/mongo";
import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";

interface PersonalTableDocument {
  /** The table id: unique by being the _id. */
  _id: number;
  /** Unique too (indexes.ts): one personal table per player. */
  playerId: string;
  createdAt: Date;
}

/** A table recorded under its player, after the table's own insert: inserted once, never changed. */
interface OwnerDocument {
  /** The player id. */
  _id: string;
  tableId: number;
}

export class PersonalTableStore {
  private readonly tables: Collection<PersonalTableDocument>;
  private readonly owners: Collection<OwnerDocument>;
  /** The highest id this process found taken: where the next search starts. */
  private highestKnown = FIRST_PERSONAL_TABLE_ID - 1;

  constructor(db: Db) {
    this.tables = db.collection<PersonalTableDocument>("personalTables");
    this.owners = db.collection<OwnerDocument>("personalTableOwners");
  }

  /** The player's table as recorded under the player (an `_id` read); null when none is recorded. */
  async tableOf(playerId: string): Promise<number | null> {
    return (await this.owners.findOne({ _id: playerId }))?.tableId ?? null;
  }

  /**
   * Records the player's table under the player. Insert-only, so no concurrent write can undo it
   * (FerretDB's update operators read and write back the whole document).
   */
  async recordOwner(playerId: string, tableId: number): Promise<void> {
    await insertUnlessPresent(() => this.owners.insertOne({ _id: playerId, tableId }));
  }

  /**
   * The player's table by a query of the tables: a scan on FerretDB, for a table whose record a
   * crash between the two inserts left unwritten.
   */
  async findTableOf(playerId: string): Promise<number | null> {
    return (await this.tables.findOne({ playerId }))?._id ?? null;
  }

  async ownerOf(tableId: number): Promise<string | null> {
    const table = await this.tables.findOne({ _id: tableId });
    return table ? table.playerId : null;
  }

  /**
   * The highest table id taken, or null when none is: probes forward from the highest this process
   * knows, doubling the step, then bisects. A warm process costs a read or two, a cold one about
   * 2 log2 of the tables.
   */
  async highestTableId(): Promise<number | null> {
    let taken = this.highestKnown;
    let free: number;
    for (let step = 1; ; step *= 2) {
      if ((await this.ownerOf(taken + step)) === null) {
        free = taken + step;
        break;
      }
      taken += step;
    }
    while (free - taken > 1) {
      const middle = Math.floor((taken + free) / 2);
      if ((await this.ownerOf(middle)) !== null) taken = middle;
      else free = middle;
    }
    this.highestKnown = taken;
    return taken < FIRST_PERSONAL_TABLE_ID ? null : taken;
  }

  /** False when that table id is taken or the player already has a table. */
  insert(tableId: number, playerId: string, createdAt: Date): Promise<boolean> {
    return insertUnlessPresent(() => this.tables.insertOne({ _id: tableId, playerId, createdAt }));
  }
}
