// What a seat is called on the screen. A display name comes from the player's identity provider and
// is nobody's to reserve: two players may both be "Alice", or one may be named after another's id.
// Such a seat also shows its playerId, so that nobody passes for another at the table.

/** What naming a seat reads of it. */
type Named = { playerId: string; playerName: string };

/** Each seat's label by playerId: its name (its id when it has none), and its id beside a name another seat shows. */
export function seatLabels(seats: readonly Named[]): Map<string, string> {
  const shown = (seat: Named) => seat.playerName || seat.playerId;
  const labels = new Map<string, string>();
  for (const seat of seats) {
    const name = shown(seat);
    const mistakable = seats.some(
      (other) => other.playerId !== seat.playerId && (shown(other) === name || other.playerId === name),
    );
    labels.set(seat.playerId, mistakable && name !== seat.playerId ? `${name} (${seat.playerId})` : name);
  }
  return labels;
}
