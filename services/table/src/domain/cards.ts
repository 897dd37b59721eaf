// A game's cards: the seed it commits to when it begins, and the deal that seed derives. The table
// deals itself: the odds service is sent the hole cards and the board being revealed (once its stage
// takes no bets), never a seed.

import { derivedDeal } from "@pokerodds/common/deck-derivation";
import { commitmentOf } from "@pokerodds/common/server-seed";
import type { Fairness, TableSnapshot } from "./types.js";
import { CLIENT_SEED_PATTERN, SEED_HEX } from "@pokerodds/common/limits";

/**
 * The cards of a deal: numberOfHands hole-card pairs and the deck left in dealt order (the board is
 * drawn from its front), exactly as the seeds derive them for the game (docs/provably-fair.md).
 */
export function dealtCards(
  deal: { gameId: string; numberOfHands: number; clientSeed: string | null },
  serverSeed: string,
): { hands: string[]; remainingDeck: string[] } {
  return derivedDeal({ serverSeed, clientSeed: deal.clientSeed }, deal.gameId, deal.numberOfHands);
}

/**
 * The fairness of a deal from serverSeed with the dealing player's client seed: RangeError unless
 * the seed is 64 hex digits and the one the game committed to (if any), so a table never shows a
 * commitment its seed cannot keep.
 */
export function dealtFairness(serverSeed: string, committed: Fairness | null, clientSeed: string | null): Fairness {
  if (!SEED_HEX.test(serverSeed)) throw new RangeError("a server seed must be 64 lowercase hex digits");
  if (committed && committed.serverSeed !== serverSeed) throw new RangeError("a deal must be from the committed seed");
  if (clientSeed !== null && !CLIENT_SEED_PATTERN.test(clientSeed)) throw new RangeError("invalid client seed");
  return { serverSeed, seedCommitment: commitmentOf(serverSeed), clientSeed };
}

/**
 * The snapshot with its game's deck committed to: a game not dealt yet and without a commitment gets
 * `drawSeed()`'s seed and its commitment, which its state shows from then on, before any client seed
 * or bet. Any other snapshot is returned as it is.
 */
export function withCommittedDeck(snapshot: TableSnapshot, drawSeed: () => string): TableSnapshot {
  if (snapshot.hands !== null || snapshot.fairness !== null) return snapshot;
  const serverSeed = drawSeed();
  if (!SEED_HEX.test(serverSeed)) throw new RangeError("a server seed must be 64 lowercase hex digits");
  return { ...snapshot, fairness: { serverSeed, seedCommitment: commitmentOf(serverSeed), clientSeed: null } };
}
