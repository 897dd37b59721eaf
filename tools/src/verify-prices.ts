// The prices half of `npm run verify`'s outcome check, for a game record or a river table state: every stage's panels (the
// three betting stages' and the river's) are the house's own prices of the cards seen then (common/src/poker, which the odds and the table
// service both run: win and draw percentages, status and odds at the target RTP), and every bet was
// taken at its stage's odds for its hand. So a record of a bet paid at odds nobody was shown, or of
// a panel priced off the cards, does not verify.
import { parseCard, parseHand } from "@pokerodds/common/poker/cards";
import { boardSizeAt, Stage, type HandOdds } from "@pokerodds/common/poker/pricing";
import { priceHands } from "@pokerodds/common/poker/stage-odds";

type Fields = Record<string, unknown>;

/** The betting stages, each with the board cards seen while it is open. */
const BETTING_STAGES = [
  { stage: Stage.HOLE, name: "hole", cards: boardSizeAt(Stage.HOLE) },
  { stage: Stage.FLOP, name: "flop", cards: boardSizeAt(Stage.FLOP) },
  { stage: Stage.TURN, name: "turn", cards: boardSizeAt(Stage.TURN) },
] as const;

/** Every stage that shows panels: the betting stages, then the river. */
const PANEL_STAGES = [
  ...BETTING_STAGES,
  { stage: Stage.RIVER, name: "river", cards: boardSizeAt(Stage.RIVER) },
] as const;

/** What a bet of the record says it was taken at (verify-outcome.ts has read its money already). */
export interface PricedBet {
  handIndex: number;
  bettingStage: number;
  oddsTenths: number;
}

/** A stage a bet can be taken at: the number itself, so a string "0" is not the hole. */
export const isBettingStage = (value: unknown): value is number => BETTING_STAGES.some(({ stage }) => stage === value);

/** A shown panel against the house's own, field by field; the first difference. */
function panelProblem(shown: Fields, truth: HandOdds, where: string): string | null {
  const fields: [string, unknown, unknown][] = [
    ["handStatus", shown.handStatus, truth.handStatus],
    ["winPercentage", shown.winPercentage, truth.winPercentage],
    ["drawPercentage", shown.drawPercentage, truth.drawPercentage],
    ["odds", shown.odds, truth.oddsTenths / 10],
  ];
  for (const [field, value, expected] of fields) {
    if (!Object.is(value, expected)) {
      return `${where} shows ${field} ${JSON.stringify(value) ?? "absent"}, but the cards make it ${String(expected)}`;
    }
  }
  return null;
}

/** One stage's shown panels (hand by hand, each once) against the house's prices of the cards seen then. */
function stageProblem(shown: readonly Fields[], truth: readonly HandOdds[], name: string): string | null {
  if (shown.length !== truth.length)
    return `the ${name} shows ${shown.length} panels, but the game has ${truth.length} hands`;
  for (const panel of truth) {
    const matching = shown.filter((p) => p.handIndex === panel.handIndex);
    if (matching.length !== 1) return `the ${name} shows hand ${panel.handIndex} ${matching.length} times`;
    const problem = panelProblem(matching[0]!, panel, `the ${name} panel of hand ${panel.handIndex}`);
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * A record's panels and its bets' odds against the cards, priced at `targetRtp`. A settled game
 * shows every stage and the river; a void one every stage it reached, which its board shows.
 */
export function pricesProblem(
  record: Fields,
  bets: readonly PricedBet[],
  hands: readonly string[],
  board: readonly string[],
  targetRtp: number,
): string | null {
  const panels = (Array.isArray(record.handOdds) ? record.handOdds : []) as Fields[];
  const stray = panels.find((p) => !PANEL_STAGES.some(({ stage }) => stage === p?.bettingStage));
  if (stray !== undefined)
    return `the record shows a panel at bettingStage ${JSON.stringify(stray?.bettingStage)}, no stage`;
  const oddsOf = new Map<string, number>();
  // Every stage the board shows was reached and priced, a void game's too (it never shows the river).
  for (const { stage, name, cards } of PANEL_STAGES) {
    const shown = panels.filter((p) => p.bettingStage === stage);
    if (board.length < cards) {
      if (shown.length > 0) return `the record shows the ${name}'s odds, but not its cards`;
      continue;
    }
    const truth = priceHands(hands.map(parseHand), board.slice(0, cards).map(parseCard), targetRtp);
    const problem = stageProblem(shown, truth, name);
    if (problem !== null) return `${problem} (at a target RTP of ${targetRtp})`;
    for (const panel of truth) oddsOf.set(`${stage}:${panel.handIndex}`, panel.oddsTenths);
  }
  for (const [i, bet] of bets.entries()) {
    const offered = oddsOf.get(`${bet.bettingStage}:${bet.handIndex}`);
    if (offered === undefined || offered === 0) {
      return `bets[${i}] was taken on hand ${bet.handIndex} at stage ${bet.bettingStage}, where no odds were offered on it`;
    }
    if (bet.oddsTenths !== offered) {
      return `bets[${i}] records odds ${bet.oddsTenths / 10}, but its stage offered hand ${bet.handIndex} at ${offered / 10}`;
    }
  }
  return null;
}
