// The result shape shared by the exact and the Monte Carlo equity (see equity.ts).

/** An exact fraction numerator / denominator: safe integers, 0 <= numerator, 0 < denominator. */
export interface Fraction {
  numerator: number;
  denominator: number;
}

/** Percentages 0..100 per hand. win: this hand alone has the best hand; draw: it ties for best. */
export interface Equity {
  winPercent: number[];
  drawPercent: number[];
  /**
   * The hand's dead-heat share of the win, in percent: P(wins alone) plus, for every board it ties
   * on with k - 1 other hands, P(board) / k. It is what a bet on the hand collects on average per
   * unit of odds, since the payout rule pays odds / k on a k-way tie; the shares of all hands add
   * up to 100.
   */
  sharePercent: number[];
  /** The same shares exactly, as fractions of 1 (pricing divides by them; see pricing.ts). */
  shares: Fraction[];
  /** Boards counted: every completion (exact, each counted once) or the iterations (Monte Carlo). */
  boards: number;
}
