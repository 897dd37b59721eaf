import type { Seat, TableState } from "../../api/client";
import { formatMoney } from "../../model/money";
import { advanceFrom, advanceLabel } from "../../model/stages";
import { AmountForm } from "../AmountForm";
import type { useAction } from "../use-action";
import type { TableMoves } from "./moves";

interface Props {
  state: TableState;
  seat: Seat | undefined;
  moves: TableMoves;
  action: ReturnType<typeof useAction>;
}

/** Sit, top up, leave, and move the game on. */
export function SeatControls({ state, seat, moves, action }: Props) {
  const { busy, run } = action;
  const fail = (text: string) => action.setMessage({ kind: "error", text });
  const from = advanceFrom(state);
  return (
    <section aria-labelledby="seat-title" class="panel">
      <h2 id="seat-title">{seat ? "Your seat" : "Take a seat"}</h2>
      {seat ? (
        <>
          <p>
            Seat {seat.seatId}, balance <strong data-testid="my-seat-balance">{formatMoney(seat.seatBalance)}</strong>
          </p>
          <div class="controls">
            <AmountForm
              label="Top-up amount"
              button="Top up"
              initial="50"
              busy={busy}
              onAmount={(amount) => void run(() => moves.topup(amount))}
              onProblem={fail}
            />
            <button type="button" aria-disabled={busy} onClick={() => void run(() => moves.leave(state))}>
              Leave the table
            </button>
          </div>
        </>
      ) : state.seats.length >= state.numberOfSeats ? (
        <p data-testid="table-full">
          This table is full ({state.seats.length} of {state.numberOfSeats} seats): watch, or come back later.
        </p>
      ) : (
        <AmountForm
          label="Buy-in amount"
          button="Sit down"
          initial="100"
          busy={busy}
          onAmount={(amount) => void run(() => moves.sit(amount))}
          onProblem={fail}
          testId="sit-form"
        />
      )}
      {/* Only a seated player (or an admin, through the API) may move the game on. */}
      {seat && from ? (
        <p class="controls">
          <button
            type="button"
            class="primary"
            aria-disabled={busy}
            onClick={() => void run(() => moves.advance(from))}
          >
            {advanceLabel(state.gameState)}
          </button>
          <span class="hint">Any seated player can move the game on.</span>
        </p>
      ) : (
        <p class="hint" data-testid="advance-hint">
          Seated players move the game on.
        </p>
      )}
    </section>
  );
}
