import { useEffect, useRef } from "preact/hooks";
import type { TableState } from "../../api/client";
import { riverSummary } from "../../model/settlement";
import type { Message } from "../Notice";

/**
 * The table's message follows its game: once the river is dealt (by anyone) it gives way to the
 * player's result, once per game so a later move's message is not overwritten; the next game's
 * deal takes it away, since it was about the game before.
 */
export function useGameMessages(
  state: TableState | null,
  playerId: string,
  setMessage: (message: Message | null) => void,
): void {
  const dealtGame = state?.hands ? state.gameId : null;
  useEffect(() => {
    if (dealtGame !== null) setMessage(null);
  }, [dealtGame, setMessage]);

  const summarised = useRef<string | null>(null);
  useEffect(() => {
    const summary = state && summarised.current !== state.gameId ? riverSummary(state, playerId) : null;
    if (state === null || summary === null) return;
    summarised.current = state.gameId;
    setMessage({ kind: "info", text: summary });
  }, [state, playerId, setMessage]);
}
