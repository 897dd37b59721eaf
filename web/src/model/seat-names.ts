// What a seat is called on the screen. A display name comes from the player's identity provider and
// is nobody's to reserve: two players may both be "Alice", one may be "alice " or "Аlice" (a Cyrillic
// А), or be named after another's id, or copy the form "Alice (alice-1)" this file gives a label.
// A seat whose name reads as another seat's shows its playerId beside it, so that nobody passes
// for another at the table.
import { withoutBlanks } from "@pokerodds/common/limits";

/** What naming a seat reads of it. */
type Named = { playerId: string; playerName: string };

/** Latin letters' look-alikes in Cyrillic and Greek, the ones a name can borrow unseen. */
const LOOK_ALIKES: Record<string, string> = {
  а: "a",
  в: "b",
  е: "e",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  і: "i",
  ј: "j",
  ѕ: "s",
  α: "a",
  β: "b",
  ε: "e",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ζ: "z",
  η: "n",
};

/** How a name reads: its letters folded (case, width, look-alikes), its blanks and a "(...)" at its end left out. */
function reading(name: string): string {
  const folded = withoutBlanks(
    name
      .normalize("NFKC")
      .toLowerCase()
      .replace(/\([^()]*\)$/u, ""),
  );
  return [...folded].map((char) => LOOK_ALIKES[char] ?? char).join("");
}

/** Each seat's label by playerId: its name (its id when it has none), and its id beside a name another seat's reads as. */
export function seatLabels(seats: readonly Named[]): Map<string, string> {
  const shown = (seat: Named) => seat.playerName || seat.playerId;
  const labels = new Map<string, string>();
  for (const seat of seats) {
    const name = shown(seat);
    const read = reading(name);
    const mistakable = seats.some(
      (other) =>
        other.playerId !== seat.playerId && (reading(shown(other)) === read || reading(other.playerId) === read),
    );
    labels.set(seat.playerId, mistakable && name !== seat.playerId ? `${name} (${seat.playerId})` : name);
  }
  return labels;
}
