// A deliberately simple reference evaluator, used only by tests. Nothing clever: a five-card
// hand is ranked as [category, tie-break ranks...] compared lexicographically, and a larger
// hand is the best of all its five-card subsets.

type NaiveRank = number[];

export const CATEGORY = {
  HighCard: 0,
  Pair: 1,
  TwoPair: 2,
  ThreeOfAKind: 3,
  Straight: 4,
  Flush: 5,
  FullHouse: 6,
  FourOfAKind: 7,
  StraightFlush: 8,
} as const;

/** Ranks a hand of exactly five cards (card = rank * 4 + suit). */
export function naiveRank5(cards: readonly number[]): NaiveRank {
  if (cards.length !== 5) throw new Error("naiveRank5 needs five cards");
  const ranks = cards.map((c) => Math.floor(c / 4)).sort((a, b) => b - a);
  const suits = cards.map((c) => c % 4);
  const flush = suits.every((s) => s === suits[0]);

  // Groups of equal rank, biggest group first, then higher rank first.
  const groups: { rank: number; count: number }[] = [];
  for (const r of ranks) {
    const g = groups.find((x) => x.rank === r);
    if (g) g.count++;
    else groups.push({ rank: r, count: 1 });
  }
  groups.sort((a, b) => b.count - a.count || b.rank - a.rank);
  const counts = groups.map((g) => g.count).join("");
  const byGroup = groups.map((g) => g.rank);

  let straightHigh = -1;
  if (groups.length === 5) {
    if (ranks[0]! - ranks[4]! === 4) straightHigh = ranks[0]!;
    if (ranks.join(",") === "12,3,2,1,0") straightHigh = 3; // A-2-3-4-5: five high
  }

  if (straightHigh >= 0 && flush) return [CATEGORY.StraightFlush, straightHigh];
  if (counts === "41") return [CATEGORY.FourOfAKind, ...byGroup];
  if (counts === "32") return [CATEGORY.FullHouse, ...byGroup];
  if (flush) return [CATEGORY.Flush, ...ranks];
  if (straightHigh >= 0) return [CATEGORY.Straight, straightHigh];
  if (counts === "311") return [CATEGORY.ThreeOfAKind, ...byGroup];
  if (counts === "221") return [CATEGORY.TwoPair, ...byGroup];
  if (counts === "2111") return [CATEGORY.Pair, ...byGroup];
  return [CATEGORY.HighCard, ...ranks];
}

export function compareNaive(a: NaiveRank, b: NaiveRank): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** Every k-element subset of items, in order. */
export function combinations<T>(items: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  const out: T[][] = [];
  for (let i = 0; i <= items.length - k; i++) {
    for (const rest of combinations(items.slice(i + 1), k - 1)) out.push([items[i]!, ...rest]);
  }
  return out;
}

/** Best five-card rank among 5..7 cards. */
export function naiveBest(cards: readonly number[]): NaiveRank {
  let best: NaiveRank = [-1];
  for (const five of combinations(cards, 5)) {
    const r = naiveRank5(five);
    if (compareNaive(r, best) > 0) best = r;
  }
  return best;
}

interface NaiveEquity {
  wins: number[];
  draws: number[];
  boards: number;
}

/** Exact equity by brute force: every completion of the board, every hand ranked naively. */
export function naiveEquity(hands: readonly (readonly number[])[], board: readonly number[]): NaiveEquity {
  const used = new Set([...hands.flat(), ...board]);
  const deck = Array.from({ length: 52 }, (_, i) => i).filter((c) => !used.has(c));
  const wins = hands.map(() => 0);
  const draws = hands.map(() => 0);
  let boards = 0;
  for (const extra of combinations(deck, 5 - board.length)) {
    const full = [...board, ...extra];
    const ranks = hands.map((h) => naiveBest([...h, ...full]));
    let best = ranks[0]!;
    for (const r of ranks) if (compareNaive(r, best) > 0) best = r;
    const winners = ranks.flatMap((r, i) => (compareNaive(r, best) === 0 ? [i] : []));
    if (winners.length === 1) wins[winners[0]!]!++;
    else for (const i of winners) draws[i]!++;
    boards++;
  }
  return { wins, draws, boards };
}
