import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { Seat, TableState } from "../../api/client";
import { formatMoney } from "../../model/money";
import { advanceFrom, advanceLabel } from "../../model/stages";
import { AmountForm } from "../AmountForm";
import { Notice } from "../Notice";
import type { useAction } from "../use-action";
import type { AccountBalance } from "./account";
import type { TableMoves } from "./moves";

interface Props {
  state: TableState;
  seat: Seat | undefined;
  account: AccountBalance;
  moves: TableMoves;
  action: ReturnType<typeof useAction>;
}

/** Where a refused buy-in or top-up (a NACK or a typo) is told: beside its form. */
const SEAT_FORM = "seat-form";

/** Sit, top up, leave, and move the game on. */
export function SeatControls({ state, seat, account, moves, action }: Props) {
  const refusal = <Notice message={action.message} place={SEAT_FORM} onDismiss={() => action.setMessage(null)} />;
  return (
    <section aria-labelledby="seat-title" class="panel">
      <h2 id="seat-title">{seat ? "Your seat" : "Take a seat"}</h2>
      {seat ? (
        <>
          <p class="balances">
            <span>
              Seat {seat.seatId}, balance <strong data-testid="my-seat-balance">{formatMoney(seat.seatBalance)}</strong>
            </span>
            <Account balance={account} />
          </p>
          <AdvanceControl state={state} moves={moves} action={action} />
          <SeatMoney state={state} moves={moves} action={action} refusal={refusal} />
        </>
      ) : (
        <>
          <p class="balances">
            <Account balance={account} />
          </p>
          <SitDown state={state} moves={moves} action={action} />
          {refusal}
          {/* Only a seated player (or an admin, through the API) may move the game on. */}
          <p class="hint" data-testid="advance-hint">
            Seated players move the game on.
          </p>
        </>
      )}
    </section>
  );
}

type Part = Omit<Props, "seat" | "account">;

/** The lobby's account, beside the seat: buy-ins and top-ups come from it, leaving pays into it. */
function Account({ balance }: { balance: AccountBalance }) {
  if (balance === null) return null;
  return (
    <span>
      Account:{" "}
      <strong data-testid="my-account-balance">
        {balance === "unavailable" ? "cannot be read just now" : formatMoney(balance)}
      </strong>
    </span>
  );
}

/** The game's main action, first under the balance. */
function AdvanceControl({ state, moves, action }: Part) {
  // An advance waits for the odds service's prices: seconds at worst, said while it runs.
  const [advancing, setAdvancing] = useState(false);
  const from = advanceFrom(state);
  if (!from) return null;
  const advance = async () => {
    if (action.busy) return; // another move runs: this click starts nothing
    setAdvancing(true);
    await action.run(() => moves.advance(from, state.seedCommitment));
    setAdvancing(false);
  };
  return (
    <p class="controls">
      <button type="button" class="primary" aria-disabled={action.busy} onClick={() => void advance()}>
        {advanceLabel(state.gameState)}
      </button>
      <span class="hint">Any seated player can move the game on.</span>
      <span class="hint" role="status">
        {advancing ? "Moving the game on: this can take a few seconds…" : ""}
      </span>
    </p>
  );
}

/**
 * Top up and leave in one row, set apart from the deal button so Leave is not pressed in its place;
 * a refusal of the top-up shows under its form, Leave then under the refusal.
 */
function SeatMoney({ state, moves, action, refusal }: Part & { refusal: JSX.Element }) {
  const { busy, run } = action;
  return (
    <div class="controls seat-money">
      <AmountForm
        label="Top-up amount"
        button="Top up"
        initial="50"
        busy={busy}
        onAmount={(amount) => void run(() => moves.topup(amount), { form: SEAT_FORM })}
        {...action.amountField(SEAT_FORM)}
      />
      {refusal}
      <button type="button" class="leave" aria-disabled={busy} onClick={() => void run(() => moves.leave(state))}>
        Leave the table
      </button>
    </div>
  );
}

function SitDown({ state, moves, action }: Part) {
  if (state.seats.length >= state.numberOfSeats) {
    return (
      <p data-testid="table-full">
        This table is full ({state.seats.length} of {state.numberOfSeats} seats): watch, or come back later.
      </p>
    );
  }
  return (
    <AmountForm
      label="Buy-in amount"
      button="Sit down"
      initial="100"
      busy={action.busy}
      onAmount={(amount) => void action.run(() => moves.sit(amount), { form: SEAT_FORM })}
      {...action.amountField(SEAT_FORM)}
      testId="sit-form"
    />
  );
}
