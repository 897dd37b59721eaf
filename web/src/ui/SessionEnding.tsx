import { useEffect, useRef, useState } from "preact/hooks";

/** How long before its end a sign-in is said to be ending. */
const WARN_BEFORE_MS = 5 * 60_000;

interface Props {
  /** When the sign-in's token stops opening the API (epoch ms), or null when it does not say. */
  endsAt: number | null;
  /** The token has run out: signed out now, rather than at the next move, which would be lost. */
  onEnded(): void;
  /** The player chose to sign in again before the end. */
  onSignInAgain(): void;
}

/**
 * A notice in the last minutes of a sign-in: its token's end is the end of the session (the client
 * gets no new one without the player), and a move sent after it is refused, so the player is told in
 * time, and signed out at the end rather than on a bet that is then lost.
 */
export function SessionEnding({ endsAt, onEnded, onSignInAgain }: Props) {
  const [warn, setWarn] = useState(false);
  const ended = useRef(onEnded);
  ended.current = onEnded;

  useEffect(() => {
    setWarn(false);
    if (endsAt === null) return;
    const timers = [
      setTimeout(() => setWarn(true), Math.max(0, endsAt - WARN_BEFORE_MS - Date.now())),
      setTimeout(() => ended.current(), Math.max(0, endsAt - Date.now())),
    ];
    return () => timers.forEach(clearTimeout);
  }, [endsAt]);

  if (!warn || endsAt === null) return null;
  const at = new Date(endsAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return (
    <p class="session-ending" role="status" data-testid="session-ending">
      Your sign-in ends at {at}: a move made after that is not sent.{" "}
      <button type="button" onClick={onSignInAgain}>
        Sign in again now
      </button>
    </p>
  );
}
