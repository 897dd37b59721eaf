import { useEffect, useRef } from "preact/hooks";
import type { TableState } from "../../api/client";
import { riverSummary } from "../../model/settlement";
import type { Message } from "../Notice";

/** How long a refusal stays at least, whatever the table does meanwhile. */
const READ_MS = 3_000;

/**
 * The latest game's river among the states the feed showed, kept in the feed's own callback (as an
 * updater, which runs for every state even when renders are batched): a reconnected stream replays
 * the states it missed in one go, and a river among them, followed by the next deal, would never be
 * rendered.
 */
export function keepRiver(kept: TableState | null, next: TableState): TableState | null {
  return next.gameState === "STATUS_RIVER" && next.gameId !== kept?.gameId ? next : kept;
}

/**
 * The table's message follows its game: once the river is dealt (by anyone) it gives way to the
 * player's result, once per game so a later move's message is not overwritten; the next game's
 * deal takes it away, since it was about the game before, unless that deal came with the river
 * (a replay after a reconnection): the result, which names its game, is then shown over it. A
 * refusal (a bet at a closed stage, an advance that could not finish) goes when the game moves on
 * to its next stage, whoever moved it, as it was about the stage before; but not one shown for less
 * than READ_MS, as a refusal that arrives just before the stage it was refused for moves on would
 * vanish before the player saw that the bet was not placed.
 */
export function useGameMessages(
  state: TableState | null,
  river: TableState | null,
  playerId: string,
  message: Message | null,
  setMessage: (message: Message | null) => void,
): void {
  const dealtGame = state?.hands ? state.gameId : null;
  useEffect(() => {
    if (dealtGame !== null) setMessage(null);
  }, [dealtGame, setMessage]);

  const shown = useRef({ message, since: Date.now() });
  if (shown.current.message !== message) shown.current = { message, since: Date.now() };
  const stage = state?.hands ? `${state.gameId} ${state.gameState}` : null;
  useEffect(() => {
    const { message: current, since } = shown.current;
    if (stage !== null && current?.kind === "error" && Date.now() - since >= READ_MS) setMessage(null);
  }, [stage, setMessage]);

  const summarised = useRef<string | null>(null);
  useEffect(() => {
    const summary = river && summarised.current !== river.gameId ? riverSummary(river, playerId) : null;
    if (river === null || summary === null) return;
    summarised.current = river.gameId;
    setMessage({ kind: "info", text: summary });
  }, [river, playerId, setMessage]);
}
