import { backoff, UnavailableError } from "@pokerodds/common";
import { welcomeRequest, type LedgerEntry } from "./domain/movement.js";
import {
  isEntitledToPersonalTable,
  newPlayer,
  nextPersonalTableId,
  type Claims,
  type Player,
} from "./domain/player.js";
import type { Db } from "mongodb";
import { LedgerStore } from "./ledger-store.js";
import { Movements } from "./movements.js";
import { PersonalTableStore } from "./personal-table-store.js";
import { PlayerStore } from "./player-store.js";

const MAX_TABLE_ATTEMPTS = 50;
/**
 * Reads of a player's table record while another request of theirs may be writing it
 * (tableAfterRefusal), with pauses growing to RECORD_PAUSE_MS: about half a second in all.
 */
const RECORD_READS = 8;
const RECORD_PAUSE_MS = 250;

export interface WalletParts {
  players: PlayerStore;
  personalTables: PersonalTableStore;
  ledger: LedgerStore;
  movements: Movements;
}

/** The wallet's stores on `db`. */
export function walletParts(db: Db): WalletParts {
  const ledger = new LedgerStore(db);
  return {
    players: new PlayerStore(db),
    personalTables: new PersonalTableStore(db),
    ledger,
    movements: new Movements(ledger),
  };
}

export interface Profile extends Player {
  accountBalanceCents: number;
  /** The first profile read has not yet opened the account (its welcome credit): no movement can be made. */
  accountNotOpened: boolean;
  personalTableId: number | null;
}

/**
 * The player as the token describes them now, with their live balance. The first read creates the
 * player, then the account with its welcome credit (in that order, so no ledger ever lacks its
 * player), and the personal table the role entitles to. Every step is a unique insert or an
 * idempotent movement, so any number of concurrent first reads, on any number of replicas, create
 * one player, one welcome credit and at most one personal table.
 */
export async function readProfile(wallet: WalletParts, claims: Claims): Promise<Profile> {
  const player = await ensurePlayer(wallet, claims);
  const [accountBalanceCents, personalTableId] = await Promise.all([
    ensureAccount(wallet, claims.playerId),
    personalTableFor(wallet, claims),
  ]);
  // The role shown is the token's: the identity provider, not the wallet, decides what a player is.
  return { ...player, ...claims, accountBalanceCents, accountNotOpened: false, personalTableId };
}

/** The player's table as recorded, else one allocated now if the role entitles to one. */
async function personalTableFor(wallet: WalletParts, claims: Claims): Promise<number | null> {
  // A personal table once allocated stays with its player, even if a later token lowers the role.
  const recorded = await wallet.personalTables.tableOf(claims.playerId);
  if (recorded !== null || !isEntitledToPersonalTable(claims.role)) return recorded;
  return allocatePersonalTable(wallet, claims.playerId);
}

/** A player as last seen, with the live balance; null for a player no profile read has created. */
export async function findProfile(wallet: WalletParts, playerId: string): Promise<Profile | null> {
  const player = await wallet.players.find(playerId);
  if (!player) return null;
  const [head, personalTableId] = await Promise.all([
    wallet.ledger.head(playerId),
    wallet.personalTables.tableOf(playerId),
  ]);
  // No entry yet: the first profile read was cut short before the welcome credit, which the next one makes.
  return {
    ...player,
    accountBalanceCents: head?.balanceAfterCents ?? 0,
    accountNotOpened: !head,
    personalTableId,
  };
}

/**
 * A player's personal table as findProfile names it, without the balance; null for none or no such
 * player (a table is recorded only under a player who exists). One `_id` read.
 */
export function findPersonalTable(wallet: WalletParts, playerId: string): Promise<number | null> {
  return wallet.personalTables.tableOf(playerId);
}

/**
 * The owner of a personal table (null: nobody's), its table recorded under it if a crash between
 * the two inserts left that unwritten. Every seat at a personal table comes after this call (the
 * table service asks before its first move there), so GetPlayer finds a player's table wherever the
 * player can have chips.
 */
export async function personalTableOwner({ personalTables }: WalletParts, tableId: number): Promise<string | null> {
  const owner = await personalTables.ownerOf(tableId);
  if (owner !== null && (await personalTables.tableOf(owner)) === null)
    await personalTables.recordOwner(owner, tableId);
  return owner;
}

/**
 * The stored player, created or updated to the token's claims. A role that loses its entitlement is
 * the last read that would find a table whose record a crash left unwritten (an entitled read finds
 * it by allocating): it is looked for then, and recorded.
 */
async function ensurePlayer(wallet: WalletParts, claims: Claims): Promise<Player> {
  const existing = await wallet.players.find(claims.playerId);
  if (existing) {
    if (
      existing.username !== claims.username ||
      existing.displayName !== claims.displayName ||
      existing.role !== claims.role
    ) {
      await wallet.players.updateClaims(claims);
      if (isEntitledToPersonalTable(existing.role) && !isEntitledToPersonalTable(claims.role)) {
        await recordUnrecordedTable(wallet.personalTables, claims.playerId);
      }
    }
    return existing;
  }
  const created = newPlayer(claims, new Date());
  if (await wallet.players.insert(created)) return created;
  const winner = await wallet.players.find(claims.playerId);
  if (!winner) throw new UnavailableError("the player could not be read back");
  return winner;
}

/** Records the player's table found by the query of the tables (a scan on FerretDB) when it has no record. */
async function recordUnrecordedTable(personalTables: PersonalTableStore, playerId: string): Promise<void> {
  if ((await personalTables.tableOf(playerId)) !== null) return;
  const found = await personalTables.findTableOf(playerId);
  if (found !== null) await personalTables.recordOwner(playerId, found);
}

/** The account's balance, opening the account with its welcome credit if it has no entry yet. */
async function ensureAccount({ ledger, movements }: WalletParts, playerId: string): Promise<number> {
  const head = (await ledger.head(playerId)) ?? (await openAccount(ledger, movements, playerId));
  return head.balanceAfterCents;
}

async function openAccount(ledger: LedgerStore, movements: Movements, playerId: string): Promise<LedgerEntry> {
  const { entry, replayed } = await movements.record(welcomeRequest(playerId));
  // A replayed welcome is another request's, which may have been followed by movements already.
  return replayed ? ((await ledger.head(playerId)) ?? entry) : entry;
}

/**
 * The next free table id, claimed by a unique insert; a lost race reads or tries again. Either way
 * the table found is recorded under the player, so later reads need no query of the tables.
 */
async function allocatePersonalTable({ personalTables }: WalletParts, playerId: string): Promise<number> {
  for (let attempt = 1; attempt <= MAX_TABLE_ATTEMPTS; attempt++) {
    const tableId = nextPersonalTableId(await personalTables.highestTableId());
    const mine = (await personalTables.insert(tableId, playerId, new Date()))
      ? tableId
      : await tableAfterRefusal(personalTables, tableId, playerId);
    if (mine !== null) {
      await personalTables.recordOwner(playerId, mine);
      return mine;
    }
    await backoff(attempt);
  }
  throw new UnavailableError("no personal table could be allocated; try again");
}

/**
 * After an insert of `tableId` for the player was refused: the id was taken, by this player
 * concurrently (theirs, then) or by another (null: try the next id), or the player already has
 * another table. That one is recorded under the player, or will be in a moment by the request of
 * theirs that took it (read for up to about half a second); only a crash between its two inserts,
 * or that request stalled between them longer, leaves it to the one query by player, a scan on FerretDB.
 */
async function tableAfterRefusal(
  personalTables: PersonalTableStore,
  tableId: number,
  playerId: string,
): Promise<number | null> {
  const owner = await personalTables.ownerOf(tableId);
  if (owner === playerId) return tableId;
  if (owner !== null) return null;
  for (let read = 1; read <= RECORD_READS; read++) {
    const recorded = await personalTables.tableOf(playerId);
    if (recorded !== null) return recorded;
    await backoff(read, RECORD_PAUSE_MS);
  }
  return personalTables.findTableOf(playerId);
}
