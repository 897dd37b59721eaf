// The game state machine, in two phases because odds come from the odds service:
//   advancePlan(snapshot, caller)          -> what the adapter must fetch (a deal, or panels for a board)
//   applyAdvance(snapshot, plan, input, now) -> the next snapshot
// SETUP or START -> HOLE (deal, stage 0) -> FLOP (3 cards, 1) -> TURN (1 card, 2) -> RIVER (1 card,
// settle, -1) -> SETUP (table cleared, next game id) -> ...

import { ConflictError, ForbiddenError } from "@pokerodds/common/errors";
import { isTargetRtp } from "@pokerodds/common/limits";
import { dealtCards, dealtFairness } from "./cards.js";
import { checkedPanels } from "./panels.js";
import { settleGame } from "./payouts.js";
import { sumCents } from "./money.js";
import { bettingStageOf, findSeat, freshGame, sealNext } from "./snapshot.js";
import { newDeal, requireDeal, withStageClosed, withStageOpened } from "./stage-times.js";
import type { GameState, HandOdds, TableSnapshot } from "./types.js";

export interface Caller {
  playerId: string;
  isAdmin: boolean;
}

interface PlanBase {
  caller: Caller;
  /** The plan holds only for this game in this state; applyAdvance refuses it otherwise. */
  gameId: string;
  from: GameState;
  to: GameState;
}

type DealPlan = PlanBase & {
  kind: "DEAL";
  numberOfHands: number;
  serverSeed: string | null;
  clientSeed: string | null;
};

export type AdvancePlan =
  /**
   * Deal numberOfHands from the seed the game committed to (null at a table nothing was stored at:
   * the adapter draws one) mixed with the dealing player's client seed, if any (dealtCards), and ask
   * the odds service's Equity(hands, []) for the pre-flop panels.
   */
  | DealPlan
  /**
   * Reveal these cards from the front of the deck; ask the odds service's Equity(hands, board) at the
   * game's target RTP.
   */
  | (PlanBase & {
      kind: "REVEAL";
      hands: readonly string[];
      reveal: readonly string[];
      board: readonly string[];
      targetRtp: number;
    })
  /** Clear the table: nothing to fetch. */
  | (PlanBase & { kind: "CLEAR" });

export type AdvanceInput =
  /**
   * The seed dealt from (the plan's, or the one the adapter drew), the target RTP the game is priced
   * at (the table's setting), and the pre-flop panels at it.
   */
  | { kind: "DEAL"; serverSeed: string; targetRtp: number; handOdds: readonly HandOdds[] }
  | { kind: "REVEAL"; handOdds: readonly HandOdds[] }
  | { kind: "CLEAR" };

/** The state an advance is asked to move the game on from: the one its caller saw. */
export interface AdvanceFrom {
  gameId: string;
  gameState: GameState;
}

/**
 * SETUP and START both wait for the deal, and the last leave turns SETUP into START within the same
 * game: for an advance they are one place, so a deal seen at SETUP and made from START is that deal.
 */
const placeOf = (state: GameState): GameState => (state === "STATUS_SETUP" ? "STATUS_START" : state);

/** A game's places in the order its advances reach them. */
const PLACES: readonly GameState[] = ["STATUS_START", "STATUS_HOLE", "STATUS_FLOP", "STATUS_TURN", "STATUS_RIVER"];

/**
 * Where the table is against the state an advance names: at it, past it or before it in the same
 * game, or in another game. Within one game only an advance moves the state on (a void and a clear
 * start a new game), so "past" means the advance from `from` was made.
 */
export type Place = "at" | "past" | "before" | "otherGame";

export function placeAgainst(snapshot: TableSnapshot, from: AdvanceFrom): Place {
  if (snapshot.gameId !== from.gameId) return "otherGame";
  const order = PLACES.indexOf(placeOf(snapshot.gameState)) - PLACES.indexOf(placeOf(from.gameState));
  return order === 0 ? "at" : order > 0 ? "past" : "before";
}

/** The key of the one advance ever stored from a game's place: two planned from it collapse into one. */
export const advanceKey = (tableId: number, from: AdvanceFrom): string =>
  `advance:${tableId}:${from.gameId}:${placeOf(from.gameState)}`;

const NEXT_STATE: Record<GameState, GameState> = {
  STATUS_SETUP: "STATUS_HOLE",
  STATUS_START: "STATUS_HOLE",
  STATUS_HOLE: "STATUS_FLOP",
  STATUS_FLOP: "STATUS_TURN",
  STATUS_TURN: "STATUS_RIVER",
  STATUS_RIVER: "STATUS_SETUP",
};

/** Community cards each step reveals from the front of the deck. */
const REVEALED: Partial<Record<GameState, number>> = { STATUS_FLOP: 3, STATUS_TURN: 1, STATUS_RIVER: 1 };

export const ADMIN_CLIENT_SEED = "an admin deals without a client seed: the client seed is a player's own";

function authorize(snapshot: TableSnapshot, caller: Caller): void {
  if (!caller.isAdmin && !findSeat(snapshot, caller.playerId)) {
    throw new ForbiddenError("only a player seated at this table, or an admin, may advance");
  }
}

/**
 * What the adapter must fetch to advance; a deal takes the caller's client seed (any other advance
 * ignores it). ForbiddenError unless the caller is seated or an admin, and for an admin's client seed.
 */
export function advancePlan(snapshot: TableSnapshot, caller: Caller, clientSeed: string | null = null): AdvancePlan {
  authorize(snapshot, caller);
  const base = { caller, gameId: snapshot.gameId, from: snapshot.gameState, to: NEXT_STATE[snapshot.gameState] };
  const count = REVEALED[base.to];
  if (base.to === "STATUS_HOLE") {
    // An admin is the house, whoever it acts for, and the house knows the seed it committed to: with a
    // client seed of its own it could try seeds until the deck suited it. A client seed is a player's.
    if (clientSeed !== null && caller.isAdmin) throw new ForbiddenError(ADMIN_CLIENT_SEED);
    const { numberOfHands } = snapshot.config;
    return { ...base, kind: "DEAL", numberOfHands, serverSeed: snapshot.fairness?.serverSeed ?? null, clientSeed };
  }
  if (count === undefined) return { ...base, kind: "CLEAR" };
  const reveal = snapshot.deck.slice(0, count);
  const board = [...snapshot.board, ...reveal];
  return {
    ...base,
    kind: "REVEAL",
    hands: snapshot.hands ?? [],
    reveal,
    board,
    targetRtp: requireDeal(snapshot).targetRtp,
  };
}

/** The key under which an advance closes its stage's betting (closeBetting), before its reveal. */
export const closeKey = (tableId: number, from: AdvanceFrom): string => `${advanceKey(tableId, from)}:close`;

/**
 * The table is still where the plan found it (ConflictError when it moved on), and the caller may
 * still advance it (ForbiddenError), except for a reveal whose stage's betting is closed already: that
 * advance has begun, and one whose player left meanwhile is finished, not left half done.
 */
function requirePlanHolds(snapshot: TableSnapshot, plan: AdvancePlan): void {
  if (plan.gameId !== snapshot.gameId || plan.from !== snapshot.gameState) {
    throw new ConflictError("the table moved on since this advance was planned");
  }
  if (plan.kind !== "REVEAL" || !snapshot.bettingClosed) authorize(snapshot, plan.caller);
}

/**
 * The snapshot with the open stage's betting closed, for a reveal: the next cards may then go to the
 * odds service, as no bet can be placed on what they show. Null when it is closed already or the plan
 * reveals nothing; ConflictError when the table has moved on since the plan (plan again).
 */
export function closeBetting(snapshot: TableSnapshot, plan: AdvancePlan, now: number): TableSnapshot | null {
  requirePlanHolds(snapshot, plan);
  if (plan.kind !== "REVEAL" || snapshot.bettingClosed) return null;
  return sealNext(snapshot, { bettingClosed: true, deal: withStageClosed(snapshot, now) }, now);
}

/**
 * Applies a plan with what the odds service answered. ConflictError when the table has moved on
 * since the plan was made (plan again); RangeError when the odds input does not fit the plan.
 */
export function applyAdvance(
  snapshot: TableSnapshot,
  plan: AdvancePlan,
  input: AdvanceInput,
  now: number,
): TableSnapshot {
  requirePlanHolds(snapshot, plan);
  const n = snapshot.config.numberOfHands;
  if (plan.kind === "DEAL" && input.kind === "DEAL") {
    // A table nothing was stored at got its commitment (a sit) since the plan: deal from that one.
    if ((snapshot.fairness?.serverSeed ?? null) !== plan.serverSeed) {
      throw new ConflictError("the game committed to its deck since this advance was planned");
    }
    if (!isTargetRtp(input.targetRtp)) throw new RangeError("a target RTP is between 0 and 1");
    const fairness = dealtFairness(input.serverSeed, snapshot.fairness, plan.clientSeed);
    const { hands, remainingDeck } = dealtCards(plan, fairness.serverSeed);
    return sealNext(
      snapshot,
      {
        gameState: "STATUS_HOLE",
        hands,
        board: [],
        deck: remainingDeck,
        fairness,
        handOdds: checkedPanels(input.handOdds, n, 0),
        deal: newDeal(input.targetRtp, plan.caller.playerId, now),
      },
      now,
    );
  }
  if (plan.kind === "REVEAL" && input.kind === "REVEAL") {
    if (!snapshot.bettingClosed) throw new RangeError("a reveal comes after its stage's betting is closed");
    const count = REVEALED[plan.to]!;
    if (snapshot.deck.length < count) throw new RangeError("the deck has run out");
    const stage = bettingStageOf(plan.to);
    const panels = checkedPanels(input.handOdds, n, stage);
    const revealed = {
      gameState: plan.to,
      board: [...snapshot.board, ...snapshot.deck.slice(0, count)],
      deck: snapshot.deck.slice(count),
      handOdds: [...snapshot.handOdds, ...panels],
      bettingClosed: false,
      deal: withStageOpened(snapshot, stage, now),
    };
    if (plan.to !== "STATUS_RIVER") return sealNext(snapshot, revealed, now);
    const { seats, credits, record } = settleGame(snapshot, panels, now);
    return sealNext(
      snapshot,
      {
        ...revealed,
        seats,
        outbox: [...snapshot.outbox, ...credits],
        totals: {
          ...snapshot.totals,
          houseResultCents: sumCents([snapshot.totals.houseResultCents, record.houseResultCents]),
        },
        finishedGame: record,
      },
      now,
    );
  }
  if (plan.kind === "CLEAR" && input.kind === "CLEAR")
    return sealNext(snapshot, freshGame(snapshot, "STATUS_SETUP"), now);
  throw new RangeError(`a ${plan.kind} plan needs ${plan.kind} input, got ${input.kind}`);
}
