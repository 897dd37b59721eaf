import { useState } from "preact/hooks";
import { api, unwrap, type DealResult } from "../api/client";
import { dealReveal } from "../fairness/reveals";
import { RevealedGame } from "./fairness/RevealedGame";
import { HandCells, HandHeadings } from "./HandCells";
import { Notice } from "./Notice";
import { OddsHeadings, PanelCells } from "./Odds";
import { ScrollBox } from "./ScrollBox";
import { useAction } from "./use-action";

const HAND_COUNTS = [2, 3, 4, 5, 6];

/** A stand-alone deal: fresh hands and their pre-flop odds, no table and no money. */
export function DealScreen() {
  const [hands, setHands] = useState(4);
  const [deal, setDeal] = useState<DealResult | null>(null);
  const { busy, message, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      setDeal(await unwrap(api.POST("/api/deal", { body: { numberOfHands: hands } })));
    });
  };
  return (
    <>
      <h1 id="screen-title" tabIndex={-1}>
        Deal
      </h1>
      <p>Deal 2 to 6 hands from a fresh deck and see each hand's chance before the flop.</p>
      <form class="inline-form" onSubmit={submit}>
        <label>
          Number of hands
          <select value={hands} onChange={(e) => setHands(Number(e.currentTarget.value))}>
            {HAND_COUNTS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary" disabled={busy}>
          Deal
        </button>
      </form>
      <Notice message={message} />
      {deal ? <DealView deal={deal} /> : null}
      {deal ? (
        <section aria-labelledby="deal-fairness-title" class="panel">
          <h2 id="deal-fairness-title">Provably fair deck</h2>
          <RevealedGame key={deal.gameId} reveal={dealReveal(deal)} button="Verify this deal" />
        </section>
      ) : null}
    </>
  );
}

function DealView({ deal }: { deal: DealResult }) {
  return (
    <section aria-labelledby="deal-title" class="panel" data-testid="deal-result">
      <h2 id="deal-title">Pre-flop odds</h2>
      <ScrollBox label="Pre-flop odds table">
        <table>
          <thead>
            <tr>
              <HandHeadings />
              <OddsHeadings />
            </tr>
          </thead>
          <tbody>
            {deal.hands.map((hand, i) => {
              const panel = deal.handOdds.find((o) => o.handIndex === i);
              return (
                <tr key={i}>
                  <HandCells handIndex={i} hand={hand} />
                  {panel ? <PanelCells panel={panel} /> : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollBox>
      <p>{deal.remainingDeck.length} cards remain in the deck for the board.</p>
    </section>
  );
}
