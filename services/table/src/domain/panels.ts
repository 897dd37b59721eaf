// Odds panels arrive from the odds service. Payouts depend on their statuses and odds, so the table
// checks their shape before storing them: a malformed answer fails the advance (an internal
// fault), it is never stored. That they are the true prices of the cards is checked before the
// advance is applied (true-prices.ts, called by advance.ts's fetchInput).

import { INT32_MAX } from "@pokerodds/common/limits";
import type { BettingStage, HandOdds, HandStatus } from "./types.js";
import { UntrueOddsAnswerError } from "./untrue-odds-answer.js";

const IN_PLAY: readonly HandStatus[] = ["IN_PLAY_FAVOURITE", "IN_PLAY_BETTING_STAGE_ACTIVE", "DEAD_CANNOT_WIN"];
const AT_RIVER: readonly HandStatus[] = ["WINNER", "LOSER"];

const isPercent = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x >= 0 && x <= 100;

/**
 * Throws UntrueOddsAnswerError unless panels are one per hand, in hand order, for this stage, with
 * percentages in 0..100, integer odds that are 0 exactly when winPercentage is 0, statuses of that
 * stage, and at the river at least one WINNER. Returns copies, so the snapshot owns its panels.
 */
export function checkedPanels(panels: readonly HandOdds[], numberOfHands: number, stage: BettingStage): HandOdds[] {
  if (!Array.isArray(panels) || panels.length !== numberOfHands) {
    throw new UntrueOddsAnswerError(`expected ${numberOfHands} odds panels for stage ${stage}`);
  }
  const statuses = stage === -1 ? AT_RIVER : IN_PLAY;
  const copies = panels.map((p, i): HandOdds => {
    const ok =
      p.handIndex === i &&
      p.bettingStage === stage &&
      statuses.includes(p.handStatus) &&
      isPercent(p.winPercentage) &&
      isPercent(p.drawPercentage) &&
      Number.isInteger(p.oddsTenths) &&
      p.oddsTenths >= 0 &&
      p.oddsTenths <= INT32_MAX &&
      (p.oddsTenths === 0) === (p.winPercentage === 0);
    if (!ok)
      // Its fields are not named: they are the prices of cards still hidden from the players.
      throw new UntrueOddsAnswerError(`invalid odds panel for hand ${i} at stage ${stage}`);
    return {
      handIndex: p.handIndex,
      bettingStage: p.bettingStage,
      handStatus: p.handStatus,
      winPercentage: p.winPercentage,
      drawPercentage: p.drawPercentage,
      oddsTenths: p.oddsTenths,
    };
  });
  if (stage === -1 && !copies.some((p) => p.handStatus === "WINNER")) {
    throw new UntrueOddsAnswerError("river panels name no winner");
  }
  return copies;
}
