// Idempotency-Keys for a player's moves, kept while a move's outcome is unknown. Free of imports, so
// that it runs under Node's tests as it is.

/** No answer (status 0) or the server's failure (5xx): the move may have been made. */
function uncertain(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && (status === 0 || status >= 500);
}

/**
 * Sends each move under an Idempotency-Key kept until its outcome is known. After a network fault or
 * a 5xx the move may have been made, so the same move sent next carries the same key and the server
 * answers its first result rather than making it twice. Any other move, or a known outcome, ends the
 * key: a later move with the same terms is a new one.
 */
export function keyedMoves(newKey: () => string, refresh: () => void) {
  let unsettled: { move: string; key: string } | undefined;
  return async <T>(move: string, send: (key: string) => Promise<T>): Promise<T> => {
    const key = unsettled?.move === move ? unsettled.key : newKey();
    unsettled = undefined;
    try {
      return await send(key);
    } catch (error) {
      if (uncertain(error)) {
        unsettled = { move, key };
        // Whether it was made shows on the table.
        refresh();
      }
      throw error;
    }
  };
}
