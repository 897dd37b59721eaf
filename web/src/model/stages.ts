// Names for the game's stages and states, as a player reads them.
import type { HandOdds, Schemas, TableState } from "../api/client";

const STAGE_NAMES: Record<number, string> = { [-1]: "River", 0: "Hole", 1: "Flop", 2: "Turn" };

export const stageName = (stage: number): string => STAGE_NAMES[stage] ?? `Stage ${stage}`;

/** The game and betting stage a bet is placed at: those whose odds are on the screen. */
export type BetAt = NonNullable<Schemas["BetRequest"]["at"]>;

/** Betting is open at the hole, the flop and the turn. */
export const isBettingStage = (stage: number): stage is BetAt["bettingStage"] => stage >= 0 && stage <= 2;

/** Where a bet would be placed now, or undefined while no stage takes bets (none open, or closed for a reveal). */
export function bettingAt({ gameId, bettingStage, bettingOpen }: TableState): BetAt | undefined {
  return bettingOpen && isBettingStage(bettingStage) ? { gameId, bettingStage } : undefined;
}

/** The state an advance moves the game on from: the one on the screen. */
export type AdvanceFrom = NonNullable<Schemas["AdvanceRequest"]["from"]>;

/** A state a table is in (the contract's list also names states no table shows). */
type TableGameState = AdvanceFrom["gameState"];

const STATE_LABELS: Record<TableGameState, string> = {
  STATUS_SETUP: "Waiting for the next deal",
  STATUS_START: "Waiting for the first deal",
  STATUS_HOLE: "Hole cards dealt: betting open",
  STATUS_FLOP: "Flop dealt: betting open",
  STATUS_TURN: "Turn dealt: betting open",
  STATUS_RIVER: "River dealt: game settled",
};

const isTableGameState = (state: TableState["gameState"]): state is TableGameState => state in STATE_LABELS;

/** A stage whose betting an advance has closed while it reveals the next cards (bettingOpen false). */
const CLOSED_LABELS: Partial<Record<TableGameState, string>> = {
  STATUS_HOLE: "Hole cards dealt: betting closed, the flop is next (deal it if it does not come)",
  STATUS_FLOP: "Flop dealt: betting closed, the turn is next (deal it if it does not come)",
  STATUS_TURN: "Turn dealt: betting closed, the river is next (deal it if it does not come)",
};

export function stateLabel({ gameState, bettingOpen }: Pick<TableState, "gameState" | "bettingOpen">): string {
  if (!isTableGameState(gameState)) return gameState;
  return (bettingOpen ? undefined : CLOSED_LABELS[gameState]) ?? STATE_LABELS[gameState];
}

/** The state an advance moves the game on from: the one on the screen, if it is one a table is in. */
export function advanceFrom({ gameId, gameState }: TableState): AdvanceFrom | undefined {
  return isTableGameState(gameState) ? { gameId, gameState } : undefined;
}

const ADVANCE_LABELS: Partial<Record<TableState["gameState"], string>> = {
  STATUS_HOLE: "Deal the flop",
  STATUS_FLOP: "Deal the turn",
  STATUS_TURN: "Deal the river",
  STATUS_RIVER: "Clear the table",
};

/** What the advance button does from this state. */
export const advanceLabel = (state: TableState["gameState"]): string => ADVANCE_LABELS[state] ?? "Deal the hole cards";

/** The hand's panel at the river if any, else at the table's current stage. */
export function currentOdds(state: TableState, handIndex: number): HandOdds | undefined {
  const panels = state.handOdds.filter((o) => o.handIndex === handIndex);
  if (state.gameState === "STATUS_RIVER") return panels.find((o) => o.bettingStage === -1) ?? panels.at(-1);
  return panels.find((o) => o.bettingStage === state.bettingStage) ?? panels.at(-1);
}

const STATUS_LABELS: Record<HandOdds["handStatus"], string> = {
  IN_PLAY_FAVOURITE: "Favourite",
  IN_PLAY_BETTING_STAGE_ACTIVE: "In play",
  DEAD_CANNOT_WIN: "Dead",
  WINNER: "Winner",
  LOSER: "Loser",
};

export const statusLabel = (status: HandOdds["handStatus"]): string => STATUS_LABELS[status];

/**
 * Why a hand takes no bet while betting is open, or null when it takes one: a hand with no chance
 * to win outright is priced at 0 and refused (decisions.md), even when it can still tie.
 */
export function noBetReason(panel: HandOdds): string | null {
  if (panel.odds > 0) return null;
  return panel.drawPercentage > 0 ? "Can only tie: takes no bets." : "Cannot win: takes no bets.";
}
