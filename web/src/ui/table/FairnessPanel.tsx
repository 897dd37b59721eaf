import type { TableState } from "../../api/client";
import type { HeldCommitment } from "../../fairness/commitment";
import { tableReveal } from "../../fairness/reveals";
import { verifyAgainstHeld, verifyGame, type VerifyResult } from "../../fairness/verify";
import { COMMITMENT_NAME } from "../fairness/RevealedGame";
import { HexValue } from "../fairness/HexValue";
import { VerifyAction } from "../fairness/VerifyAction";

interface Props {
  state: TableState;
  /** The commitment this page saw first in the game now shown, or null. */
  held: HeldCommitment | null;
}

const SEEN_AT: Record<string, string> = {
  STATUS_HOLE: "hole",
  STATUS_FLOP: "flop",
  STATUS_TURN: "turn",
  STATUS_RIVER: "river",
};

const seenAtName = (held: HeldCommitment): string => SEEN_AT[held.seenAt] ?? "deal";

/** What a pass proves depends on when this page first saw the commitment: only before every bet is it the whole claim. */
function verifiedText(held: HeldCommitment | null): string {
  if (held?.seenAt === "STATUS_HOLE" && held.betsBefore === 0) return "Verified: the cards were fixed before any bet.";
  if (held && held.seenAt !== "STATUS_RIVER") {
    const bets = held.betsBefore === 0 ? "" : `, after ${held.betsBefore} bet${held.betsBefore === 1 ? "" : "s"}`;
    return `Verified: the cards were fixed before this page first saw the game, at the ${seenAtName(held)}${bets}.`;
  }
  return "Verified against the commitment shown now: this page did not see it before the bets, so compare it with the one you noted.";
}

/** The river's seed against the commitment held since the page first saw it, not only the river's own. */
function verifyTable(state: TableState, held: HeldCommitment | null): Promise<VerifyResult> {
  const reveal = tableReveal(state);
  return held ? verifyAgainstHeld(reveal, held.commitment) : verifyGame(reveal);
}

/** The deck's commitment from the hole on; at the river the seed, and the check in this browser. */
export function FairnessPanel({ state, held }: Props) {
  const commitment = held?.commitment ?? state.seedCommitment;
  return (
    <section aria-labelledby="fairness-title" class="panel" data-testid="fairness">
      <h2 id="fairness-title">Provably fair deck</h2>
      {commitment === null ? (
        <p>When the hole cards are dealt, the house shows a commitment to this game's deck here, before any bet.</p>
      ) : (
        <dl class="facts facts--stacked">
          <dt>{COMMITMENT_NAME}</dt>
          <dd>
            <HexValue value={commitment} name="deck commitment" testId="seed-commitment" />
            <span class="hint" data-testid="commitment-seen">
              {held ? `Kept by this page since the ${seenAtName(held)}.` : ""}
            </span>
          </dd>
          {state.serverSeed ? (
            <>
              <dt>Server seed (revealed at the river)</dt>
              <dd>
                <HexValue value={state.serverSeed} name="server seed" testId="server-seed" />
              </dd>
            </>
          ) : null}
        </dl>
      )}
      {state.serverSeed ? (
        <VerifyAction
          key={state.gameId}
          button="Verify this game"
          verify={() => verifyTable(state, held)}
          verified={verifiedText(held)}
        />
      ) : commitment !== null ? (
        <p class="hint">
          The seed is revealed at the river. This page keeps the commitment above and then checks, in this browser, that
          the seed matches it and deals exactly these cards.
        </p>
      ) : null}
    </section>
  );
}

/** Loud, at the top of the table: the house showed a second commitment in one game. */
export function CommitmentChanged({ held }: { held: HeldCommitment }) {
  if (held.changedTo === null) return null;
  return (
    <div role="alert" class="notice notice--error alarm" data-testid="commitment-changed">
      <strong>Warning: the deck commitment changed during game {held.gameId}.</strong> This page saw{" "}
      <code>{held.commitment}</code> at the {seenAtName(held)}, and now the table shows <code>{held.changedTo}</code>.
      The cards may have been changed after bets were placed.
    </div>
  );
}
