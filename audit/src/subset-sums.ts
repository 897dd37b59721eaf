// Whether a gap between the wallet and the tables is what some of the open items account for: each
// open transfer (or undelivered credit) has either reached the other side or not, so the gap must be
// the sum of some subset of their amounts.

/** Above this many distinct partial sums the exact answer is not worth the memory: the range decides. */
const MAX_PARTIAL_SUMS = 1 << 16;

/**
 * True when `target` is the sum of some subset of `amounts` (0 always is: the empty subset). Amounts
 * of 0 or less contribute nothing. With very many distinct partial sums it answers whether target lies
 * between 0 and the sum of all amounts instead.
 */
export function isSubsetSum(target: bigint, amounts: readonly bigint[]): boolean {
  const positive = amounts.filter((amount) => amount > 0n);
  const total = positive.reduce((sum, amount) => sum + amount, 0n);
  if (target === 0n || target === total) return true;
  if (target < 0n || target > total) return false;
  const reachable = new Set<bigint>([0n]);
  for (const amount of positive) {
    for (const sum of [...reachable]) {
      const next = sum + amount;
      if (next === target) return true;
      if (next < target) reachable.add(next);
    }
    if (reachable.size > MAX_PARTIAL_SUMS) return true;
  }
  return false;
}
