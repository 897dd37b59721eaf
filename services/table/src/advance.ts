// Moving a game on: plan on the latest snapshot; for a reveal, close the stage's betting (stored
// under its closeKey); fetch what the plan needs from the odds service (outside the table's write
// queue: a deal's sits or leaves may land meanwhile, the plan still holds), then store the change
// under its advanceKey (the game and the state it moves on from). Two advances planned from
// the same state collapse into one: the second finds the key taken (or the state moved on) and
// answers the state.
//
// An advance that names the state it moves on `from` (the one its caller saw) moves only from that
// state, so a retry, or a second player's deal sent after the first one's, never moves the game
// twice: once the advance from it is made, by anyone, the answer is the state now.
import { ConflictError } from "@pokerodds/common";
import { gaveUp, type CallScope, type OddsPort } from "./dependencies.js";
import {
  advanceKey,
  advancePlan,
  applyAdvance,
  assertTruePrices,
  closeBetting,
  closeKey,
  dealtCards,
  placeAgainst,
  type Place,
  type AdvanceFrom,
  type AdvanceInput,
  type AdvancePlan,
  type Caller,
  type HandOdds,
  type TableSnapshot,
  UntrueOddsAnswerError,
} from "./domain/index.js";
import { newServerSeed } from "@pokerodds/common/server-seed";
import { oddsAnswersRefused } from "./metrics.js";
import { deliverOutboxOrLeaveToRecovery } from "./outbox.js";
import type { TableParts } from "./parts.js";

interface AdvanceRequest {
  caller: Caller;
  tableId: number;
  from?: AdvanceFrom;
  /** Mixed into the deck by an advance that deals (docs/provably-fair.md); ignored by any other. */
  clientSeed?: string;
}

/**
 * Moves the game on and answers the table as it is then (its public state and its version); an odds
 * service's answer refused as untrue is counted, for operators to alert on.
 */
export async function advance(parts: TableParts, request: AdvanceRequest, scope: CallScope): Promise<TableSnapshot> {
  try {
    return await moveOn(parts, request, scope);
  } catch (error) {
    if (error instanceof UntrueOddsAnswerError) oddsAnswersRefused.inc();
    throw error;
  }
}

async function moveOn(parts: TableParts, request: AdvanceRequest, scope: CallScope): Promise<TableSnapshot> {
  const { caller, tableId, from } = request;
  await parts.directory.require(tableId, scope);
  const { snapshot } = await parts.store.latest(tableId);
  const plan = advancePlan(snapshot, caller, request.clientSeed ?? null);
  if (from) {
    const place = placeAgainst(snapshot, from);
    if (place !== "at") return answerMovedOn(parts, snapshot, from, place);
  }
  const at = { gameId: plan.gameId, gameState: plan.from };
  let applied;
  try {
    // The stage's betting closes before the odds service is sent the cards it has to price, so
    // whoever learns them there cannot bet on them.
    // Its first change is not made once its client has gone. Once a close is stored, the reveal is
    // every player's: it is not abandoned because its caller went away (the odds call keeps its own
    // deadline). A reveal that fails (the odds service down past its deadline, this process stopped
    // meanwhile) leaves the stage closed, its bets waiting, until the next advance makes it.
    if (plan.kind === "REVEAL") {
      await parts.store.apply(
        tableId,
        { key: closeKey(tableId, at), fingerprint: "" },
        (latest, now) => ({ next: closeBetting(latest, plan, now), result: null }),
        gaveUp(scope),
      );
    }
    const input = await fetchInput(parts, plan, plan.kind === "REVEAL" ? detached(scope) : scope);
    applied = await parts.store.apply(
      tableId,
      { key: advanceKey(tableId, at), fingerprint: "" },
      (latest, now) => ({ next: applyAdvance(latest, plan, input, now), result: null }),
      plan.kind === "REVEAL" ? undefined : gaveUp(scope),
    );
  } catch (error) {
    // The table moved on since the plan (another advance won, or the game was voided).
    if (!(error instanceof ConflictError)) throw error;
    const latest = (await parts.store.latest(tableId)).snapshot;
    if (!from) return latest;
    const placeNow = placeAgainst(latest, from);
    // Still at `from`: the last leave turned SETUP into START meanwhile (once a game). Plan again.
    if (placeNow === "at") return moveOn(parts, request, scope);
    return answerMovedOn(parts, latest, from, placeNow);
  }
  if (applied.kind !== "stored") return (await parts.store.latest(tableId)).snapshot;
  // Payouts to players who left: the advance is done either way; recovery retries a failed delivery.
  if (applied.snapshot.outbox.length > 0) {
    await deliverOutboxOrLeaveToRecovery(parts, tableId, scope, "an advance");
  }
  return applied.snapshot;
}

/**
 * An advance asked from a state the table is not in: the state now once the advance from that state
 * was made (by an earlier try of the same request, or by another player), for the move asked for has
 * happened; otherwise (the game was voided there, or has not got there) a refusal, and nothing moves.
 * Within the game the table's place says which; of an earlier game, the advance's stored key.
 */
async function answerMovedOn(
  parts: TableParts,
  snapshot: TableSnapshot,
  from: AdvanceFrom,
  place: Exclude<Place, "at">,
): Promise<TableSnapshot> {
  const made =
    place === "past" ||
    (place === "otherGame" && (await parts.store.findOp(advanceKey(snapshot.tableId, from))) !== null);
  if (made) return snapshot;
  throw new ConflictError(
    `the table is at ${snapshot.gameState} of game ${snapshot.gameId}, and no advance was made from ` +
      `${from.gameState} of game ${from.gameId}: nothing moved`,
  );
}

/** The call's request id and logger, without the call itself: work that must not end when the call does. */
const detached = ({ requestId, logger }: CallScope): CallScope => ({ requestId, logger });

/**
 * What the odds service answers for the plan, its prices checked against the table's own
 * (true-prices.ts): a deal at the table's target RTP, which the game keeps; a reveal at the game's.
 */
async function fetchInput(parts: TableParts, plan: AdvancePlan, scope: CallScope): Promise<AdvanceInput> {
  switch (plan.kind) {
    case "DEAL": {
      // Dealt here, from the table's own seed: the odds service prices the hole cards only.
      const serverSeed = plan.serverSeed ?? newServerSeed();
      const { hands } = dealtCards(plan, serverSeed);
      const handOdds = await pricedPanels(parts.odds, hands, [], parts.targetRtp, scope);
      return { kind: "DEAL", serverSeed, targetRtp: parts.targetRtp, handOdds };
    }
    case "REVEAL": {
      const handOdds = await pricedPanels(parts.odds, plan.hands, plan.board, plan.targetRtp, scope);
      return { kind: "REVEAL", handOdds };
    }
    case "CLEAR":
      return { kind: "CLEAR" };
  }
}

async function pricedPanels(
  odds: OddsPort,
  hands: readonly string[],
  board: readonly string[],
  targetRtp: number,
  scope: CallScope,
): Promise<readonly HandOdds[]> {
  const handOdds = await odds.equity(hands, board, targetRtp, scope);
  assertTruePrices(handOdds, hands, board, targetRtp);
  return handOdds;
}
