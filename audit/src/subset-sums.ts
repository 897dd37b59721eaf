// Whether a gap between the wallet and the tables is what some of the open items account for: each
// open transfer (or undelivered credit) has either reached the other side or not, so the gap must be
// the sum of some subset of their amounts.

/** "undecided" when the search would take longer than it may: the gateway's event loop waits for it. */
export type SubsetSum = "yes" | "no" | "undecided";

/**
 * Partial sums tried, over all amounts: the work, which many equal amounts make about n × n however few
 * distinct sums there are. Some tens of milliseconds (about 30 ns a step).
 */
const MAX_STEPS = 2_000_000;

/** Distinct partial sums kept: the memory, which distinct amounts make double with each one. */
const MAX_PARTIAL_SUMS = 1 << 16;

/**
 * "yes" when `target` is the sum of some subset of `amounts` (0 always is: the empty subset), "no"
 * when it is not. Amounts of 0 or less contribute nothing. Without a search: a target outside 0 to the
 * sum of all amounts, or not a multiple of their greatest common divisor, is not. A search longer than
 * the bounds above answers "undecided", never "yes".
 */
export function subsetSum(target: bigint, amounts: readonly bigint[]): SubsetSum {
  const positive = amounts.filter((amount) => amount > 0n);
  const total = positive.reduce((sum, amount) => sum + amount, 0n);
  if (target === 0n || target === total) return "yes";
  if (target < 0n || target > total || target % positive.reduce(gcd) !== 0n) return "no";
  const reachable = new Set<bigint>([0n]);
  let steps = 0;
  for (const amount of positive) {
    steps += reachable.size;
    if (steps > MAX_STEPS || reachable.size > MAX_PARTIAL_SUMS) return "undecided";
    for (const sum of [...reachable]) {
      const next = sum + amount;
      if (next === target) return "yes";
      if (next < target) reachable.add(next);
    }
  }
  return "no";
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
