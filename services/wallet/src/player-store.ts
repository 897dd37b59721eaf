import type { Collection, Db } from "mongodb";
import type { Claims, Player } from "./domain/player.js";
import { insertUnlessPresent } from "@pokerodds/common/mongo";

/** A player's document. Nothing but the claims is ever written in place. */
type PlayerDocument = Omit<Player, "playerId"> & { _id: string };

const toDocument = ({ playerId, ...fields }: Player): PlayerDocument => ({ _id: playerId, ...fields });
const fromDocument = ({ _id, ...fields }: PlayerDocument): Player => ({ playerId: _id, ...fields });

/**
 * Left out of every read: the personal table that earlier versions kept on the player as a hint,
 * which FerretDB's whole-document write-backs could undo. The table is read from its insert-only
 * record (personal-table-store.ts).
 */
const FORMER_FIELDS = { projection: { personalTableId: 0 } };

/** Players by id. No money here: a player's balance lives only in the ledger. */
export class PlayerStore {
  private readonly players: Collection<PlayerDocument>;

  constructor(db: Db) {
    this.players = db.collection<PlayerDocument>("players");
  }

  async find(playerId: string): Promise<Player | null> {
    const player = await this.players.findOne({ _id: playerId }, FORMER_FIELDS);
    return player ? fromDocument(player) : null;
  }

  /** False when the player already exists (another request created it first). */
  insert(player: Player): Promise<boolean> {
    return insertUnlessPresent(() => this.players.insertOne(toDocument(player)));
  }

  /**
   * Names and role as the latest token says; last writer wins, which is right for these fields. The
   * only in-place write of a player: nothing else is kept on the document for it to undo.
   */
  async updateClaims({ playerId, username, displayName, role }: Claims): Promise<void> {
    await this.players.updateOne({ _id: playerId }, { $set: { username, displayName, role } });
  }

  async allIds(): Promise<Set<string>> {
    const ids = await this.players.find({}, { projection: { _id: 1 } }).toArray();
    return new Set(ids.map((player) => player._id));
  }
}
