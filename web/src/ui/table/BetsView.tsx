import type { Bet, TableState } from "../../api/client";
import { formatCents, formatMoney, payoutCents, toCents } from "../../model/money";
import { stageName } from "../../model/stages";
import { oddsText } from "../Odds";

/** The hands that won at the river (several on a tie), or null before the river. */
function winningHands(state: TableState): number[] | null {
  if (state.gameState !== "STATUS_RIVER") return null;
  return state.handOdds.filter((o) => o.bettingStage === -1 && o.handStatus === "WINNER").map((o) => o.handIndex);
}

const payoutOf = (bet: Bet, winners: number[]): number =>
  winners.includes(bet.handIndex) ? payoutCents(bet.betAmount, bet.recordedOdds, winners.length) : 0;

export function BetsView({ state, playerId }: { state: TableState; playerId: string }) {
  const winners = winningHands(state);
  const mine = state.bets.filter((bet) => bet.playerId === playerId);
  const sum = (bets: Bet[], of: (bet: Bet) => number) => bets.reduce((total, bet) => total + of(bet), 0);
  return (
    <section aria-labelledby="bets-title" class="panel">
      <h2 id="bets-title">Bets this game</h2>
      {state.bets.length === 0 ? (
        <p>No bets yet.</p>
      ) : (
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
              <tr key={i} data-player={bet.playerId}>
                <td>{bet.playerId === playerId ? "You" : bet.playerId}</td>
                <td>{stageName(bet.bettingStage)}</td>
                <td>{bet.handIndex + 1}</td>
                <td class="num">{formatMoney(bet.betAmount)}</td>
                <td class="num">{oddsText(bet.recordedOdds)}</td>
                {winners ? <td class="num">{formatCents(payoutOf(bet, winners))}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mine.length > 0 ? (
        <p>
          Your stakes:{" "}
          <strong data-testid="my-stakes">{formatCents(sum(mine, (bet) => toCents(bet.betAmount)))}</strong>
          {winners ? (
            <>
              {" "}
              · Your payout:{" "}
              <strong data-testid="my-payout">{formatCents(sum(mine, (bet) => payoutOf(bet, winners)))}</strong>
            </>
          ) : null}
        </p>
      ) : null}
      {winners ? (
        <p data-testid="winners">
          {winners.length === 1
            ? `Hand ${winners[0]! + 1} wins.`
            : `Hands ${winners.map((h) => h + 1).join(" and ")} tie: winning bets share the payout.`}
        </p>
      ) : null}
    </section>
  );
}
