import { verifyGame, type GameReveal } from "../../fairness/verify";
import { HexValue } from "./HexValue";
import { VerifyAction } from "./VerifyAction";

export const COMMITMENT_NAME = "Deck commitment (SHA-256 of the server seed)";

/**
 * A game whose seed comes with it (a deal, a bulk game): no bet is taken on these, so there is
 * nothing to commit to first; the check shows that the cards are exactly the ones the seed and the
 * game id deal by the published procedure.
 */
export function RevealedGame({ reveal, button }: { reveal: GameReveal; button: string }) {
  return (
    <div class="fairness" data-testid="fairness">
      <dl class="facts facts--stacked">
        <dt>Game id</dt>
        <dd>
          <code>{reveal.gameId}</code>
        </dd>
        <dt>{COMMITMENT_NAME}</dt>
        <dd>
          <HexValue value={reveal.commitment} name="deck commitment" testId="seed-commitment" />
        </dd>
        <dt>Server seed</dt>
        <dd>
          <HexValue value={reveal.seed} name="server seed" testId="server-seed" />
        </dd>
      </dl>
      <p class="hint">
        The deck order is derived from the seed and the game id (docs/provably-fair.md). Verifying runs that procedure
        in this browser, with no request to the server.
      </p>
      <VerifyAction
        button={button}
        verify={() => verifyGame(reveal)}
        verified="Verified: the seed matches its commitment and deals exactly these cards."
      />
    </div>
  );
}
