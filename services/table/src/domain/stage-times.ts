// What a game's deal fixed (TableSnapshot.deal), and when each of its betting stages took bets, for
// the game's record: a stage opens when its cards are shown (the deal, for the hole) and closes when
// an advance closes it to reveal the next cards. Every bet's time lies within its stage's, as the
// table's history does not go back in time (snapshot-store.ts), so anyone can check from the record
// that no bet came after its stage closed.
import type { BettingStage, Deal, StageTimes, TableSnapshot } from "./types.js";

/**
 * What the current game's deal fixed; null before the deal, and for a game dealt by a table service
 * that did not keep it (absent, or the last game's carried on).
 */
export const currentDeal = (snapshot: TableSnapshot): Deal | null =>
  snapshot.deal?.gameId === snapshot.gameId ? snapshot.deal : null;

/** The deal of `snapshot`'s game: its RTP and dealer, and its first stage opened at `now`. */
export const newDeal = (snapshot: TableSnapshot, targetRtp: number, dealtBy: string, now: number): Deal => ({
  gameId: snapshot.gameId,
  targetRtp,
  dealtBy,
  stages: [{ bettingStage: 0, openedAt: now, closedAt: null }],
});

/** The game's deal with its open stage closed at `now` (none kept: none). */
export function withStageClosed(snapshot: TableSnapshot, now: number): Deal | null {
  const deal = currentDeal(snapshot);
  if (!deal) return null;
  return {
    ...deal,
    stages: deal.stages.map((stage) => (stage.closedAt === null ? { ...stage, closedAt: now } : stage)),
  };
}

/** The game's deal with `bettingStage` opened at `now`, its cards revealed (the river opens none). */
export function withStageOpened(snapshot: TableSnapshot, bettingStage: BettingStage, now: number): Deal | null {
  const deal = currentDeal(snapshot);
  if (!deal || bettingStage < 0) return deal;
  const opened: StageTimes = {
    bettingStage: bettingStage as StageTimes["bettingStage"],
    openedAt: now,
    closedAt: null,
  };
  return { ...deal, stages: [...deal.stages, opened] };
}
