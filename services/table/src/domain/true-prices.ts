// The odds service's panels are what the table pays bets at: the odds a bet records and, at the
// river, which hands win. The table does not take them on trust (a faulty, outdated or impersonated
// odds service could price a hand far above its chances, or name a losing hand the winner, and pay
// a colluding player from the house). It prices the same cards itself, with the poker math both
// services share, and refuses an answer that differs in any field. An honest odds service runs the
// same code on the same cards, so it agrees to the last bit. The cards are the table's own: it deals
// them from the game's seeds (cards.ts) and sends the odds service only what it has to price.

import { parseCard, parseHand } from "@pokerodds/common/poker/cards";
import { priceHands } from "@pokerodds/common/poker/stage-odds";
import type { HandOdds } from "./types.js";
import { UntrueOddsAnswerError } from "./untrue-odds-answer.js";

const FIELDS = ["handIndex", "bettingStage", "handStatus", "winPercentage", "drawPercentage", "oddsTenths"] as const;

/**
 * Throws UntrueOddsAnswerError unless `panels` are exactly the table's own prices of `hands` on
 * `board` at `targetRtp`, also for cards the poker math refuses: an internal fault, never the caller's.
 * Its message names the field, the hand and the number of board cards, never a card or a price: it is
 * logged while the cards being revealed are still hidden from the players.
 */
export function assertTruePrices(
  panels: readonly HandOdds[],
  hands: readonly string[],
  board: readonly string[],
  targetRtp: number,
): void {
  let truth: HandOdds[];
  try {
    truth = priceHands(hands.map(parseHand), board.map(parseCard), targetRtp);
  } catch (error) {
    throw new UntrueOddsAnswerError(
      `the odds service priced cards the table cannot, with ${board.length} board cards: ${(error as Error).name}`,
    );
  }
  const differs = (i: number) => FIELDS.find((field) => !Object.is(panels[i]?.[field], truth[i]![field]));
  for (let i = 0; i < Math.max(truth.length, panels.length); i++) {
    const field = i < truth.length ? differs(i) : "handIndex";
    if (field !== undefined) {
      throw new UntrueOddsAnswerError(
        `the odds service's ${field} for hand ${i}, with ${board.length} board cards, is not the table's own`,
      );
    }
  }
}
