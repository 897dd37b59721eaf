// A table's refusal (a NACK: still HTTP 200, with one of the contract's fixed reasons, TableRefusal)
// in the player's words, with the amounts the client knows: what was asked for and the balance that
// falls short of it.
import type { components } from "../generated/api";
import { formatMoney } from "./money";

/** A refused move: what it asked for, and what its answer (or the screen) says of the balances. */
interface Refusal {
  /** The server's reason, as the NACK gives it. */
  reason: string;
  move: "sit" | "topup" | "bet";
  /** The buy-in, the top-up or the stake. */
  amount: number;
  seatBalance?: number;
  /** The seat the player already holds, on a sit refused for that. */
  seatId?: number;
  accountBalance?: number;
}

export interface Explained {
  text: string;
  /** The amount asked for is what the table refused (a balance falls short of it). */
  amountAtFault: boolean;
}

const MOVE_NAMES: Record<Refusal["move"], string> = { sit: "buy-in", topup: "top-up", bet: "bet" };

/** "Your seat holds 12.00; this bet is 50.00.", or less when the balance is not known. */
function shortOf(holder: string, balance: number | undefined, { move, amount }: Refusal): Explained {
  const asked = `this ${MOVE_NAMES[move]}`;
  const text =
    balance === undefined
      ? `${holder} does not cover ${asked} of ${formatMoney(amount)}.`
      : `${holder} holds ${formatMoney(balance)}; ${asked} is ${formatMoney(amount)}.`;
  return { text, amountAtFault: true };
}

/** A reason this client does not know: the server's own text. */
export function serverRefusal(reason: string): Explained {
  return { text: reason ? `Refused: ${reason}.` : "The table refused the request.", amountAtFault: false };
}

// From the generated contract, not the client: the client imports this module.
type Reason = components["schemas"]["TableRefusal"];

/** Every reason the contract lists, worded: one it adds fails the typecheck until it is worded here. */
const WORDED: Record<Reason, (refusal: Refusal) => Explained> = {
  "insufficient seat balance": (refusal) => shortOf("Your seat", refusal.seatBalance, refusal),
  "insufficient account balance": (refusal) => shortOf("Your account", refusal.accountBalance, refusal),
  "table full": () => ({ text: "This table is full: another player took the last seat first.", amountAtFault: false }),
  "already seated at this table": (refusal) => ({ text: alreadySeated(refusal), amountAtFault: false }),
  "table money limit reached": () => ({
    text: "This table takes no more money: it has taken in all it can. Take a seat at another table.",
    amountAtFault: false,
  }),
};

const isReason = (reason: string): reason is Reason => Object.hasOwn(WORDED, reason);

export function explainRefusal(refusal: Refusal): Explained {
  return isReason(refusal.reason) ? WORDED[refusal.reason](refusal) : serverRefusal(refusal.reason);
}

function alreadySeated({ seatId, seatBalance }: Refusal): string {
  if (seatId === undefined || seatBalance === undefined) return "You already hold a seat at this table.";
  return `You already hold seat ${seatId} at this table, with ${formatMoney(seatBalance)}.`;
}
