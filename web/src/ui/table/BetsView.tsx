import type { TableState } from "../../api/client";
import { formatCents, formatMoney } from "../../model/money";
import { paidCents, stakeCents, sumCents, winnersText, winningHands } from "../../model/settlement";
import { stageName } from "../../model/stages";
import { oddsText } from "../Odds";
import { ScrollBox } from "../ScrollBox";
import { YouBadge } from "./YouBadge";

export function BetsView({ state, playerId }: { state: TableState; playerId: string }) {
  const winners = winningHands(state);
  const mine = state.bets.filter((bet) => bet.playerId === playerId);
  return (
    <section aria-labelledby="bets-title" class="panel">
      <h2 id="bets-title">Bets this game</h2>
      {state.bets.length === 0 ? (
        <p>No bets yet.</p>
      ) : (
        <ScrollBox label="Bets table">
          <table data-testid="bets">
            <thead>
              <tr>
                <th scope="col">Player</th>
                <th scope="col">Stage</th>
                <th scope="col">Hand</th>
                <th scope="col" class="num">
                  Stake
                </th>
                <th scope="col" class="num">
                  Odds
                </th>
                {winners ? (
                  <th scope="col" class="num">
                    Payout
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {state.bets.map((bet, i) => (
                <tr key={i} data-player={bet.playerId} aria-current={bet.playerId === playerId ? "true" : undefined}>
                  <td>{bet.playerId === playerId ? <YouBadge /> : bet.playerId}</td>
                  <td>{stageName(bet.bettingStage)}</td>
                  <td>{bet.handIndex + 1}</td>
                  <td class="num">{formatMoney(bet.betAmount)}</td>
                  <td class="num">{oddsText(bet.recordedOdds)}</td>
                  {winners ? <td class="num">{formatCents(paidCents(bet, winners))}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {mine.length > 0 ? (
        <p>
          Your stakes: <strong data-testid="my-stakes">{formatCents(sumCents(mine, stakeCents))}</strong>
          {winners ? (
            <>
              {" "}
              · Your payout:{" "}
              <strong data-testid="my-payout">{formatCents(sumCents(mine, (bet) => paidCents(bet, winners)))}</strong>
            </>
          ) : null}
        </p>
      ) : null}
      {winners ? <p data-testid="winners">{winnersText(winners)}</p> : null}
    </section>
  );
}
