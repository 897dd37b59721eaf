import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, unwrap, type TableState } from "../../api/client";

/** The account balance as last read from the profile: null until read, "unavailable" when a read failed. */
export type AccountBalance = number | "unavailable" | null;

/**
 * The player's account balance at the table, read from the profile (the lobby's source) rather than
 * worked out from answers: on opening, after each move that may change it (`reread`), and each time
 * the game moves on while the player is not seated, since payouts and a void game's refunds then go
 * to the account.
 */
export function useAccountBalance(playerId: string, state: TableState | null) {
  const [balance, setBalance] = useState<AccountBalance>(null);
  const [reads, setReads] = useState(0);
  const reread = useCallback(() => setReads((n) => n + 1), []);
  const seated = state?.seats.some((seat) => seat.playerId === playerId) ?? false;
  const unseatedGame = state && !seated ? `${state.gameId} ${state.gameState}` : null;
  // Only the latest read is shown: an earlier one answering late would show an older balance.
  const latest = useRef(0);
  // The role as last read: an ADMIN deals without a client seed (moves.ts).
  const role = useRef<string | null>(null);

  useEffect(() => {
    const read = ++latest.current;
    const request = unwrap(api.GET("/api/players/{playerId}", { params: { path: { playerId } } }));
    request.then(
      (profile) => {
        if (read !== latest.current) return;
        role.current = profile.role;
        setBalance(profile.accountBalance);
      },
      () => read === latest.current && setBalance("unavailable"),
    );
  }, [playerId, reads, unseatedGame]);

  // For a move's refusal to name the balance on the screen when it answers, not at its start.
  const current = useRef(balance);
  current.current = balance;
  const shown = useCallback(() => (typeof current.current === "number" ? current.current : undefined), []);

  const isAdmin = useCallback(() => role.current === "ADMIN", []);

  return { balance, reread, shown, isAdmin };
}

/** What the table's moves know of the account: to read it again, its balance as shown, and whose it is. */
export type AccountLink = Pick<ReturnType<typeof useAccountBalance>, "reread" | "shown" | "isAdmin">;
