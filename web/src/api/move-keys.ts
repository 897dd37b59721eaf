// Idempotency-Keys for a player's moves, kept while a move's outcome is unknown. Free of imports, so
// that it runs under Node's tests as it is.

/** No answer (status 0) or the server's failure (5xx): the move may have been made. */
function uncertain(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && (status === 0 || status >= 500);
}

/**
 * The advice a money move's 5xx gives an API client (the move may still be made; send it again
 * under its Idempotency-Key, or retry with it), from its first clause on: this page follows it
 * itself and says so in the player's words.
 */
const KEY_ADVICE =
  /(?:\.\s*A money move)?\s*[:;]\s*(?:the move may still be made|retry with the same idempotency key)\b.*$/is;

/** The server's words on why a move was not confirmed, without that advice and the closing stop. */
const serverReason = (message: string): string => message.replace(KEY_ADVICE, "").replace(/\.$/, "");

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
      : `The table could not finish this move just now (the server said: ${serverReason(String(message))})`;
  return `${why}, so it may or may not have been made: the table below shows which. Try again in a moment: doing the same again from this page will not make it twice.`;
}

/** Each place's moves not confirmed, by move: kept for the page's life, so leaving a table's screen loses none. */
const unsettledAt = new Map<string, Map<string, string>>();

/**
 * Sends each move under an Idempotency-Key kept until its outcome is known. After a network fault or
 * a 5xx the move may have been made, so the same move sent again, whatever other moves came between,
 * carries the same key and the server answers its first result rather than making it twice. Only an
 * answer to the move ends its key: a refusal of a resend (a 429 at the edge, a 401 of an expired
 * token) may come before the server looked the key up, so the first send is still unknown. A later
 * move with the same terms is a new one once the key ended. `send` learns whether it resends a move
 * not confirmed, whose answer then confirms that one rather than a new one.
 *
 * `place` names whose moves where (a player at a table): its keys outlive the screen that made them,
 * for the page's life. `forget` ends the kept keys of the moves it names: after a seat is taken or
 * left, the retry of an earlier sit, top-up or leave would be a new move, not that one.
 */
export function keyedMoves(place: string, newKey: () => string, refresh: () => void) {
  // Each unconfirmed move's key: a bet names its game and stage, so a key outlives neither.
  const unsettled = unsettledAt.get(place) ?? new Map<string, string>();
  unsettledAt.set(place, unsettled);
  const send = async <T>(move: string, request: (key: string, resent: boolean) => Promise<T>): Promise<T> => {
    const kept = unsettled.get(move);
    const key = kept ?? newKey();
    try {
      const answer = await request(key, kept !== undefined);
      unsettled.delete(move);
      return answer;
    } catch (error) {
      if (uncertain(error)) {
        unsettled.set(move, key);
        // Whether it was made shows on the table.
        refresh();
      } else if (kept === undefined || answered(error)) {
        unsettled.delete(move);
      }
      throw error;
    }
  };
  const forget = (ended: (move: string) => boolean) => {
    for (const move of [...unsettled.keys()]) if (ended(move)) unsettled.delete(move);
  };
  return { send, forget };
}

/**
 * A failure that answers the move itself, so the server looked its key up: a NACK (a 200 the client
 * raises as a refusal), or a 422 (the key was used for other terms).
 */
function answered(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && ((status >= 200 && status < 300) || status === 422);
}
