import { useEffect, useRef, useState } from "preact/hooks";
import type { TableState } from "../../api/client";
import { followTable, type FeedStatus, type TableFeed } from "../../api/table-events";
import { placeAtTable } from "../../fairness/client-seed";
import {
  heldCommitmentsAt,
  heldFor,
  holdCommitments,
  keepHeldCommitments,
  type HeldCommitments,
} from "../../fairness/commitment";
import { stateLabel } from "../../model/stages";
import { Notice } from "../Notice";
import { useAction } from "../use-action";
import { Board } from "./Board";
import { BetsView } from "./BetsView";
import { CommitmentChanged, FairnessPanel } from "./FairnessPanel";
import { useAccountBalance } from "./account";
import { keepRiver, useGameMessages } from "./game-messages";
import { FeedStatusView, StaleWarning } from "./FeedStatusView";
import { HandsView } from "./HandsView";
import { SeatControls } from "./SeatControls";
import { SeatsView } from "./SeatsView";
import { tableMoves, type TableMoves } from "./moves";

export function TableScreen({ tableId, playerId }: { tableId: number; playerId: string }) {
  const [state, setState] = useState<TableState | null>(null);
  const [river, setRiver] = useState<TableState | null>(null);
  const [feedStatus, setFeedStatus] = useState<FeedStatus>({ mode: "connecting", stale: false });
  // Kept for the page's life, as the deals' client seeds are (moves.ts): both outlive this screen.
  const place = placeAtTable(playerId, tableId);
  const [held, setHeld] = useState<HeldCommitments>(() => heldCommitmentsAt(place));
  const feed = useRef<TableFeed | null>(null);
  // One per feed, not per render: it keeps the key of a move whose outcome is not known yet.
  const moves = useRef<TableMoves | null>(null);
  const action = useAction();
  const account = useAccountBalance(playerId, state);
  const { reread, isAdmin } = account;

  useEffect(() => {
    const current = followTable(tableId, {
      state: (next) => {
        // Every state the feed shows, in order (an updater runs even when renders are batched), so
        // no commitment shown between two renders escapes the comparison.
        setHeld((kept) => keepHeldCommitments(place, holdCommitments(kept, next)));
        setRiver((kept) => keepRiver(kept, next));
        setState(next);
      },
      status: setFeedStatus,
    });
    feed.current = current;
    moves.current = tableMoves(tableId, current, playerId, { reread, isAdmin });
    return () => current.stop();
  }, [tableId, playerId, reread, isAdmin]);

  useGameMessages(state, river, playerId, action.message, action.setMessage);

  const mySeat = state?.seats.find((seat) => seat.playerId === playerId);
  const heldNow = state ? heldFor(held.current, state.gameId) : null;

  return (
    <>
      <h1 id="screen-title" tabIndex={-1}>
        Table {tableId}
      </h1>
      <FeedStatusView status={feedStatus} tableId={tableId} />
      <StaleWarning stale={feedStatus.stale && state !== null} />
      {state ? (
        // Polite live region: cards dealt or a new game by another player are announced too.
        <p data-testid="game-state" data-state={state.gameState} aria-live="polite">
          <strong>{stateLabel(state)}</strong>
          {state.gameId ? <span class="hint"> — game {state.gameId}</span> : null}
        </p>
      ) : feedStatus.mode === "closed" ? null : (
        <p>Loading the table…</p>
      )}
      {heldNow ? <CommitmentChanged held={heldNow} /> : null}
      <Notice message={action.message} onDismiss={() => action.setMessage(null)} />
      {state && moves.current ? (
        <>
          <SeatControls state={state} seat={mySeat} account={account.balance} moves={moves.current} action={action} />
          <Board state={state} />
          <HandsView state={state} playerId={playerId} seat={mySeat} moves={moves.current} action={action} />
          <BetsView state={state} playerId={playerId} />
          <FairnessPanel
            state={state}
            held={heldNow}
            previous={held.previous}
            clientSeedSent={moves.current.clientSeedSent}
          />
          <SeatsView state={state} playerId={playerId} />
        </>
      ) : null}
    </>
  );
}
