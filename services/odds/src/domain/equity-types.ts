// The result shape shared by the exact and the Monte Carlo equity (see equity.ts).

/** Percentages 0..100 per hand. win: this hand alone has the best hand; draw: it ties for best. */
export interface Equity {
  winPercent: number[];
  drawPercent: number[];
  /** Boards counted: every completion (exact, each counted once) or the iterations (Monte Carlo). */
  boards: number;
}
