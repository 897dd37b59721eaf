import type { FeedStatus, LiveMode } from "../../api/table-events";

const MODE_TEXT: Record<Exclude<LiveMode, "closed">, string> = {
  connecting: "Connecting…",
  live: "Live: changes appear as they happen.",
  polling: "Checking for changes every 2 seconds.",
};

/** How the table's changes arrive, and the last problem if any; or why the table cannot be shown. */
export function FeedStatusView({ status, tableId }: { status: FeedStatus; tableId: number }) {
  if (status.mode === "closed") return <TableClosed status={status} tableId={tableId} />;
  return (
    <p class="live" data-testid="live-mode" data-mode={status.mode}>
      {MODE_TEXT[status.mode]}
      {status.problem ? <span class="problem"> Last problem: {status.problem}</span> : null}
    </p>
  );
}

/** The table is not asked for again (404 or 403), so the page says why and offers the way back. */
function TableClosed({ status, tableId }: { status: FeedStatus; tableId: number }) {
  const why =
    status.refused === 403 ? `Table ${tableId} is another player's personal table.` : `There is no table ${tableId}.`;
  return (
    <div role="alert" class="notice notice--error" data-testid="live-mode" data-mode="closed">
      <p class="notice-line">{why}</p>
      <p class="notice-line">
        <a href="#/">Back to the lobby</a>
      </p>
    </div>
  );
}

/**
 * Near the top, and loud, while the table cannot be read: the grey status line alone scrolls away,
 * and a player must not bet on figures that may be old. A polite live region, always rendered.
 */
export function StaleWarning({ stale }: { stale: boolean }) {
  return (
    <div aria-live="polite">
      {stale ? (
        <p class="notice notice--error" data-testid="stale">
          <strong>Not up to date:</strong> the table cannot be reached just now, so the balances, odds and bets below
          may be out of date. This page keeps trying and updates once the table answers.
        </p>
      ) : null}
    </div>
  );
}
