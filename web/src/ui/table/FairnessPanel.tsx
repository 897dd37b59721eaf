import { useState } from "preact/hooks";
import { api, ApiError, describe, unwrap, type TableState } from "../../api/client";
import { clientSeedVerdict, isDealingState } from "../../fairness/client-seed";
import type { HeldCommitment } from "../../fairness/commitment";
import { recordReveal, tableReveal } from "../../fairness/reveals";
import { verifyAgainstHeld, verifyGame, type VerifyResult } from "../../fairness/verify";
import { COMMITMENT_NAME } from "../fairness/RevealedGame";
import { HexValue } from "../fairness/HexValue";
import { VerifyAction } from "../fairness/VerifyAction";

interface Props {
  state: TableState;
  /** The commitment this page saw first in the game now shown, or null. */
  held: HeldCommitment | null;
  /** The commitment this page kept for the game before it, or null. */
  previous: HeldCommitment | null;
  /** The client seed this page sent with a game's deal, or null when it did not deal it. */
  clientSeedSent: (gameId: string) => string | null;
}

const SEEN_AT: Record<string, string> = {
  STATUS_SETUP: "start of the game",
  STATUS_START: "start of the game",
  STATUS_HOLE: "hole",
  STATUS_FLOP: "flop",
  STATUS_TURN: "turn",
  STATUS_RIVER: "river",
};

const seenAtName = (held: HeldCommitment): string => SEEN_AT[held.seenAt] ?? "deal";

/** Seen before the deal: then before every bet and before the client seed was chosen too. */
const seenBeforeDeal = (held: HeldCommitment | null): boolean => held !== null && isDealingState(held.seenAt);

/** What a pass proves depends on when this page first saw the commitment: only before every bet is it the whole claim. */
function cardsText(held: HeldCommitment | null): string {
  if (held && (seenBeforeDeal(held) || held.seenAt === "STATUS_HOLE") && held.betsBefore === 0) {
    return "Verified: the cards were fixed before any bet.";
  }
  if (held && held.seenAt !== "STATUS_RIVER") {
    const bets = held.betsBefore === 0 ? "" : `, after ${held.betsBefore} bet${held.betsBefore === 1 ? "" : "s"}`;
    return `Verified: the cards were fixed before this page first saw the game, at the ${seenAtName(held)}${bets}.`;
  }
  return "Verified against the commitment shown now: this page did not see it before the bets, so compare it with the one you noted.";
}

const verifiedText = (held: HeldCommitment | null, clientSeed: string | null, sent: string | null): string =>
  `${cardsText(held)} ${clientSeedVerdict(clientSeed, sent, seenBeforeDeal(held))}`;

/** Whose client seed the deck was mixed with, as far as this page knows. */
function clientSeedSource(shown: string | null, sent: string | null): string {
  if (sent === null) return shown === null ? "" : "Chosen by the player who dealt.";
  if (shown === sent) return "The one this page sent with its deal.";
  // Another player's deal may have come first, or the house did not use this page's seed.
  return `Not the one this page sent with its deal (${sent}): another player's deal came first, or the table did not use it.`;
}

/** The river's seed against the commitment held since the page first saw it, not only the river's own. */
function verifyTable(state: TableState, held: HeldCommitment | null): Promise<VerifyResult> {
  const reveal = tableReveal(state);
  return held ? verifyAgainstHeld(reveal, held.commitment) : verifyGame(reveal);
}

/**
 * A finished game's record from the table, checked against the commitment this page kept for it;
 * `used` is given the client seed the record shows. A record the table refused is a failed check; one
 * not read for now (a rate limit, a server or network fault) throws, and the check was not made.
 */
async function verifyRecord(
  tableId: number,
  held: HeldCommitment,
  used: (clientSeed: string | null) => void,
): Promise<VerifyResult> {
  try {
    const record = await unwrap(
      api.GET("/api/tables/{tableId}/games/{gameId}", { params: { path: { tableId, gameId: held.gameId } } }),
    );
    if (record.gameId !== held.gameId)
      return { ok: false, reason: `the table sent the record of game ${record.gameId}` };
    used(record.clientSeed);
    return verifyAgainstHeld(recordReveal(record), held.commitment);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 0 || error.status === 429 || error.status >= 500)) throw error;
    return { ok: false, reason: `the game's record could not be read: ${describe(error)}` };
  }
}

/**
 * The game this page followed before the one shown: the table may have moved on before its river
 * was checked here (another player cleared it), so its record, seeds included, is read on demand,
 * and its client seed judged as the river's is (the house dealing first drops this page's seed).
 */
function PreviousGame({ tableId, held, sent }: { tableId: number; held: HeldCommitment; sent: string | null }) {
  const [used, setUsed] = useState<string | null>(null);
  return (
    <div data-testid="previous-game">
      <h3>Previous game {held.gameId}</h3>
      <p class="hint">
        Over. Its record reveals the seed behind the commitment this page kept since the {seenAtName(held)}.
      </p>
      <VerifyAction
        key={held.gameId}
        button={`Verify game ${held.gameId}`}
        verify={() => verifyRecord(tableId, held, setUsed)}
        verified={verifiedText(held, used, sent)}
      />
    </div>
  );
}

/**
 * The deck's commitment from the game's start; the client seed from the deal on; at the river the
 * seed, and the check in this browser.
 */
export function FairnessPanel({ state, held, previous, clientSeedSent }: Props) {
  const commitment = held?.commitment ?? state.seedCommitment;
  const dealt = !isDealingState(state.gameState);
  return (
    <section aria-labelledby="fairness-title" class="panel" data-testid="fairness">
      <h2 id="fairness-title">Provably fair deck</h2>
      {commitment === null ? (
        <p>The house shows a commitment to this game's deck here before the deal, and so before any bet.</p>
      ) : (
        <dl class="facts facts--stacked">
          <dt>{COMMITMENT_NAME}</dt>
          <dd>
            <HexValue value={commitment} name="deck commitment" testId="seed-commitment" />
            <span class="hint" data-testid="commitment-seen">
              {held ? `Kept by this page since the ${seenAtName(held)}.` : ""}
            </span>
          </dd>
          {dealt ? (
            <>
              <dt>Client seed (mixed into the deck)</dt>
              <dd data-testid="client-seed-shown">
                {state.clientSeed === null ? (
                  <span data-testid="no-client-seed">None: the deck comes from the server seed alone.</span>
                ) : (
                  <HexValue value={state.clientSeed} name="client seed" testId="client-seed" />
                )}
                <span class="hint" data-testid="client-seed-source">
                  {clientSeedSource(state.clientSeed, clientSeedSent(state.gameId))}
                </span>
              </dd>
            </>
          ) : null}
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
          verified={verifiedText(held, state.clientSeed, clientSeedSent(state.gameId))}
        />
      ) : commitment !== null ? (
        <p class="hint">
          {dealt
            ? ""
            : "A deal from this page sends a fresh random client seed, which the table mixes into the deck: the house committed to its seed first, so it cannot choose the cards. "}
          The seed is revealed at the river. This page keeps the commitment above and then checks, in this browser, that
          the seed matches it and{dealt && state.clientSeed !== null ? ", mixed with the client seed," : ""} deals
          exactly these cards.
        </p>
      ) : null}
      {previous && previous.gameId !== state.gameId ? (
        <PreviousGame tableId={state.tableId} held={previous} sent={clientSeedSent(previous.gameId)} />
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
