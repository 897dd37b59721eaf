// Moving a game on: plan on the latest snapshot, fetch what the plan needs from the odds service
// (outside the table's write queue: bets may land meanwhile, the plan still holds), then store the
// change under `advance:<tableId>:<gameId>:<from state>`. Two advances planned from the same state
// collapse into one: the second finds the key taken (or the state moved on) and answers the state.
import { ConflictError } from "@pokerodds/common";
import type { CallScope, OddsPort } from "./dependencies.js";
import {
  advancePlan,
  applyAdvance,
  publicState,
  type AdvanceInput,
  type AdvancePlan,
  type Caller,
  type PublicTableState,
} from "./domain/index.js";
import { deliverOutbox } from "./outbox.js";
import type { TableParts } from "./parts.js";

export async function advance(
  parts: TableParts,
  request: { caller: Caller; tableId: number },
  scope: CallScope,
): Promise<PublicTableState> {
  const { caller, tableId } = request;
  await parts.directory.require(tableId, scope);
  const { snapshot } = await parts.store.latest(tableId);
  const plan = advancePlan(snapshot, caller);
  const input = await fetchInput(parts.odds, plan, scope);
  let applied;
  try {
    applied = await parts.store.apply(
      tableId,
      { key: `advance:${tableId}:${plan.gameId}:${plan.from}`, fingerprint: "" },
      (latest, now) => ({ next: applyAdvance(latest, plan, input, now), result: null }),
    );
  } catch (error) {
    // The table moved on since the plan (another advance won, or the game was voided).
    if (!(error instanceof ConflictError)) throw error;
    return publicState((await parts.store.latest(tableId)).snapshot);
  }
  if (applied.kind !== "stored") return publicState((await parts.store.latest(tableId)).snapshot);
  // Payouts to players who left: the advance is done either way; recovery retries a failed delivery.
  if (applied.snapshot.outbox.length > 0) {
    await deliverOutbox(parts, tableId, scope).catch((error: unknown) =>
      parts.logger.warn({ err: error, tableId }, "outbox delivery after an advance failed; recovery retries"),
    );
  }
  return publicState(applied.snapshot);
}

async function fetchInput(odds: OddsPort, plan: AdvancePlan, scope: CallScope): Promise<AdvanceInput> {
  switch (plan.kind) {
    case "DEAL":
      return { kind: "DEAL", ...(await odds.deal(plan.numberOfHands, plan.gameId, scope)) };
    case "REVEAL":
      return { kind: "REVEAL", handOdds: await odds.equity(plan.hands, plan.board, scope) };
    case "CLEAR":
      return { kind: "CLEAR" };
  }
}
