// The table service's pure domain: (snapshot, command, now) -> next snapshot and result. No I/O.

export * from "./types.js";
export { sumCents } from "./money.js";
export {
  type TableMoney,
  emptyTable,
  gameNumberOf,
  isConserved,
  markDelivered,
  owesNewCredit,
  tableMoney,
} from "./snapshot.js";
export * from "./seats.js";
export * from "./after-debit.js";
export * from "./bets.js";
export * from "./advance.js";
export { assertTruePrices } from "./true-prices.js";
export { UntrueOddsAnswerError } from "./untrue-odds-answer.js";
export * from "./lobby.js";
export * from "./view.js";
export * from "./exported-game.js";
export { sealRestored } from "./restore.js";
export { dealtCards, withCommittedDeck } from "./cards.js";
