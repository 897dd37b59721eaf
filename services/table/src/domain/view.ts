// The table game state as the spec shows it, in cents and tenths (the gateway converts to units).
// Built field by field from an allow-list, so the deck and other internals can never leak.

import { bettingStageOf, takesBets } from "./snapshot.js";
import type { BettingStage, GameState, HandOdds, TableSnapshot } from "./types.js";

export interface PublicSeat {
  seatId: number;
  playerId: string;
  playerName: string;
  seatBalanceCents: number;
  avatarImageUrl: string;
}

export interface PublicBet {
  playerId: string;
  bettingStage: BettingStage;
  seatIndex: number;
  handIndex: number;
  betAmountCents: number;
  recordedOddsTenths: number;
}

export interface PublicTableState {
  tableId: number;
  gameId: string;
  gameState: GameState;
  bettingStage: BettingStage;
  /** bettingStage takes bets now: false outside the betting stages and while an advance has closed it. */
  bettingOpen: boolean;
  numberOfHands: number;
  numberOfSeats: number;
  jackpotCents: number;
  hands: string[] | null;
  /** The community cards revealed so far, in order: flop (3), turn, river. */
  board: string[];
  seats: PublicSeat[];
  bets: PublicBet[];
  handOdds: HandOdds[];
  /**
   * SHA-256 of the deck's seed, from the game's start (fixed before any client seed or bet); null
   * only at a table nothing was stored at, until its deal.
   */
  seedCommitment: string | null;
  /** The seed itself, at the river only: anyone can then check the deck (docs/provably-fair.md). */
  serverSeed: string | null;
  /** The client seed the dealing player mixed into the deck, from the hole on; null when none. */
  clientSeed: string | null;
  /** The target return to player the game's stages are priced at, from its deal; null before. */
  targetRtp: number | null;
}

export function publicState(snapshot: TableSnapshot): PublicTableState {
  return {
    tableId: snapshot.tableId,
    gameId: snapshot.gameId,
    gameState: snapshot.gameState,
    bettingStage: bettingStageOf(snapshot.gameState),
    bettingOpen: takesBets(snapshot),
    numberOfHands: snapshot.config.numberOfHands,
    numberOfSeats: snapshot.config.numberOfSeats,
    jackpotCents: 0, // no jackpot rule is specified
    hands: snapshot.hands ? [...snapshot.hands] : null,
    board: [...snapshot.board],
    seats: snapshot.seats.map((s) => ({
      seatId: s.seatId,
      playerId: s.playerId,
      playerName: s.playerName,
      seatBalanceCents: s.balanceCents,
      avatarImageUrl: s.avatarImageUrl,
    })),
    bets: snapshot.bets.map((b) => ({
      playerId: b.playerId,
      bettingStage: b.bettingStage,
      seatIndex: b.seatId,
      handIndex: b.handIndex,
      betAmountCents: b.betAmountCents,
      recordedOddsTenths: b.oddsTenths,
    })),
    handOdds: snapshot.handOdds.map((p) => ({ ...p })),
    seedCommitment: snapshot.fairness?.seedCommitment ?? null,
    serverSeed: snapshot.gameState === "STATUS_RIVER" ? (snapshot.fairness?.serverSeed ?? null) : null,
    clientSeed: snapshot.fairness?.clientSeed ?? null,
    targetRtp: snapshot.deal?.targetRtp ?? null,
  };
}
