// The outcome half of `npm run verify`: once the cards verify, who won and what each bet returned
// follow from them by the house's rules (docs/decisions.md), so a game export line or a river table
// state that claims otherwise does not verify. Winners come from the shared poker math's evaluator
// and river equities (common/src/poker), as the table's river panels do; a payout is the table's own rule (payoutOf:
// floor(stake cents x odds tenths / (10 x tied winners))).
import { parseCard, parseHand } from "@pokerodds/common/poker/cards";
import { describeHand } from "@pokerodds/odds/domain/describe";
import { evaluateCards } from "@pokerodds/common/poker/evaluator";
import { riverEquities } from "@pokerodds/common/poker/pricing";
import { payoutOf } from "@pokerodds/common/payout";
import { isTargetRtp } from "@pokerodds/common/limits";
import { isBettingStage, pricesProblem, type PricedBet } from "./verify-prices.js";
import { timesProblem } from "./verify-times.js";

/**
 * Not checked (no outcome shown); else the first problem, if any, the target RTP the game names and
 * its prices were checked at (`namedRtp`, unless that was the problem), and whether it was a table
 * state (`state`: its prices and bets' odds checked, its bets' returns, which it does not show, not).
 */
type OutcomeCheck = { checked: false } | { checked: true; problem: string | null; namedRtp?: number; state?: true };

type Fields = Record<string, unknown>;

const RIVER = -1;

/** Hand indexes tied for the best seven cards, in hand order: a tied winner is a WINNER. */
function winnersOf(hands: readonly string[], board: readonly string[]): number[] {
  const boardCards = board.map(parseCard);
  const values = hands.map((hand) => evaluateCards([...parseHand(hand), ...boardCards]));
  return riverEquities(values).flatMap((e, h) => (e.share.numerator > 0 ? [h] : []));
}

function winnersText(winners: readonly number[], hands: readonly string[], board: readonly string[]): string {
  const named = winners.map((h) => {
    const cards = [...parseHand(hands[h]!), ...board.map(parseCard)];
    return `hand ${h} (${hands[h]}: ${describeHand(cards).long})`;
  });
  return winners.length === 1 ? `${named[0]} wins` : `${named.join(" and ")} tie`;
}

/** Integer cents of an amount shown in units with at most 2 decimals, or undefined. */
function centsOf(value: unknown, signed = false): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  const cents = Math.round(value * 100);
  const exact = cents / 100 === value && Number.isSafeInteger(cents);
  return exact && (signed || cents >= 0) ? cents : undefined;
}

/** Integer tenths of odds shown to one decimal, or undefined. */
function tenthsOf(value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  const tenths = Math.round(value * 10);
  return tenths / 10 === value && Number.isSafeInteger(tenths) && tenths >= 0 ? tenths : undefined;
}

const units = (cents: number): string => `${cents < 0 ? "-" : ""}${(Math.abs(cents) / 100).toFixed(2)}`;

/** The river panels (bettingStage -1) of the JSON's handOdds; none when it shows no river. */
function riverPanelsOf(record: Fields): unknown[] {
  const odds = record.handOdds;
  if (!Array.isArray(odds)) return [];
  return odds.filter((p: unknown) => (p as Fields | null)?.bettingStage === RIVER);
}

/** Each hand once at the river, WINNER when the cards make it win or tie, LOSER otherwise. */
function panelsProblem(panels: readonly unknown[], winners: readonly number[], n: number): string | null {
  const status = new Map<number, unknown>();
  for (const panel of panels) {
    const { handIndex, handStatus } = (panel ?? {}) as Fields;
    if (typeof handIndex !== "number" || !Number.isInteger(handIndex) || handIndex < 0 || handIndex >= n) {
      return `a river panel names hand ${String(handIndex)}, but the game has hands 0 to ${n - 1}`;
    }
    if (status.has(handIndex)) return `the river panels show hand ${handIndex} twice`;
    status.set(handIndex, handStatus);
  }
  for (let h = 0; h < n; h++) {
    const expected = winners.includes(h) ? "WINNER" : "LOSER";
    if (!status.has(h)) return `the river panels do not show hand ${h}`;
    if (status.get(h) !== expected) {
      return `the river shows hand ${h} as ${String(status.get(h))}, but the cards make it a ${expected}`;
    }
  }
  return null;
}

/**
 * A river state: its river panels' statuses against the winners, then every stage's panels and each
 * bet's odds at the target RTP, as a record's. Its bets show no return: those a player checks from
 * the game's record.
 */
function riverStateProblem(
  record: Fields,
  panels: readonly unknown[],
  cards: { hands: readonly string[]; board: readonly string[]; targetRtp: number },
): string | null {
  const { hands, board, targetRtp } = cards;
  const winners = winnersOf(hands, board);
  const problem = panelsProblem(panels, winners, hands.length);
  if (problem !== null) return `${problem}: ${winnersText(winners, hands, board)}`;
  if (!Array.isArray(record.bets)) return "bets must be a list";
  const bets: PricedBet[] = [];
  for (const [i, value] of record.bets.entries()) {
    const bet = pricedBetOf(value, i, hands.length);
    if (typeof bet === "string") return bet;
    bets.push(bet);
  }
  return pricesProblem(record, bets, hands, board, targetRtp);
}

/** A bet of the line, its money in cents and odds in tenths; a string says what is malformed. */
interface Bet extends PricedBet {
  stakeCents: number;
  returnedCents: number;
  paidTo: unknown;
}

function betOf(value: unknown, i: number, n: number): Bet | string {
  const priced = pricedBetOf(value, i, n);
  if (typeof priced === "string") return priced;
  const bet = value as Fields;
  const stakeCents = centsOf(bet.betAmount);
  const returnedCents = centsOf(bet.returned);
  if (stakeCents === undefined || stakeCents === 0) return `bets[${i}].betAmount must be an amount above 0`;
  if (returnedCents === undefined) return `bets[${i}].returned must be an amount with at most 2 decimals`;
  return { ...priced, stakeCents, returnedCents, paidTo: bet.paidTo };
}

/** A bet's hand, stage and odds, all a table state shows of it besides its stake; a string says what is malformed. */
function pricedBetOf(value: unknown, i: number, n: number): PricedBet | string {
  const bet = (typeof value === "object" && value !== null ? value : {}) as Fields;
  const { handIndex, bettingStage } = bet;
  const oddsTenths = tenthsOf(bet.recordedOdds);
  if (typeof handIndex !== "number" || !Number.isInteger(handIndex) || handIndex < 0 || handIndex >= n) {
    return `bets[${i}] names hand ${String(handIndex)}, but the game has hands 0 to ${n - 1}`;
  }
  if (!isBettingStage(bettingStage)) {
    return `bets[${i}].bettingStage is ${JSON.stringify(bettingStage) ?? "absent"}, but a bet is taken at stage 0, 1 or 2`;
  }
  if (oddsTenths === undefined) return `bets[${i}].recordedOdds must be odds with at most 1 decimal`;
  return { handIndex, bettingStage, oddsTenths };
}

/** What a bet returns by the rulings: its stake on a void; on a settlement its dead-heat payout or 0. */
function dueCents(bet: Bet, winners: readonly number[] | null): number {
  if (winners === null) return bet.stakeCents;
  if (!winners.includes(bet.handIndex)) return 0;
  return payoutOf(bet.stakeCents, bet.oddsTenths, winners.length).payoutCents;
}

/** paidTo by the rulings: NONE when nothing came back; a void's refund goes to the account. */
function paidToProblem(bet: Bet, i: number, isVoid: boolean): string | null {
  const allowed = bet.returnedCents === 0 ? ["NONE"] : isVoid ? ["ACCOUNT"] : ["SEAT", "ACCOUNT"];
  if (allowed.includes(bet.paidTo as string)) return null;
  return `bets[${i}].paidTo is ${String(bet.paidTo)}, but a bet that returned ${units(bet.returnedCents)} is paid to ${allowed.join(" or ")}`;
}

/** Every bet's returned and paidTo against the rules (who won in `why`); the bets, or the first problem. */
function betsOf(record: Fields, winners: readonly number[] | null, n: number, why: string): Bet[] | string {
  if (!Array.isArray(record.bets)) return "bets must be a list";
  const bets: Bet[] = [];
  for (const [i, value] of record.bets.entries()) {
    const bet = betOf(value, i, n);
    if (typeof bet === "string") return bet;
    const due = dueCents(bet, winners);
    if (bet.returnedCents !== due) {
      const terms = `hand ${bet.handIndex}, ${units(bet.stakeCents)} at ${bet.oddsTenths / 10}`;
      const rule = winners === null ? "a void refunds the stake," : `the rules pay (${why})`;
      return `bets[${i}] (${terms}) returned ${units(bet.returnedCents)}, but ${rule} ${units(due)}`;
    }
    const problem = paidToProblem(bet, i, winners === null);
    if (problem !== null) return problem;
    bets.push(bet);
  }
  return bets;
}

/** stakes, payouts, refunds and houseResult against the bets, to the cent. */
function totalsProblem(record: Fields, bets: readonly Bet[], isVoid: boolean): string | null {
  const stakes = bets.reduce((sum, b) => sum + b.stakeCents, 0);
  const returned = bets.reduce((sum, b) => sum + b.returnedCents, 0);
  const payouts = isVoid ? 0 : returned;
  const refunds = isVoid ? returned : 0;
  const expected: [string, number][] = [
    ["stakes", stakes],
    ["payouts", payouts],
    ["refunds", refunds],
    ["houseResult", stakes - payouts - refunds],
  ];
  for (const [field, cents] of expected) {
    const shown = centsOf(record[field], field === "houseResult");
    if (shown === cents) continue;
    const what = shown === undefined ? `not an amount (${JSON.stringify(record[field]) ?? "absent"})` : units(shown);
    return `${field} is ${what}, but the bets make it ${units(cents)}`;
  }
  return null;
}

/** What rounding the winning bets' payouts down left with the house, exactly: numerator / denominator cents. */
function remainderOf(bets: readonly Bet[], winners: readonly number[] | null) {
  if (winners === null) return { numerator: 0, denominator: 1 };
  const k = winners.length;
  const left = (b: Bet) => payoutOf(b.stakeCents, b.oddsTenths, k).remainderNumerator;
  const numerator = bets.filter((b) => winners.includes(b.handIndex)).reduce((sum, b) => sum + left(b), 0);
  return { numerator, denominator: 10 * k };
}

/** roundingRemainderCents, where shown, against remainderOf. */
function remainderProblem(record: Fields, bets: readonly Bet[], winners: readonly number[] | null): string | null {
  if (!("roundingRemainderCents" in record)) return null;
  const expected = remainderOf(bets, winners);
  const shown = record.roundingRemainderCents as Fields | null;
  if (shown?.numerator === expected.numerator && shown.denominator === expected.denominator) return null;
  return (
    `roundingRemainderCents is ${JSON.stringify(shown)}, but rounding the payouts down ` +
    `leaves ${expected.numerator}/${expected.denominator} of a cent`
  );
}

/** The same hand indexes in any order, each once. */
function sameHands(shown: unknown, expected: readonly number[]): boolean {
  if (!Array.isArray(shown) || shown.length !== expected.length) return false;
  const sorted = [...(shown as unknown[])].sort((x, y) => Number(x) - Number(y));
  return sorted.every((v, i) => v === expected[i]);
}

/** The record's numberOfHands and tableId against its hands and game id (T<tableId>-<n>), where shown. */
function identityProblem(record: Fields, hands: readonly string[]): string | null {
  if ("numberOfHands" in record && record.numberOfHands !== hands.length) {
    return `numberOfHands is ${JSON.stringify(record.numberOfHands)}, but the game has ${hands.length} hands`;
  }
  if ("tableId" in record && !String(record.gameId).startsWith(`T${String(record.tableId)}-`)) {
    return `tableId is ${JSON.stringify(record.tableId)}, but game ${String(record.gameId)} is another table's`;
  }
  return null;
}

/** The cards an export line's game shows for its outcome: a settled game all five, a void one fewer. */
function boardProblem(isVoid: boolean, board: readonly string[]): string | null {
  if (isVoid && board.length === 5)
    return "outcome is VOID, but the board shows the river: a game is voided only before it";
  if (!isVoid && board.length < 5)
    return `outcome is SETTLED, but the board shows ${board.length} cards, not the river's 5`;
  return null;
}

/** An export line's winners, bets, totals and prices; winners null for a void game. */
function lineProblem(
  record: Fields,
  winners: readonly number[] | null,
  cards: { hands: readonly string[]; board: readonly string[]; targetRtp: number },
  why: string,
): string | null {
  const { hands, board, targetRtp } = cards;
  const n = hands.length;
  const shown = JSON.stringify(record.winningHands) ?? "absent";
  if (winners === null && !sameHands(record.winningHands, [])) {
    return `winningHands is ${shown}, but a void game has no winners`;
  }
  if (winners !== null && !sameHands(record.winningHands, winners)) {
    return `winningHands is ${shown}, but the cards make it ${JSON.stringify(winners)}: ${why}`;
  }
  const bets = betsOf(record, winners, n, why);
  if (typeof bets === "string") return bets;
  return (
    totalsProblem(record, bets, winners === null) ??
    remainderProblem(record, bets, winners) ??
    identityProblem(record, hands) ??
    pricesProblem(record, bets, hands, board, targetRtp) ??
    timesProblem(record, winners === null, board)
  );
}

/** Fields only a game record has: any of them, or a bet's return, makes the JSON one, checked whole. */
const RECORD_FIELDS = [
  ...["outcome", "winningHands", "stakes", "payouts", "refunds", "houseResult", "roundingRemainderCents"],
  ...["cursor", "dealtAt", "firstBetAt", "finishedAt"],
];
const BET_RECORD_FIELDS = ["returned", "paidTo"];

function isGameRecord(record: Fields): boolean {
  const bets: unknown[] = Array.isArray(record.bets) ? record.bets : [];
  const betRecorded = (bet: unknown) =>
    typeof bet === "object" && bet !== null && BET_RECORD_FIELDS.some((field) => field in bet);
  return RECORD_FIELDS.some((field) => field in record) || bets.some(betRecorded);
}

/** A game record's outcome, board, river panels, winners, bets, totals and prices. */
function recordProblem(record: Fields, hands: readonly string[], board: readonly string[], targetRtp: number) {
  if (record.outcome !== "SETTLED" && record.outcome !== "VOID") {
    return `outcome is ${JSON.stringify(record.outcome) ?? "absent"}, but a game ends SETTLED or VOID`;
  }
  const isVoid = record.outcome === "VOID";
  const panels = riverPanelsOf(record);
  const shape = boardProblem(isVoid, board);
  if (shape !== null) return shape;
  if (isVoid !== (panels.length === 0)) {
    return isVoid ? "a void game shows river panels" : "a settled game shows no river panels";
  }
  const winners = isVoid ? null : winnersOf(hands, board);
  const why = winners === null ? "" : winnersText(winners, hands, board);
  const panelProblem = winners === null ? null : panelsProblem(panels, winners, hands.length);
  if (panelProblem !== null) return `${panelProblem}: ${why}`;
  return lineProblem(record, winners, { hands, board, targetRtp }, why);
}

/**
 * The target RTP a game's prices are checked at: the one its JSON names. A problem (a string) when it
 * names none, one that is no RTP, or one other than `asked` (--rtp).
 */
function rtpToCheck(record: Fields, asked: number | null): number | string {
  const named = record.targetRtp;
  if (!isTargetRtp(named)) {
    return `targetRtp is ${JSON.stringify(named) ?? "absent"}, but a target RTP is a number between 0 and 1`;
  }
  if (asked !== null && asked !== named) return `the game was priced at a target RTP of ${named}, not ${asked}`;
  return named;
}

/**
 * The outcome a verified game's JSON shows, against its cards (hands and board verified already). A
 * game record (isGameRecord) is checked whole, its prices at its target RTP (rtpToCheck); a table
 * state at the river, its winners, prices and bets' odds; anything else (a deal, a bulk game, a state before the
 * river) shows no outcome.
 */
export function checkOutcome(
  record: Fields,
  hands: readonly string[],
  board: readonly string[],
  askedRtp: number | null = null,
): OutcomeCheck {
  const isRecord = isGameRecord(record);
  const panels = riverPanelsOf(record);
  if (!isRecord && (board.length < 5 || panels.length === 0)) return { checked: false };
  const targetRtp = rtpToCheck(record, askedRtp);
  if (typeof targetRtp === "string") return { checked: true, problem: targetRtp };
  const problem = isRecord
    ? recordProblem(record, hands, board, targetRtp)
    : riverStateProblem(record, panels, { hands, board, targetRtp });
  return { checked: true, problem, namedRtp: targetRtp, ...(isRecord ? {} : { state: true as const }) };
}

const NEXT_CARDS = ["the flop", "the turn", "the river"];

/**
 * A void game whose last stage's betting had closed: the cards were about to be shown, and only the
 * last player's leave, or a reveal that never came, stopped them. A house that stalled the reveals it
 * would lose until the players left would leave such voids, so the verdict says what the seed's cards
 * (`dealt`, all five, of which the record showed `shown`) would have made of the bets. Null for any
 * other game; call it once the record verified.
 */
export function voidedAfterClose(
  record: Fields,
  hands: readonly string[],
  { shown, dealt }: { shown: readonly string[]; dealt: readonly string[] },
): string | null {
  if (record.outcome !== "VOID") return null;
  // A verified record lists every stage its game reached, the hole's at least.
  const stages = record.stages as Fields[];
  const last = stages.length - 1;
  if (stages[last]!.closedAt === null) return null;
  const winners = winnersOf(hands, dealt);
  const bets = (Array.isArray(record.bets) ? record.bets : []).map((bet, i) => betOf(bet, i, hands.length) as Bet);
  const staked = bets.reduce((sum, b) => sum + b.stakeCents, 0);
  const due = bets.reduce((sum, b) => sum + dueCents(b, winners), 0);
  return (
    `voided after betting closed, before ${NEXT_CARDS[last]} was shown: the seed deals ` +
    `${dealt.slice(shown.length).join(" ")} next, on which ${winnersText(winners, hands, dealt)}; ` +
    `its bets would have returned ${units(due)} against the ${units(staked)} refunded`
  );
}
