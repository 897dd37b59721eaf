// The client seed a player's deal mixes into the deck (docs/provably-fair.md, section 1): random and
// fresh for every game, chosen after the house committed to its server seed, so that neither side
// alone chooses the cards.
//
// No imports, so it can be unit-tested under Node (which has the same crypto.getRandomValues).

/** The states the dealing advance moves on from: only it takes a client seed (any other ignores one). */
const DEALING_STATES: readonly string[] = ["STATUS_SETUP", "STATUS_START"];

export const isDealingState = (gameState: string): boolean => DEALING_STATES.includes(gameState);

/** 16 bytes from the browser's CSPRNG as 32 lowercase hex digits: within the API's 1 to 64 of A-Z a-z 0-9 - _. */
export function newClientSeed(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whose deals and commitments where, kept for the page's life: a player at a table. */
export const placeAtTable = (playerId: string, tableId: number): string => `${playerId} ${tableId}`;

/** The games whose deals are remembered: the one shown and the one before it (the previous game's check). */
const GAMES_REMEMBERED = 2;

/** Each place's seeds, by game: kept for the page's life, as its moves' keys are (api/move-keys.ts). */
const sentAt = new Map<string, Map<string, { clientSeed: string; commitment: string | null }>>();

/**
 * The client seed of each of the last games this page dealt: the first one it sent for that game,
 * sent again with every later deal of it, whatever answered the first (a 409, a 429, a 503, no
 * answer). A house that turned a deal away after seeing its seed, to deal from a seed it liked
 * better, would otherwise get a fresh one from the next click; this way the deck it deals either
 * comes from the page's first seed or shows in the page's check as another.
 * A seed goes with the commitment it was chosen after: a game id shown again under another one (a
 * table restored from a backup deals its game ids again, on new seeds; or a house that changed its
 * commitment, which the page warns of) gets a fresh seed, as the house has seen the first.
 *
 * `place` names whose deals where (a player at a table): its seeds are kept for the page's life, so
 * a player who leaves the table's screen after a deal got no answer, and comes back to deal again,
 * sends the same seed (a new screen made a new one, and the house had two to choose between).
 */
export function dealClientSeeds(place: string) {
  const sent = sentAt.get(place) ?? new Map<string, { clientSeed: string; commitment: string | null }>();
  sentAt.set(place, sent);
  return {
    /** The client seed to send with a deal of `gameId`, shown committed to `commitment`. */
    forDeal(gameId: string, commitment: string | null): string {
      const kept = sent.get(gameId);
      const clientSeed = kept && kept.commitment === commitment ? kept.clientSeed : newClientSeed();
      // Deleted first, so the game dealt last is the newest.
      sent.delete(gameId);
      sent.set(gameId, { clientSeed, commitment });
      for (const oldest of [...sent.keys()].slice(0, -GAMES_REMEMBERED)) sent.delete(oldest);
      return clientSeed;
    },
    /** The client seed this page sent last with the deals of `gameId`, or null when it sent none. */
    sentFor: (gameId: string): string | null => sent.get(gameId)?.clientSeed ?? null,
  };
}

/**
 * The client seed's part in a verified game: which seed the deck came from, and whether the house
 * committed to its own before that one was chosen. `sent` is the seed this page sent with the deal,
 * if it dealt: a deck mixed with another seed (or none) is not this page's to vouch for, since a
 * house that dropped the player's seed and chose one after committing would show exactly that.
 */
export function clientSeedVerdict(used: string | null, sent: string | null, committedFirst: boolean): string {
  if (sent !== null && used !== sent) {
    const mixed = used === null ? "no client seed" : `the client seed ${used}`;
    return `The deck comes from the server seed and ${mixed}, not the seed this page sent (${sent}): unless another player's deal came first, the house may have chosen the cards.`;
  }
  if (used === null) return "No client seed was used: the deck comes from the server seed alone.";
  if (committedFirst) {
    return `The house committed to its seed before the client seed ${used} was chosen, and the deck comes from both.`;
  }
  return `The deck comes from the server seed mixed with the client seed ${used}.`;
}
