import type { Collection, Db } from "mongodb";
import type { Claims, Player } from "./domain/player.js";
import { insertUnlessPresent } from "@pokerodds/common/mongo";

/**
 * A player as stored, with the personal-table hint: the id of the player's table once it is known
 * (the personalTables collection, with its unique indexes, stays the truth). Absent says "none" only
 * while the stored role has no entitlement to a table (profiles.ts keeps it so); for a stored
 * PAYING_USER or ADMIN it says nothing.
 */
export interface StoredPlayer extends Player {
  personalTableId: number | null;
}

type PlayerDocument = Omit<Player, "playerId"> & { _id: string; personalTableId?: number };

const toDocument = ({ playerId, ...fields }: Player): PlayerDocument => ({ _id: playerId, ...fields });
const fromDocument = ({ _id, personalTableId, ...fields }: PlayerDocument): StoredPlayer => ({
  playerId: _id,
  ...fields,
  personalTableId: personalTableId ?? null,
});

/** Players by id. No money here: a player's balance lives only in the ledger. */
export class PlayerStore {
  private readonly players: Collection<PlayerDocument>;

  constructor(db: Db) {
    this.players = db.collection<PlayerDocument>("players");
  }

  async find(playerId: string): Promise<StoredPlayer | null> {
    const player = await this.players.findOne({ _id: playerId });
    return player ? fromDocument(player) : null;
  }

  /** False when the player already exists (another request created it first). */
  insert(player: Player): Promise<boolean> {
    return insertUnlessPresent(() => this.players.insertOne(toDocument(player)));
  }

  /**
   * Names and role as the latest token says; last writer wins, which is right for these fields.
   * `personalTableId`: the hint, when the role written no longer entitles to a table (profiles.ts).
   */
  async updateClaims({ playerId, username, displayName, role }: Claims, personalTableId?: number): Promise<void> {
    const hint = personalTableId === undefined ? {} : { personalTableId };
    await this.players.updateOne({ _id: playerId }, { $set: { username, displayName, role, ...hint } });
  }

  /** Records the hint once the player's table is known. */
  async setPersonalTable(playerId: string, personalTableId: number): Promise<void> {
    await this.players.updateOne({ _id: playerId }, { $set: { personalTableId } });
  }

  async allIds(): Promise<Set<string>> {
    const ids = await this.players.find({}, { projection: { _id: 1 } }).toArray();
    return new Set(ids.map((player) => player._id));
  }
}
