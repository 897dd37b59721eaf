import type { Collection, Db } from "mongodb";
import type { Claims, Player } from "./domain/player.js";
import { isDuplicateKey } from "./duplicate-key.js";

type PlayerDocument = Omit<Player, "playerId"> & { _id: string };

const toDocument = ({ playerId, ...fields }: Player): PlayerDocument => ({ _id: playerId, ...fields });
const fromDocument = ({ _id, ...fields }: PlayerDocument): Player => ({ playerId: _id, ...fields });

/** Players by id. No money here: a player's balance lives only in the ledger. */
export class PlayerStore {
  private readonly players: Collection<PlayerDocument>;

  constructor(db: Db) {
    this.players = db.collection<PlayerDocument>("players");
  }

  async find(playerId: string): Promise<Player | null> {
    const player = await this.players.findOne({ _id: playerId });
    return player ? fromDocument(player) : null;
  }

  /** False when the player already exists (another request created it first). */
  async insert(player: Player): Promise<boolean> {
    try {
      await this.players.insertOne(toDocument(player));
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Names and role as the latest token says; last writer wins, which is right for these fields. */
  async updateClaims({ playerId, username, displayName, role }: Claims): Promise<void> {
    await this.players.updateOne({ _id: playerId }, { $set: { username, displayName, role } });
  }

  async allIds(): Promise<Set<string>> {
    const ids = await this.players.find({}, { projection: { _id: 1 } }).toArray();
    return new Set(ids.map((player) => player._id));
  }
}
