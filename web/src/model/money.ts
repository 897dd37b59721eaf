// Money as the API prints it (units, at most 2 decimals) and as it is summed here (integer cents).

const format = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const toCents = (units: number): number => Math.round(units * 100);

/** "1,234.50": always two decimals. */
export const formatMoney = (units: number): string => format.format(units);

export const formatCents = (cents: number): string => format.format(cents / 100);

const signed = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: "exceptZero",
});

/** "+12.50", "-3.00" or "0.00": a gain or a loss. */
export const formatSignedCents = (cents: number): string => signed.format(cents / 100);

/** The largest amount of one move: the API's `maximum` for every amount (its OpenAPI document). */
export const MAX_AMOUNT = 1_000_000_000;

/** A typed amount as the API takes it, or why it is not one. */
export function parseAmount(text: string): { amount: number } | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { problem: "Enter an amount." };
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed))
    return { problem: "Enter an amount such as 10 or 12.50 (at most 2 decimals)." };
  const amount = Number(trimmed);
  if (amount <= 0) return { problem: "The amount must be more than 0." };
  if (amount > MAX_AMOUNT) return { problem: `The amount can be at most ${formatMoney(MAX_AMOUNT)}.` };
  return { amount };
}

/**
 * What a winning bet pays, as the table settles it: stake x odds / winners, rounded down to the
 * cent. Odds are displayed to one decimal, so odds x 10 is an integer and the sum stays exact.
 */
export function payoutCents(stake: number, odds: number, winners: number): number {
  return Math.floor((toCents(stake) * Math.round(odds * 10)) / (10 * winners));
}
