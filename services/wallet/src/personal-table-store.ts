import type { Collection, Db } from "mongodb";
import { insertUnlessPresent } from "@pokerodds/common/mongo";

interface PersonalTableDocument {
  /** The table id: unique by being the _id. */
  _id: number;
  /** Unique too (indexes.ts): one personal table per player. */
  playerId: string;
  createdAt: Date;
}

export class PersonalTableStore {
  private readonly tables: Collection<PersonalTableDocument>;

  constructor(db: Db) {
    this.tables = db.collection<PersonalTableDocument>("personalTables");
  }

  async tableOf(playerId: string): Promise<number | null> {
    const table = await this.tables.findOne({ playerId });
    return table ? table._id : null;
  }

  async ownerOf(tableId: number): Promise<string | null> {
    const table = await this.tables.findOne({ _id: tableId });
    return table ? table.playerId : null;
  }

  async highestTableId(): Promise<number | null> {
    const [highest] = await this.tables.find({}).sort({ _id: -1 }).limit(1).toArray();
    return highest ? highest._id : null;
  }

  /** False when that table id is taken or the player already has a table. */
  insert(tableId: number, playerId: string, createdAt: Date): Promise<boolean> {
    return insertUnlessPresent(() => this.tables.insertOne({ _id: tableId, playerId, createdAt }));
  }
}
