// Human-readable description of a hand's best five cards.

import { InvalidArgumentError } from "@pokerodds/common/errors";
import { rankOf, type Card } from "@pokerodds/common/poker/cards";
import { HandCategory, evaluate5, handCategory } from "@pokerodds/common/poker/evaluator";

interface HandDescription {
  /** The best five cards, most significant first (see orderBestFive). */
  bestFive: Card[];
  /** "High Card" ... "Straight Flush", or "Royal Flush". */
  short: string;
  /** e.g. "Full House, Queens over Fours". */
  long: string;
}

const RANK_NAMES = "Two Three Four Five Six Seven Eight Nine Ten Jack Queen King Ace".split(" ");
const RANK_PLURALS = "Twos Threes Fours Fives Sixes Sevens Eights Nines Tens Jacks Queens Kings Aces".split(" ");

const SHORT_NAMES: Record<HandCategory, string> = {
  [HandCategory.HighCard]: "High Card",
  [HandCategory.Pair]: "Pair",
  [HandCategory.TwoPair]: "Two Pair",
  [HandCategory.ThreeOfAKind]: "Three of a Kind",
  [HandCategory.Straight]: "Straight",
  [HandCategory.Flush]: "Flush",
  [HandCategory.FullHouse]: "Full House",
  [HandCategory.FourOfAKind]: "Four of a Kind",
  [HandCategory.StraightFlush]: "Straight Flush",
};

const name = (c: Card | undefined): string => RANK_NAMES[rankOf(c ?? 0)]!;
const plural = (c: Card | undefined): string => RANK_PLURALS[rankOf(c ?? 0)]!;

/**
 * Orders five cards most significant first: bigger rank groups first (quads, trips, pairs),
 * higher ranks first within a group size, higher suit first within a rank; straights run from
 * the top card down, with the wheel as 5-4-3-2-A.
 */
function orderBestFive(five: Card[], category: HandCategory): Card[] {
  const count = new Uint8Array(13);
  for (const c of five) count[rankOf(c)]!++;
  const sorted = [...five].sort((x, y) => count[rankOf(y)]! - count[rankOf(x)]! || y - x);
  const straight = category === HandCategory.Straight || category === HandCategory.StraightFlush;
  if (straight && rankOf(sorted[0]!) === 12 && rankOf(sorted[1]!) === 3) sorted.push(sorted.shift()!);
  return sorted;
}

/** Lexicographic comparison of two equally long card lists by card number. */
function compareCards(x: readonly Card[], y: readonly Card[]): number {
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/**
 * Describes the best five of 5..7 distinct cards. Among several five-card choices of equal
 * value, the one whose ordered bestFive is greatest card by card (card = rank * 4 + suit, so
 * the higher suit, in order c < d < h < s, at the first difference) is chosen.
 */
export function describeHand(cards: readonly Card[]): HandDescription {
  const n = cards.length;
  if (n < 5 || n > 7) throw new InvalidArgumentError(`a hand needs 5 to 7 cards, got ${n}`);
  const seen = new Set<number>();
  for (const c of cards) {
    if (!Number.isInteger(c) || c < 0 || c > 51) throw new InvalidArgumentError(`invalid card ${c}`);
    if (seen.has(c)) throw new InvalidArgumentError(`duplicate card ${c}`);
    seen.add(c);
  }

  let bestValue = -1;
  let best: Card[] = [];
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++)
        for (let d = c + 1; d < n; d++)
          for (let e = d + 1; e < n; e++) {
            const five = [cards[a]!, cards[b]!, cards[c]!, cards[d]!, cards[e]!];
            const value = evaluate5(...(five as [Card, Card, Card, Card, Card]));
            if (value < bestValue) continue;
            const ordered = orderBestFive(five, handCategory(value));
            if (value > bestValue || compareCards(ordered, best) > 0) {
              bestValue = value;
              best = ordered;
            }
          }

  const category = handCategory(bestValue);
  const [c0, , c2, c3, c4] = best;
  let short = SHORT_NAMES[category];
  let long: string;
  // One case per category, alike on purpose: each names its hand its own way.
  switch (category) {
    case HandCategory.HighCard:
      long = `High Card, ${name(c0)}`;
      break;
    case HandCategory.Pair:
      long = `Pair of ${plural(c0)}`;
      break;
    case HandCategory.TwoPair:
      long = `Two Pair, ${plural(c0)} and ${plural(c2)}`;
      break;
    case HandCategory.ThreeOfAKind:
      long = `Three of a Kind, ${plural(c0)}`;
      break;
    case HandCategory.Straight:
      long = `Straight, ${name(c4)} to ${name(c0)}`;
      break;
    case HandCategory.Flush:
      long = `Flush, ${name(c0)} High`;
      break;
    case HandCategory.FullHouse:
      long = `Full House, ${plural(c0)} over ${plural(c3)}`;
      break;
    case HandCategory.FourOfAKind:
      long = `Four of a Kind, ${plural(c0)}`;
      break;
    case HandCategory.StraightFlush:
      if (rankOf(c0!) === 12) {
        short = "Royal Flush";
        long = "Royal Flush";
      } else long = `Straight Flush, ${name(c4)} to ${name(c0)}`;
      break;
  }
  return { bestFive: best, short, long };
}
