// One game as a table plays it, through the real domain code: the odds service's deal (hole
// panels), its priceHands (flop, turn and the river's WINNER statuses), and the table service's
// payout rule (payoutOf). A unit bet is placed on every hand the table would take a bet on at
// every betting stage, and settled at the river.

import { formatCard } from "@pokerodds/common/poker/cards";
import { dealHoleCards } from "@pokerodds/common/deck-derivation";
import { deal } from "@pokerodds/odds/domain/deal";
import type { HandOdds } from "@pokerodds/common/poker/pricing";
import { roundPercent } from "@pokerodds/common/poker/pricing";
import { priceHands } from "@pokerodds/common/poker/stage-odds";
import { boardSizeAt, type BettingStage } from "@pokerodds/common/poker/pricing";
import { payoutOf } from "@pokerodds/common/payout";
import { type Shares, engineShares, enumeratedShares } from "./shares.js";

export const STAGES = ["hole", "flop", "turn"] as const;
export type StageName = (typeof STAGES)[number];

/** A unit bet is 1.00, i.e. 100 cents, as a player would stake it. */
const UNIT_CENTS = 100;

export interface Bet {
  /** 0 hole, 1 flop, 2 turn: the index into STAGES and the API's bettingStage. */
  stage: number;
  hand: number;
  /** Displayed odds in tenths, as recorded with the bet. */
  oddsTenths: number;
  /** Exact probability that the hand wins alone. */
  win: number;
  /** Expected share of the pot, exact (see shares.ts): what the odds are priced from. */
  share: number;
  /** What the payout rule returns for the unit bet, exactly (before flooring to the cent). */
  returned: number;
  /** The fraction of a cent the house keeps when a split payout is floored to the cent. */
  centsKept: number;
}

export interface GameOutcome {
  /** The cards, as the API shows them: hole cards per hand and the five board cards. */
  hands: string[];
  board: string[];
  bets: Bet[];
  /** Hands holding the best hand at the river. */
  winners: number[];
  /** Each hand's exact share of the pot once the turn is shown: what a player sees before the river. */
  turnShares: number[];
  /**
   * Hands whose published win or draw percentage, or whose engine share, differs from the
   * independent enumeration (flop, turn).
   */
  mismatches: number;
}

export interface GameSettings {
  numberOfHands: number;
  targetRtp: number;
}

/**
 * 1 when the published panel or the engine's share (what the odds divide by) disagrees with the
 * independent enumeration, else 0. Shares are compared to 1e-12: the enumeration sums 1 / k in
 * floating point, the engine counts whole units.
 */
function mismatch(panel: HandOdds, engine: Shares, shares: Shares, i: number): number {
  const win = roundPercent((100 * shares.wins[i]!) / shares.boards);
  const draw = roundPercent((100 * shares.draws[i]!) / shares.boards);
  const share = Math.abs(engine.share[i]! - shares.share[i]!) <= 1e-12;
  return panel.winPercentage === win && panel.drawPercentage === draw && share ? 0 : 1;
}

/** Plays one game from a full deck: prices every stage, bets a unit on every bettable hand, settles. */
export function playGame(deck: readonly number[], settings: GameSettings): GameOutcome {
  const { numberOfHands, targetRtp } = settings;
  const dealt = deal(numberOfHands, targetRtp, deck);
  const { hands, rest } = dealHoleCards(deck, numberOfHands);
  const board = rest.slice(0, 5);
  let mismatches = 0;
  const priced = STAGES.map((_, stage) => boardSizeAt(stage as BettingStage)).map((size) => {
    if (size === 0) return { panels: dealt.handOdds, shares: engineShares(hands, []) };
    const shown = board.slice(0, size);
    const panels = priceHands(hands, shown, targetRtp);
    const shares = enumeratedShares(hands, shown);
    const engine = engineShares(hands, shown);
    panels.forEach((panel, i) => (mismatches += mismatch(panel, engine, shares, i)));
    return { panels, shares };
  });
  const river = priceHands(hands, board, targetRtp);
  const winners = river.filter((p) => p.handStatus === "WINNER").map((p) => p.handIndex);
  const bets = priced.flatMap(({ panels, shares }, stage) =>
    panels
      // The table takes a bet only on a hand that can win alone at non-zero odds (bets.ts).
      .filter((panel) => panel.winPercentage > 0 && panel.oddsTenths > 0)
      .map((panel): Bet => {
        const i = panel.handIndex;
        const payout = winners.includes(i) ? payoutOf(UNIT_CENTS, panel.oddsTenths, winners.length) : null;
        const exactCents = payout ? payout.payoutCents + payout.remainderNumerator / payout.denominator : 0;
        return {
          stage,
          hand: i,
          oddsTenths: panel.oddsTenths,
          win: shares.wins[i]! / shares.boards,
          share: shares.share[i]!,
          returned: exactCents / UNIT_CENTS,
          centsKept: payout ? payout.remainderNumerator / payout.denominator : 0,
        };
      }),
  );
  const turnShares = [...priced[2]!.shares.share];
  return { hands: dealt.hands, board: board.map(formatCard), bets, winners, turnShares, mismatches };
}
