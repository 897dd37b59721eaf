// The units of work the run hands to worker threads (or runs in-process): a batch of games, of
// shuffles, or of exact-against-Monte-Carlo spots. Each returns mergeable totals.

import { deriveDeck } from "@pokerodds/common/deck-derivation";
import { formatCard, formatHand } from "@pokerodds/common/poker/cards";
import { dealHoleCards } from "@pokerodds/common/deck-derivation";
import { newServerSeed, seedCommitment, verifyGame } from "@pokerodds/odds/domain/provably-fair";
import { shuffledDeck } from "./shuffle.js";
import { type EquityTotals, compareSpot, emptyEquityTotals } from "./equity-check.js";
import { type GameSettings, STAGES, playGame } from "./game.js";
import { type RtpTotals, addGame, emptyRtpTotals } from "./rtp.js";
import { countPositions, emptyPositionCounts } from "./stats.js";

export type DeckSource = "plain" | "derived";

export type Task =
  | { kind: "games"; count: number; firstIndex: number; settings: GameSettings; source: DeckSource }
  | { kind: "shuffles"; count: number; firstIndex: number; source: DeckSource }
  | { kind: "equity"; count: number; firstIndex: number; numberOfHands: number; iterations: number };

export type TaskResult =
  | { kind: "games"; totals: RtpTotals; verified: number; count: number }
  | { kind: "shuffles"; source: DeckSource; counts: Float64Array; count: number }
  | { kind: "equity"; totals: EquityTotals };

/** A deck from the chosen source, with the seed it came from when derived (fresh per game, as in production). */
function drawDeck(source: DeckSource, index: number): { deck: number[]; seed?: string; gameId: string } {
  const gameId = `FAIR-${index}`;
  if (source === "plain") return { deck: shuffledDeck(), gameId };
  const seed = newServerSeed();
  return { deck: deriveDeck(seed, gameId), seed, gameId };
}

/** Whether a derived game verifies from its seed, as a player would check it (plain decks: not applicable). */
function verifies(drawn: { deck: number[]; seed?: string; gameId: string }, numberOfHands: number): boolean {
  if (drawn.seed === undefined) return false;
  const { hands, rest } = dealHoleCards(drawn.deck, numberOfHands);
  return verifyGame({
    seed: drawn.seed,
    commitment: seedCommitment(drawn.seed),
    gameId: drawn.gameId,
    hands: hands.map(formatHand),
    board: rest.slice(0, 5).map(formatCard),
  }).ok;
}

/** Reports progress every `every` units, and the remainder at the end. */
function batched(progress: (units: number) => void, every: number) {
  let pending = 0;
  return {
    tick() {
      if (++pending === every) {
        progress(pending);
        pending = 0;
      }
    },
    flush() {
      if (pending > 0) progress(pending);
      pending = 0;
    },
  };
}

export function runTask(task: Task, progress: (units: number) => void): TaskResult {
  switch (task.kind) {
    case "games": {
      const totals = emptyRtpTotals();
      const report = batched(progress, 50);
      let verified = 0;
      for (let g = 0; g < task.count; g++) {
        const drawn = drawDeck(task.source, task.firstIndex + g);
        addGame(totals, playGame(drawn.deck, task.settings), task.settings.targetRtp);
        if (verifies(drawn, task.settings.numberOfHands)) verified++;
        report.tick();
      }
      report.flush();
      return { kind: "games", totals, verified, count: task.count };
    }
    case "shuffles": {
      const counts = emptyPositionCounts();
      const report = batched(progress, 10_000);
      for (let s = 0; s < task.count; s++) {
        countPositions(counts, drawDeck(task.source, task.firstIndex + s).deck);
        report.tick();
      }
      report.flush();
      return { kind: "shuffles", source: task.source, counts, count: task.count };
    }
    case "equity": {
      const totals = emptyEquityTotals(task.iterations);
      for (let s = 0; s < task.count; s++) {
        const stage = STAGES[(task.firstIndex + s) % STAGES.length]!;
        compareSpot(totals, shuffledDeck(), task.numberOfHands, stage);
        progress(1);
      }
      return { kind: "equity", totals };
    }
  }
}
