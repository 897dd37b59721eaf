// What a winning bet pays: stake x odds / k when k hands tie for the win (dead heat), rounded down
// to the cent. The table settles with it and the web client shows it before a bet. The product is
// formed in BigInt: 1e11 cents x 1e7 tenths exceeds 2^53.

interface Payout {
  payoutCents: number;
  /** payout + remainderNumerator / denominator is the exact amount, in cents. */
  remainderNumerator: number;
  denominator: number;
}

/** floor(betAmountCents x oddsTenths / (10 x winners)) and the exact remainder. */
export function payoutOf(betAmountCents: number, oddsTenths: number, winners: number): Payout {
  if (
    !Number.isSafeInteger(betAmountCents) ||
    betAmountCents < 0 ||
    !Number.isSafeInteger(oddsTenths) ||
    oddsTenths < 0
  ) {
    throw new RangeError("stake and odds must be non-negative integers");
  }
  if (!Number.isSafeInteger(winners) || winners < 1) throw new RangeError("there must be at least one winner");
  const denominator = 10n * BigInt(winners);
  const exact = BigInt(betAmountCents) * BigInt(oddsTenths);
  const payout = exact / denominator; // non-negative, so truncation is floor
  if (payout > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError("payout out of the exact integer range");
  return {
    payoutCents: Number(payout),
    remainderNumerator: Number(exact % denominator),
    denominator: Number(denominator),
  };
}
