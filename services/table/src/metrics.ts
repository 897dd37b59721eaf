// Domain counters for Prometheus, beside the per-RPC latency histogram common records.
import { counter, gauge } from "@pokerodds/common";

export const betsAccepted = counter(
  "table_bets_accepted_total",
  "Bets answered ACK (replays of an accepted bet included)",
);
export const gamesFinished = counter("table_games_finished_total", "Games recorded as finished, by outcome", [
  "outcome",
]);
export const oddsAnswersRefused = counter(
  "table_odds_answers_refused_total",
  "Advances refused because the odds service's prices were not what the game's cards make (alert on any)",
);
export const payoutsCents = counter("table_payouts_cents_total", "Cents paid to winning bets in finished games");
export const transfersPending = gauge(
  "table_transfers_pending",
  "Sit, top-up and leave transfers not finished yet, as of the last recovery pass",
);
export const creditsRefused = counter(
  "table_credits_refused_total",
  "Credits to players' accounts the wallet refused (only at the account's balance limit): each stays owed and is sent again",
);
export const watchStreams = gauge("table_watch_streams", "WatchTable streams open on this replica");
