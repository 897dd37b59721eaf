import type { TableState } from "../../api/client";
import { formatMoney } from "../../model/money";
import { seatLabels } from "../../model/seat-names";
import { ScrollBox } from "../ScrollBox";
import { YouBadge } from "./YouBadge";

export function SeatsView({ state, playerId }: { state: TableState; playerId: string }) {
  const labels = seatLabels(state.seats);
  return (
    <section aria-labelledby="seats-title" class="panel">
      <h2 id="seats-title">
        Seats ({state.seats.length} of {state.numberOfSeats})
      </h2>
      {state.seats.length === 0 ? (
        <p>Nobody is seated.</p>
      ) : (
        <ScrollBox label="Seats table">
          <table data-testid="seats">
            <thead>
              <tr>
                <th scope="col">Seat</th>
                <th scope="col">Player</th>
                <th scope="col" class="num">
                  Balance
                </th>
              </tr>
            </thead>
            <tbody>
              {state.seats.map((seat) => (
                <tr
                  key={seat.seatId}
                  data-player={seat.playerId}
                  aria-current={seat.playerId === playerId ? "true" : undefined}
                >
                  <td>{seat.seatId}</td>
                  <td>
                    {labels.get(seat.playerId)} {seat.playerId === playerId ? <YouBadge /> : null}
                  </td>
                  <td class="num" data-testid="seat-balance">
                    {formatMoney(seat.seatBalance)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </section>
  );
}
