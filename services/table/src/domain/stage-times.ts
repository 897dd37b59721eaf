// What a game's deal fixed (TableSnapshot.deal), and when each of its betting stages took bets, for
// the game's record: a stage opens when its cards are shown (the deal, for the hole) and closes when
// an advance closes it to reveal the next cards. Every bet's time lies within its stage's, as the
// table's history does not go back in time (snapshot-store.ts), so anyone can check from the record
// that no bet came after its stage closed.
import type { BettingStage, Deal, StageTimes, TableSnapshot } from "./types.js";

/** The deal of a game past it (HOLE to RIVER), which every such game has: a RangeError otherwise. */
export function requireDeal(snapshot: TableSnapshot): Deal {
  if (!snapshot.deal) throw new RangeError(`table ${snapshot.tableId}: game ${snapshot.gameId} has no deal`);
  return snapshot.deal;
}

/** A game's deal: its RTP and dealer, and its first stage opened at `now`. */
export const newDeal = (targetRtp: number, dealtBy: string, now: number): Deal => ({
  targetRtp,
  dealtBy,
  stages: [{ bettingStage: 0, openedAt: now, closedAt: null }],
});

/** The game's deal with its open stage closed at `now`. */
export function withStageClosed(snapshot: TableSnapshot, now: number): Deal {
  const deal = requireDeal(snapshot);
  return {
    ...deal,
    stages: deal.stages.map((stage) => (stage.closedAt === null ? { ...stage, closedAt: now } : stage)),
  };
}

/** The game's deal with `bettingStage` opened at `now`, its cards revealed (the river opens none). */
export function withStageOpened(snapshot: TableSnapshot, bettingStage: BettingStage, now: number): Deal {
  const deal = requireDeal(snapshot);
  if (bettingStage < 0) return deal;
  const opened: StageTimes = {
    bettingStage: bettingStage as StageTimes["bettingStage"],
    openedAt: now,
    closedAt: null,
  };
  return { ...deal, stages: [...deal.stages, opened] };
}
