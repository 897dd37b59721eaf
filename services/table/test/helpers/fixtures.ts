// Test fixtures: a fixed deal, odds panels as the odds service shapes them, and short-hands that
// drive a table through its operations. Every snapshot they return is deep-frozen, so a domain
// function that mutates its input fails the test that calls it.

import { type AdvanceInput, type Caller, advancePlan, applyAdvance, closeBetting } from "../../src/domain/advance.js";
import { applyBet } from "../../src/domain/bets.js";
import { applySit } from "../../src/domain/seats.js";
import { emptyTable } from "../../src/domain/snapshot.js";
import { derivedDeal } from "@pokerodds/common/deck-derivation";
import { createHash } from "node:crypto";
import type { BettingStage, Fairness, HandOdds, HandStatus, TableSnapshot } from "../../src/domain/types.js";

export const T0 = 1_700_000_000_000;

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A seed and its commitment (SHA-256 of the seed's bytes): the one every fixture deal is from. */
export const FAIRNESS: Fairness = {
  serverSeed: "ab".repeat(32),
  seedCommitment: createHash("sha256")
    .update(Buffer.from("ab".repeat(32), "hex"))
    .digest("hex"),
  clientSeed: null,
};

/** The cards of gameId's n hands: the deck FAIRNESS's seed (with clientSeed) derives. */
export function dealOf(
  gameId: string,
  n = 4,
  clientSeed: string | null = null,
): { hands: string[]; remainingDeck: string[] } {
  return derivedDeal({ serverSeed: FAIRNESS.serverSeed, clientSeed }, gameId, n);
}

/** The target RTP every fixture deal is priced at. */
export const TARGET_RTP = 0.97;

/** A deal's input to applyAdvance: FAIRNESS's seed, TARGET_RTP and the pre-flop panels the odds service priced. */
export const dealInput = (handOdds: readonly HandOdds[] = HOLE_PANELS): Extract<AdvanceInput, { kind: "DEAL" }> => ({
  kind: "DEAL",
  serverSeed: FAIRNESS.serverSeed,
  targetRtp: TARGET_RTP,
  handOdds,
});

/** [winPercentage, drawPercentage, oddsTenths] per hand. */
export type PanelSpec = readonly [win: number, draw: number, oddsTenths: number];

/** Panels with the odds service's statuses: favourite, dead (win and draw 0), the rest active. */
export function panels(stage: BettingStage, specs: readonly PanelSpec[]): HandOdds[] {
  let favourite = -1;
  specs.forEach(([win, draw], i) => {
    if (win === 0 && draw === 0) return;
    if (favourite < 0 || win > specs[favourite]![0]) favourite = i;
  });
  return specs.map(([win, draw, oddsTenths], handIndex) => ({
    handIndex,
    bettingStage: stage,
    handStatus: (win === 0 && draw === 0
      ? "DEAD_CANNOT_WIN"
      : handIndex === favourite
        ? "IN_PLAY_FAVOURITE"
        : "IN_PLAY_BETTING_STAGE_ACTIVE") as HandStatus,
    winPercentage: win,
    drawPercentage: draw,
    oddsTenths,
  }));
}

/** River panels: the listed hands are WINNERs (100 % win when alone, 100 % draw when tied). */
export function riverPanels(winners: readonly number[], n = 4): HandOdds[] {
  return Array.from({ length: n }, (_, handIndex) => {
    const wins = winners.includes(handIndex);
    const sole = wins && winners.length === 1;
    return {
      handIndex,
      bettingStage: -1 as const,
      handStatus: wins ? ("WINNER" as const) : ("LOSER" as const),
      winPercentage: sole ? 100 : 0,
      drawPercentage: wins && !sole ? 100 : 0,
      oddsTenths: sole ? 10 : 0,
    };
  });
}

export const HOLE_PANELS = panels(0, [
  [30, 2, 32],
  [25, 2, 39],
  [20, 2, 49],
  [15, 2, 65],
]);
export const FLOP_PANELS = panels(1, [
  [60, 5, 16],
  [0, 10, 0], // can only tie: no bets
  [30, 0, 32],
  [0, 0, 0], // dead
]);
export const TURN_PANELS = panels(2, [
  [80, 0, 12],
  [0, 5, 0],
  [15, 0, 65],
  [0, 0, 0],
]);

export const ADMIN: Caller = { playerId: "admin", isAdmin: true };

/** A reveal's stage with its betting closed, as the adapter stores it before asking for the next prices. */
export function closed(snapshot: TableSnapshot, now = T0, caller: Caller = ADMIN): TableSnapshot {
  return deepFreeze(closeBetting(snapshot, advancePlan(snapshot, caller), now) ?? snapshot);
}

/**
 * Advances one step with the fixed deal and the given panels for a reveal (defaults per stage), a
 * reveal after closing its stage's betting.
 */
export function advance(
  snapshot: TableSnapshot,
  now = T0,
  handOdds?: HandOdds[],
  caller: Caller = ADMIN,
): TableSnapshot {
  const plan = advancePlan(snapshot, caller);
  const input: AdvanceInput =
    plan.kind === "DEAL"
      ? dealInput(handOdds ?? HOLE_PANELS)
      : plan.kind === "REVEAL"
        ? {
            kind: "REVEAL",
            handOdds:
              handOdds ??
              (plan.to === "STATUS_FLOP" ? FLOP_PANELS : plan.to === "STATUS_TURN" ? TURN_PANELS : riverPanels([0])),
          }
        : { kind: "CLEAR" };
  return deepFreeze(applyAdvance(closed(snapshot, now, caller), plan, input, now));
}

export const newTable = (tableId = 7): TableSnapshot => deepFreeze(emptyTable(tableId, T0));

export function sit(snapshot: TableSnapshot, playerId: string, amountCents = 10_000, now = T0): TableSnapshot {
  const { next, result } = applySit(
    snapshot,
    {
      playerId,
      playerName: `Name ${playerId}`,
      avatarImageUrl: `/a/${playerId}.png`,
      amountCents,
      transferId: `sit-${playerId}-${snapshot.version}`,
    },
    now,
  );
  if (!next || !result.acknowledged) throw new Error(`sit refused: ${JSON.stringify(result)}`);
  return deepFreeze(next);
}

export function bet(
  snapshot: TableSnapshot,
  playerId: string,
  handIndex: number,
  betAmountCents: number,
  betId = `bet-${snapshot.version}`,
): TableSnapshot {
  const seatIndex = snapshot.seats.find((s) => s.playerId === playerId)?.seatId ?? 0;
  const { next, result } = applyBet(snapshot, { playerId, seatIndex, handIndex, betAmountCents, betId }, T0);
  if (!next || !result.acknowledged) throw new Error(`bet refused: ${JSON.stringify(result)}`);
  return deepFreeze(next);
}

/** Advances until the table is in the given state. */
export function advanceTo(snapshot: TableSnapshot, state: TableSnapshot["gameState"]): TableSnapshot {
  let s = snapshot;
  for (let i = 0; i < 6 && s.gameState !== state; i++) s = advance(s);
  if (s.gameState !== state) throw new Error(`cannot reach ${state}`);
  return s;
}

export const balanceOf = (snapshot: TableSnapshot, playerId: string): number | undefined =>
  snapshot.seats.find((s) => s.playerId === playerId)?.balanceCents;
