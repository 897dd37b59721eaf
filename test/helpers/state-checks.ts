// What every table state must look like at its stage (interface-spec.md and decisions.md, "Tables
// and games"), as a list of problems: empty when the state is right. The river's winners are checked
// against the reference evaluator, not taken from the service.
import type { HandOdds, TableState } from "./api.js";
import { verifyGame } from "../../services/odds/src/domain/provably-fair.js";
import { boardOf } from "./money.js";
import { winningHands } from "./poker.js";

const TARGET_RTP = 0.97;
const HAND = /^([2-9TJQKA][cdhs]){2}$/;
const CARD = /^[2-9TJQKA][cdhs]$/;

/** The betting stage of each game state, and the odds panels' stages it shows. */
const STAGES: Record<string, { bettingStage: number; panels: number[]; cards: number }> = {
  STATUS_START: { bettingStage: -1, panels: [], cards: 0 },
  STATUS_SETUP: { bettingStage: -1, panels: [], cards: 0 },
  STATUS_HOLE: { bettingStage: 0, panels: [0], cards: 0 },
  STATUS_FLOP: { bettingStage: 1, panels: [0, 1], cards: 3 },
  STATUS_TURN: { bettingStage: 2, panels: [0, 1, 2], cards: 4 },
  STATUS_RIVER: { bettingStage: -1, panels: [0, 1, 2, -1], cards: 5 },
};

/** The displayed odds rule: the nearest 0.1 of (1 / win probability) x RTP, for a win probability in percent. */
function priceOf(percent: number): number {
  return Math.round((100 / percent) * TARGET_RTP * 10) / 10;
}

/**
 * The odds a panel may show: 0 when the hand cannot win alone; else priced from its dead-heat share
 * (docs/decisions.md), which the panel does not show but which lies between the win plus the draws
 * split n ways and the win plus half the draws, give or take the rounding of the two percentages
 * shown (0.00005 each), and a tenth for the rounding of the odds.
 */
function oddsProblem(p: HandOdds, hands: number): string | undefined {
  if (p.winPercentage === 0) return p.odds === 0 ? undefined : `odds ${p.odds} for a hand that cannot win alone`;
  const least = p.winPercentage + p.drawPercentage / hands - 0.0001;
  const most = p.winPercentage + p.drawPercentage / 2 + 0.0001;
  const low = priceOf(most) - 0.1 - 1e-9;
  const high = least > 0 ? priceOf(least) + 0.1 + 1e-9 : Number.POSITIVE_INFINITY;
  return p.odds >= low && p.odds <= high
    ? undefined
    : `odds ${p.odds}, expected ${low.toFixed(1)} to ${high.toFixed(1)}`;
}

function panelProblems(panels: HandOdds[], stage: number, state: TableState): string[] {
  const problems: string[] = [];
  const where = `stage ${stage}`;
  if (panels.map((p) => p.handIndex).join() !== "0,1,2,3") {
    problems.push(`${where}: panels for hands ${panels.map((p) => p.handIndex).join()}, not 0,1,2,3 in order`);
    return problems;
  }
  for (const p of panels) {
    if (!(p.winPercentage >= 0 && p.winPercentage <= 100 && p.drawPercentage >= 0 && p.drawPercentage <= 100)) {
      problems.push(`${where} hand ${p.handIndex}: percentages out of range ${JSON.stringify(p)}`);
    }
    if ((p.odds === 0) !== (p.winPercentage === 0)) {
      problems.push(`${where} hand ${p.handIndex}: odds ${p.odds} with winPercentage ${p.winPercentage}`);
    }
  }
  if (stage === -1) {
    const board = boardOf(state);
    if (state.hands === null || board.length !== 5) return [...problems, "a river panel without hands and five cards"];
    const winners = winningHands(state.hands, board);
    for (const p of panels) {
      const wanted = winners.includes(p.handIndex) ? "WINNER" : "LOSER";
      if (p.handStatus !== wanted) {
        problems.push(
          `river hand ${p.handIndex} (${state.hands[p.handIndex]}): ${p.handStatus}, the reference says ${wanted} (board ${board.join(" ")})`,
        );
      }
    }
    return problems;
  }
  // The favourite is among hands that are not dead (a dead hand is DEAD_CANNOT_WIN, decisions.md),
  // so when only ties remain (every win 0) it is the first hand that can still tie.
  const alive = panels.filter((p) => p.winPercentage > 0 || p.drawPercentage > 0);
  const best = Math.max(...alive.map((p) => p.winPercentage));
  const favourite = alive.find((p) => p.winPercentage === best)?.handIndex ?? -1;
  const favourites = panels.filter((p) => p.handStatus === "IN_PLAY_FAVOURITE").map((p) => p.handIndex);
  if (favourites.join() !== String(favourite)) {
    problems.push(`${where}: favourites ${favourites.join() || "none"}, expected exactly hand ${favourite}`);
  }
  for (const p of panels) {
    const dead = p.winPercentage === 0 && p.drawPercentage === 0;
    if (dead !== (p.handStatus === "DEAD_CANNOT_WIN")) {
      problems.push(
        `${where} hand ${p.handIndex}: ${p.handStatus} with ${p.winPercentage}% win, ${p.drawPercentage}% draw`,
      );
    }
    if (!dead && p.handIndex !== favourite && p.handStatus !== "IN_PLAY_BETTING_STAGE_ACTIVE") {
      problems.push(`${where} hand ${p.handIndex}: ${p.handStatus}, expected IN_PLAY_BETTING_STAGE_ACTIVE`);
    }
    const odds = oddsProblem(p, panels.length);
    if (odds) problems.push(`${where} hand ${p.handIndex}: ${odds}`);
  }
  return problems;
}

/** Everything wrong with a table state (an empty list when it is right). */
export function stateProblems(state: TableState): string[] {
  const problems: string[] = [];
  const stage = STAGES[state.gameState];
  if (!stage) return [`unexpected gameState ${state.gameState}`];
  if (state.bettingStage !== stage.bettingStage)
    problems.push(`${state.gameState} with bettingStage ${state.bettingStage}`);
  // Closed for a reveal in between; never open outside a betting stage.
  if (state.bettingOpen && stage.bettingStage < 0) problems.push(`${state.gameState} with bettingOpen`);
  if (state.numberOfHands !== 4) problems.push(`numberOfHands ${state.numberOfHands}`);
  if (state.numberOfSeats !== 6) problems.push(`numberOfSeats ${state.numberOfSeats}`);
  if (state.jackpotValue !== 0) problems.push(`jackpotValue ${state.jackpotValue}`);

  const dealt = state.gameState !== "STATUS_START" && state.gameState !== "STATUS_SETUP";
  if (!dealt && state.hands !== null) problems.push(`${state.gameState} shows hands ${JSON.stringify(state.hands)}`);
  if (dealt && (state.hands?.length !== 4 || !state.hands.every((hand) => HAND.test(hand)))) {
    problems.push(`${state.gameState} hands ${JSON.stringify(state.hands)}`);
  }
  // The stacks run at the default target RTP, which a game keeps from its deal.
  if (state.targetRtp !== (dealt ? TARGET_RTP : null))
    problems.push(`${state.gameState} at targetRtp ${state.targetRtp}`);
  const cards = [state.flopCard1, state.flopCard2, state.flopCard3, state.turnCard, state.riverCard];
  const shown = cards.map((card) => card !== null);
  const wanted = cards.map((_, i) => i < stage.cards);
  if (shown.join() !== wanted.join()) problems.push(`${state.gameState} reveals ${JSON.stringify(cards)}`);
  const all = [...(state.hands ?? []).flatMap((hand) => [hand.slice(0, 2), hand.slice(2)]), ...boardOf(state)];
  if (!all.every((card) => CARD.test(card)) || new Set(all).size !== all.length) {
    problems.push(`cards not distinct or malformed: ${all.join(" ")}`);
  }

  const stages = [...new Set(state.handOdds.map((p) => p.bettingStage))];
  if (stages.join() !== stage.panels.join() || state.handOdds.length !== 4 * stage.panels.length) {
    problems.push(`${state.gameState} shows odds panels for stages ${stages.join()} (${state.handOdds.length} panels)`);
  } else {
    for (const s of stage.panels)
      problems.push(
        ...panelProblems(
          state.handOdds.filter((p) => p.bettingStage === s),
          s,
          state,
        ),
      );
  }

  problems.push(...fairnessProblems(state, dealt));
  if (!dealt && state.bets.length > 0) problems.push(`${state.gameState} lists bets`);
  const seatIds = state.seats.map((seat) => seat.seatId);
  if (new Set(seatIds).size !== seatIds.length || state.seats.length > 6) problems.push(`seats ${seatIds.join()}`);
  const players = state.seats.map((seat) => seat.playerId);
  if (new Set(players).size !== players.length) problems.push(`a player on two seats: ${players.join()}`);
  for (const bet of state.bets) {
    const panel = state.handOdds.find((p) => p.bettingStage === bet.bettingStage && p.handIndex === bet.handIndex);
    if (bet.bettingStage < 0 || bet.bettingStage > Math.max(-1, ...stage.panels)) {
      problems.push(`a bet at stage ${bet.bettingStage} in ${state.gameState}`);
    } else if (!panel || panel.odds !== bet.recordedOdds) {
      problems.push(`bet ${JSON.stringify(bet)} records odds other than the stage's ${panel?.odds}`);
    }
    if (!(bet.betAmount > 0) || panel?.odds === 0) problems.push(`bet ${JSON.stringify(bet)} should not exist`);
  }
  return problems;
}

const SEED_HEX = /^[0-9a-f]{64}$/;

/**
 * Provably fair: before the deal a commitment at most (none only where nothing was stored yet), no
 * seed; from the hole a commitment and perhaps a client seed, and at the river the seed, from which
 * the documented procedure must rebuild every card shown.
 */
function fairnessProblems(state: TableState, dealt: boolean): string[] {
  const { seedCommitment, serverSeed, clientSeed, gameState } = state;
  if (seedCommitment !== null && !SEED_HEX.test(seedCommitment)) return [`${gameState} commitment ${seedCommitment}`];
  if (!dealt) return serverSeed === null && clientSeed === null ? [] : [`${gameState} shows a seed`];
  if (seedCommitment === null) return [`${gameState} shows no commitment`];
  if (gameState !== "STATUS_RIVER") return serverSeed === null ? [] : [`${gameState} reveals the seed`];
  if (serverSeed === null) return ["the river does not reveal the seed"];
  const verdict = verifyGame({
    seed: serverSeed,
    commitment: seedCommitment,
    gameId: state.gameId,
    clientSeed,
    hands: state.hands ?? [],
    board: boardOf(state),
  });
  return verdict.ok ? [] : [`the revealed seed does not verify: ${verdict.reason}`];
}
