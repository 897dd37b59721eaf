// Card codes as the API writes them: rank (2-9, T, J, Q, K, A) then suit (c, d, h, s).

const RANK_NAMES: Record<string, string> = { T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
const NUMBER_NAMES = ["", "", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"];
const SUITS: Record<string, { symbol: string; name: string; red: boolean }> = {
  c: { symbol: "♣", name: "clubs", red: false },
  d: { symbol: "♦", name: "diamonds", red: true },
  h: { symbol: "♥", name: "hearts", red: true },
  s: { symbol: "♠", name: "spades", red: false },
};

interface CardFace {
  code: string;
  rank: string;
  symbol: string;
  red: boolean;
  /** "Ace of spades", for screen readers. */
  name: string;
}

export function cardFace(code: string): CardFace {
  const rank = code.charAt(0);
  const suit = SUITS[code.charAt(1)] ?? { symbol: "?", name: "unknown suit", red: false };
  const rankName = RANK_NAMES[rank] ?? NUMBER_NAMES[Number(rank)] ?? rank;
  return {
    code,
    rank: rank === "T" ? "10" : rank,
    symbol: suit.symbol,
    red: suit.red,
    name: `${rankName} of ${suit.name}`,
  };
}

/** "AhKd" to ["Ah", "Kd"]. */
export const holeCards = (hand: string): string[] => [hand.slice(0, 2), hand.slice(2, 4)];

/** "Ah Kd Qs" to its codes. */
export const cardList = (text: string | null | undefined): string[] => (text ? text.split(" ").filter(Boolean) : []);
