// Idempotency-Keys for a player's moves, kept while a move's outcome is unknown. Free of imports, so
// that it runs under Node's tests as it is.

/** No answer (status 0) or the server's failure (5xx): the move may have been made. */
function uncertain(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && (status === 0 || status >= 500);
}

/**
 * What a player is told when a move was not confirmed (no answer, or a 5xx): why (no answer, or the
 * server's own words), that it may have been made and the table shows whether, and that trying
 * again from this page is safe (a keyed move is never made twice, and a deal names the state it
 * deals from). Null for any other failure, whose own message holds.
 */
export function unconfirmedMessage(error: unknown): string | null {
  if (!uncertain(error)) return null;
  const { status, message } = error as { status: number; message?: unknown };
  const why =
    status === 0
      ? "No answer reached this page (the connection may have dropped)"
      : `The table could not finish this move just now (the server said: ${String(message).replace(/\.$/, "")})`;
  return `${why}, so it may or may not have been made: the table below shows which. Try again in a moment: doing the same again from this page will not make it twice.`;
}

/**
 * Sends each move under an Idempotency-Key kept until its outcome is known. After a network fault or
 * a 5xx the move may have been made, so the same move sent again, whatever other moves came between,
 * carries the same key and the server answers its first result rather than making it twice. A known
 * outcome ends the key: a later move with the same terms is a new one. `send` learns whether it
 * resends an unconfirmed move, whose answer then confirms that one rather than a new one.
 */
export function keyedMoves(newKey: () => string, refresh: () => void) {
  // Each unconfirmed move's key: a bet names its game and stage, so a key outlives neither.
  const unsettled = new Map<string, string>();
  return async <T>(move: string, send: (key: string, resent: boolean) => Promise<T>): Promise<T> => {
    const kept = unsettled.get(move);
    const key = kept ?? newKey();
    unsettled.delete(move);
    try {
      return await send(key, kept !== undefined);
    } catch (error) {
      if (uncertain(error)) {
        unsettled.set(move, key);
        // Whether it was made shows on the table.
        refresh();
      }
      throw error;
    }
  };
}
