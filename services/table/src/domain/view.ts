// The table game state as the spec shows it, in cents and tenths (the gateway converts to units).
// Built field by field from an allow-list, so the deck and other internals can never leak.

import { bettingStageOf } from "./snapshot.js";
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
  numberOfHands: number;
  numberOfSeats: number;
  jackpotCents: number;
  hands: string[] | null;
  flopCard1: string | null;
  flopCard2: string | null;
  flopCard3: string | null;
  turnCard: string | null;
  riverCard: string | null;
  seats: PublicSeat[];
  bets: PublicBet[];
  handOdds: HandOdds[];
}

export function publicState(snapshot: TableSnapshot): PublicTableState {
  const card = (i: number): string | null => snapshot.board[i] ?? null;
  return {
    tableId: snapshot.tableId,
    gameId: snapshot.gameId,
    gameState: snapshot.gameState,
    bettingStage: bettingStageOf(snapshot.gameState),
    numberOfHands: snapshot.config.numberOfHands,
    numberOfSeats: snapshot.config.numberOfSeats,
    jackpotCents: 0, // no jackpot rule is specified
    hands: snapshot.hands ? [...snapshot.hands] : null,
    flopCard1: card(0),
    flopCard2: card(1),
    flopCard3: card(2),
    turnCard: card(3),
    riverCard: card(4),
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
      betAmountCents: b.amountCents,
      recordedOddsTenths: b.oddsTenths,
    })),
    handOdds: snapshot.handOdds.map((p) => ({ ...p })),
  };
}
