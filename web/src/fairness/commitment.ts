// The commitment a player saw before the bets, kept in memory for the game. Commit and reveal only
// bind the house if someone remembers the commitment: the river state carries one too, but a house
// that changed the deck mid-game would send a new commitment with it. So the page keeps the first
// value it saw for each game and notices any other value shown later in that game. A table shows it
// from the game's start (STATUS_SETUP or STATUS_START), before the deal and its client seed: the
// value kept then must be the one the river shows.
//
// Without imports, so it can be unit-tested under Node. What the page holds is kept for its life, per
// player and table, as its client seeds are (client-seed.ts): a player who goes to the lobby and comes
// back still holds the commitment seen before the deal, and is still warned of a different one.

/** The parts of a table state this needs (structurally the API's TableGameState). */
interface CommitmentShown {
  gameId: string;
  gameState: string;
  seedCommitment: string | null;
  /** The game's bets so far. */
  bets: readonly unknown[];
}

export interface HeldCommitment {
  gameId: string;
  /** The first commitment this page saw for the game. */
  commitment: string;
  /** The game state it was first seen in: STATUS_SETUP or STATUS_START when seen before the deal. */
  seenAt: string;
  /** The bets the game already had then: only with none did the page see it before every bet. */
  betsBefore: number;
  /** The latest different commitment shown later in the same game: the house broke its word. */
  changedTo: string | null;
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The held commitment after `state` was shown: kept, started for a new game, or marked changed. */
export function holdCommitment(held: HeldCommitment | null, state: CommitmentShown): HeldCommitment | null {
  if (held !== null && held.gameId === state.gameId) {
    if (state.seedCommitment === null || same(held.commitment, state.seedCommitment)) return held;
    // A null commitment mid-game proves nothing either way; a different one is the house changing the deck.
    return { ...held, changedTo: state.seedCommitment };
  }
  if (state.seedCommitment === null) return null;
  return {
    gameId: state.gameId,
    commitment: state.seedCommitment,
    seenAt: state.gameState,
    betsBefore: state.bets.length,
    changedTo: null,
  };
}

/** The held commitment if it belongs to the game now shown. */
export const heldFor = (held: HeldCommitment | null, gameId: string): HeldCommitment | null =>
  held !== null && held.gameId === gameId ? held : null;

/** The commitment of the game shown, and of the game before it, which may still be verified from its record. */
export interface HeldCommitments {
  current: HeldCommitment | null;
  previous: HeldCommitment | null;
}

/**
 * Both held commitments after `state` was shown: when the table moves on to a new game (another
 * player may clear the river at once), the game this page was following becomes the previous one.
 */
export function holdCommitments(held: HeldCommitments, state: CommitmentShown): HeldCommitments {
  // A late state of an earlier game (an event stream's replay after a reconnect, or a house showing
  // an old game between two states of the current one) is checked against what was kept for that
  // game, if anything, and never taken for a new game: the game after it would then be held afresh,
  // from whatever commitment it showed next.
  if (held.previous?.gameId === state.gameId) return { ...held, previous: holdCommitment(held.previous, state) };
  const latest = held.current ?? held.previous;
  if (latest !== null && gameNumber(state.gameId) < gameNumber(latest.gameId)) return held;
  const current = holdCommitment(held.current, state);
  const movedOn = held.current !== null && held.current.gameId !== state.gameId;
  return { current, previous: movedOn ? held.current : held.previous };
}

/** The game's number at its table ("T1-8" is 8): a table's games only count up. NaN for another form. */
const gameNumber = (gameId: string): number => Number(/-(\d+)$/.exec(gameId)?.[1] ?? Number.NaN);

/** Each place's held commitments (a player at a table), for the page's life. */
const heldAt = new Map<string, HeldCommitments>();

/** What the page holds for `place`: nothing yet, or what it held when its table screen last closed. */
export const heldCommitmentsAt = (place: string): HeldCommitments =>
  heldAt.get(place) ?? { current: null, previous: null };

/** Keeps `held` as what the page holds for `place`, and gives it back. */
export function keepHeldCommitments(place: string, held: HeldCommitments): HeldCommitments {
  heldAt.set(place, held);
  return held;
}
