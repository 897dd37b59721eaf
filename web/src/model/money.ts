// Money as the API prints it (units, at most 2 decimals) and as it is summed here (integer cents).
import { MAX_AMOUNT_UNITS } from "@pokerodds/common/limits";
import { payoutOf } from "@pokerodds/common/payout";

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

/** A typed amount as the API takes it, or why it is not one. */
export function parseAmount(text: string): { amount: number } | { problem: string } {
  // Thousands grouped as the page writes amounts ("1,000.00") are taken; any other comma is not a
  // decimal point here ("10,50" is refused, not read as 1050).
  const trimmed = text.trim();
  const ungrouped = /^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(trimmed) ? trimmed.replaceAll(",", "") : trimmed;
  if (trimmed === "") return { problem: "Enter an amount." };
  if (trimmed.includes(",") && ungrouped === trimmed)
    return { problem: "Use a point for cents, such as 12.50; a comma only between thousands, as in 1,000." };
  if (!/^\d+(\.\d{1,2})?$/.test(ungrouped))
    return { problem: "Enter an amount such as 10 or 12.50 (at most 2 decimals)." };
  const amount = Number(ungrouped);
  if (amount <= 0) return { problem: "The amount must be more than 0." };
  if (amount > MAX_AMOUNT_UNITS) return { problem: `The amount can be at most ${formatMoney(MAX_AMOUNT_UNITS)}.` };
  return { amount };
}

/** What a winning bet pays, as the table settles it (odds are shown to one decimal: tenths). */
export const payoutCents = (stake: number, odds: number, winners: number): number =>
  payoutOf(toCents(stake), Math.round(odds * 10), winners).payoutCents;
