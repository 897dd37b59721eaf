/**
 * An odds service's answer that is not what the game's cards make: a malformed panel, prices or
 * river winners other than the table's own. An internal fault: nothing is stored and the
 * advance fails. The adapter counts each one (table_odds_answers_refused_total), for operators to
 * alert on: an honest odds service never gives one.
 */
export class UntrueOddsAnswerError extends RangeError {}
