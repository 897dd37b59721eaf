// When each betting stage of a game took bets, for the game's record: a stage opens when its cards
// are shown (the deal, for the hole) and closes when an advance closes it to reveal the next cards.
// Every bet's time lies within its stage's, as the table's history never goes back in time
// (snapshot-store.ts), so anyone can check from the record that no bet came after its stage closed.
import type { BettingStage, StageTimes, TableSnapshot } from "./types.js";

/**
 * The game's stages so far. None for a game dealt before the table kept them (2026-12-03), whose
 * stored versions lack the field: it keeps none to its end rather than a partial list.
 */
const stagesOf = (snapshot: TableSnapshot): readonly StageTimes[] => snapshot.stages ?? [];

/** The first stage, opened by the deal. */
export const dealtStages = (now: number): readonly StageTimes[] => [{ bettingStage: 0, openedAt: now, closedAt: null }];

/** The game's stages with the open one closed at `now`. */
export function closedStages(snapshot: TableSnapshot, now: number): readonly StageTimes[] {
  return stagesOf(snapshot).map((stage) => (stage.closedAt === null ? { ...stage, closedAt: now } : stage));
}

/** The game's stages with `bettingStage` opened at `now`, its cards revealed (none kept: none). */
export function openedStages(snapshot: TableSnapshot, bettingStage: BettingStage, now: number): readonly StageTimes[] {
  const stages = stagesOf(snapshot);
  if (stages.length === 0 || bettingStage < 0) return stages;
  return [...stages, { bettingStage: bettingStage as StageTimes["bettingStage"], openedAt: now, closedAt: null }];
}
