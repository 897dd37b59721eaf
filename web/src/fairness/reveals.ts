// What each screen's API answer says about its game, in the verifier's terms (verify.ts).
import type { BulkGame, DealResult, GameRecord, TableState } from "../api/client";
import type { GameReveal } from "./verify";

/**
 * The board dealt so far, in dealing order: flop 1-3, turn, river, without the slots not dealt yet.
 * Only trailing empty slots go: a gap before a dealt card stays, for the verifier to refuse.
 */
function boardSoFar(cards: (string | null)[]): string[] {
  let end = cards.length;
  while (end > 0 && cards[end - 1] === null) end--;
  return cards.slice(0, end) as string[];
}

/** A table game at the river (serverSeed is null before it, and then the check is not offered). */
export const tableReveal = (state: TableState): GameReveal => ({
  reachedRiver: true,
  seed: state.serverSeed ?? "",
  commitment: state.seedCommitment ?? "",
  gameId: state.gameId,
  // The dealing player's client seed, mixed into the deck; null when the deal named none.
  clientSeed: state.clientSeed,
  hands: state.hands ?? [],
  board: boardSoFar([state.flopCard1, state.flopCard2, state.flopCard3, state.turnCard, state.riverCard]),
});

/** A finished table game's record (GET /api/tables/{tableId}/games/{gameId}): its whole board, or a void game's cards so far. */
export const recordReveal = (record: GameRecord): GameReveal => ({
  // A settled game reached the river; a void one was voided before it.
  reachedRiver: record.outcome === "SETTLED",
  numberOfHands: record.numberOfHands,
  seed: record.serverSeed,
  commitment: record.seedCommitment,
  gameId: record.gameId,
  clientSeed: record.clientSeed,
  hands: record.hands,
  board: record.board,
});

/** A stand-alone deal: no board, and the rest of the deck as the API lists it, in deck order. */
export const dealReveal = (deal: DealResult): GameReveal => ({
  seed: deal.serverSeed,
  commitment: deal.seedCommitment,
  gameId: deal.gameId,
  hands: deal.hands,
  board: [],
  remainingDeck: deal.remainingDeck,
});

/** A bulk game: the whole board, whichever stage the viewer shows. */
export const bulkReveal = (game: BulkGame): GameReveal => ({
  seed: game.serverSeed,
  commitment: game.seedCommitment,
  gameId: game.gameId,
  hands: game.hands,
  board: [game.bc1, game.bc2, game.bc3, game.bc4, game.bc5],
});
