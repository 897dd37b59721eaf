// What a game's deal fixed (TableSnapshot.deal), and when each of its betting stages took bets, for
// the game's record: a stage opens when its cards are shown (the deal, for the hole) and closes when
// an advance closes it to reveal the next cards. Every bet's time lies within its stage's, as the
// table's history does not go back in time (snapshot-store.ts), so anyone can check from the record
// that no bet came after its stage closed.
import type { BettingStage, Deal, GameState, StageTimes, TableSnapshot } from "./types.js";

/** The stages a game in each state has opened: one per betting stage its cards have reached. */
const STAGES_OPENED: Record<GameState, number> = {
  STATUS_SETUP: 0,
  STATUS_START: 0,
  STATUS_HOLE: 1,
  STATUS_FLOP: 2,
  STATUS_TURN: 3,
  STATUS_RIVER: 3,
};

/**
 * What the current game's deal fixed; null before the deal, and for a game a table service that
 * does not keep it had a hand in: absent, the last game's carried on, or one that missed a stage
 * (an old replica dealt or revealed beside this one). Such a game has none to its end.
 */
export function currentDeal(snapshot: TableSnapshot): Deal | null {
  const deal = snapshot.deal;
  if (!deal || deal.gameId !== snapshot.gameId) return null;
  return deal.stages.length === STAGES_OPENED[snapshot.gameState] ? deal : null;
}

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
