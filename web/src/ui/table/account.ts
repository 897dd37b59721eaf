import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, unwrap, type TableState } from "../../api/client";

/** The account balance as last read from the profile: null until read, "unavailable" when a read failed. */
export type AccountBalance = number | "unavailable" | null;

/**
 * The table stores a state before the wallet credits the player: at a river, a player who left with
 * bets; at a leave (from another tab), the seat's chips. The account is read again this long after,
 * or the read made at that state may come first.
 */
const AFTER_CREDIT_MS = 1_000;

/**
 * The player's account balance at the table, read from the profile (the lobby's source) rather than
 * worked out from answers: on opening, after each move that may change it (`reread`), when the
 * player's own seat balance rises but for a payout (a top-up from another tab moves both, also at the
 * river; a bet and a payout move the seat alone, and a read per bet would spend the player's rate limit), each time
 * the game moves on while the player is not seated (payouts and a void game's refunds then go to the
 * account, read again shortly after a river and after the seat went), and when the page comes back
 * online or into view.
 */
export function useAccountBalance(playerId: string, state: TableState | null) {
  const [balance, setBalance] = useState<AccountBalance>(null);
  const [reads, setReads] = useState(0);
  const reread = useCallback(() => setReads((n) => n + 1), []);
  const seat = state?.seats.find((s) => s.playerId === playerId);
  const topUps = useSeatTopUps(seat?.seatBalance, state);
  const moved = !state ? null : seat ? `top-ups ${topUps}` : `${state.gameId} ${state.gameState}`;
  const unseatedRiver = state !== null && !seat && state.gameState === "STATUS_RIVER";
  const leaves = useLeaves(seat !== undefined);
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
  }, [playerId, reads, moved]);

  // What the wallet may credit after the state shows it: each has the account read again.
  useReadAgainAfter(unseatedRiver ? `river ${state.gameId}` : null, reread);
  useReadAgainAfter(leaves > 0 ? `leave ${leaves}` : null, reread);

  useEffect(() => {
    const whenVisible = () => document.visibilityState === "visible" && reread();
    window.addEventListener("online", reread);
    document.addEventListener("visibilitychange", whenVisible);
    return () => {
      window.removeEventListener("online", reread);
      document.removeEventListener("visibilitychange", whenVisible);
    };
  }, [reread]);

  const isAdmin = useCallback(() => role.current === "ADMIN", []);

  return { balance, reread, isAdmin };
}

/** Reads the account again AFTER_CREDIT_MS after `key` becomes another non-null value. */
function useReadAgainAfter(key: string | null, reread: () => void): void {
  useEffect(() => {
    if (key === null) return;
    const timer = setTimeout(reread, AFTER_CREDIT_MS);
    return () => clearTimeout(timer);
  }, [key, reread]);
}

/** How often the player's seat went away (a leave, from this tab or another): leaves seen. */
function useLeaves(seated: boolean): number {
  const seen = useRef({ seated, leaves: 0 });
  if (seen.current.seated && !seated) seen.current.leaves++;
  seen.current.seated = seated;
  return seen.current.leaves;
}

/**
 * How often the seat balance rose other than on the river's arrival (whose rise is a payout): top-ups
 * seen, also one made from another tab while the game waits at its river.
 */
function useSeatTopUps(seatBalance: number | undefined, state: TableState | null): number {
  const stage = state ? `${state.gameId} ${state.gameState}` : undefined;
  const seen = useRef({ balance: seatBalance, stage, rises: 0 });
  const last = seen.current;
  const payout = state?.gameState === "STATUS_RIVER" && stage !== last.stage;
  if (seatBalance !== undefined && last.balance !== undefined && seatBalance > last.balance && !payout) {
    last.rises++;
  }
  Object.assign(last, { balance: seatBalance, stage });
  return last.rises;
}

/** What the table's moves know of the account: to read it again, and whose it is. */
export type AccountLink = Pick<ReturnType<typeof useAccountBalance>, "reread" | "isAdmin">;
