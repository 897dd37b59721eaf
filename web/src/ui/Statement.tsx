import { useRef, useState } from "preact/hooks";
import { api, describe, unwrap, type AccountStatement } from "../api/client";
import { formatMoney } from "../model/money";
import { Notice, type Message } from "./Notice";
import { ScrollBox } from "./ScrollBox";

type Entry = AccountStatement["entries"][number];

/** Rows per page: the latest few, then older ones on demand. */
const PAGE = 10;

/** Where a refusal of an older page is shown: beside its button, below the rows. */
const OLDER = "statement-older";

/** What the ledger's reasons mean to a player, at a table ("table 3"). Deposits and withdrawals carry an operator's text. */
const REASONS: Record<string, (table: string) => string> = {
  welcome: () => "Welcome credit",
  sit: (table) => `Buy-in at ${table}`,
  topup: (table) => `Top-up at ${table}`,
  leave: (table) => `Chips back from ${table}`,
  payout: () => "Payout",
  "void-refund": () => "Stake refunded (void game)",
  "sit-refund": (table) => `Buy-in refunded (no seat at ${table})`,
  "topup-refund": (table) => `Top-up refunded at ${table}`,
};

function whatHappened(entry: Entry): string {
  const kind = entry.kind === "DEPOSIT" ? "Deposit" : entry.kind === "WITHDRAW" ? "Withdrawal" : "";
  const table = entry.tableId === null ? "a table" : `table ${entry.tableId}`;
  const what = kind
    ? `${kind}${entry.reason ? `: ${entry.reason}` : ""}`
    : (REASONS[entry.reason]?.(table) ?? entry.reason);
  // A payout or a void game's refund names its game, which the table keeps the record of.
  const game = /^T\d+-\d+$/.test(entry.reference) ? `, game ${entry.reference}` : "";
  const refused = entry.applied
    ? ""
    : ` (${formatMoney(entry.requested)} refused${REFUSALS[entry.refusal ?? ""] ?? ""})`;
  return `${what}${game}${refused}`;
}

/** Why a movement was refused, in words. */
const REFUSALS: Record<string, string> = {
  INSUFFICIENT_FUNDS: ": not enough money",
  BALANCE_LIMIT: ": the account would pass its largest balance",
};

/** The older page appended below the rows shown: only entries older than the last one, so never one twice. */
const appended = (shown: Entry[], page: Entry[]): Entry[] => {
  const oldest = shown.at(-1)?.sequence ?? Infinity;
  return [...shown, ...page.filter((entry) => entry.sequence < oldest)];
};

/**
 * The account's movements, newest first, read when asked for (not on every lobby refresh): each
 * with the balance after it, so the lobby's balance can be followed back to the welcome credit. One
 * page is read at a time (each read spends the player's budget of history reads), and a refusal is
 * shown beside the button that asked.
 */
export function Statement({ playerId }: { playerId: string }) {
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [nextBefore, setNextBefore] = useState<number | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [loading, setLoading] = useState(false);
  // Set at once, not at the next render: a double click reads one page.
  const reading = useRef(false);
  const load = async (before: number | null) => {
    if (reading.current) return;
    reading.current = true;
    setLoading(true);
    try {
      const query = { limit: PAGE, ...(before === null ? {} : { before }) };
      const page = await unwrap(api.GET("/api/players/{playerId}/ledger", { params: { path: { playerId }, query } }));
      setEntries((shown) => (before === null || shown === null ? page.entries : appended(shown, page.entries)));
      setNextBefore(page.nextBefore);
      setMessage(null);
    } catch (error) {
      setMessage({ kind: "error", text: describe(error), ...(before === null ? {} : { place: OLDER }) });
    } finally {
      reading.current = false;
      setLoading(false);
    }
  };
  return (
    <section aria-labelledby="statement-title" class="panel">
      <h2 id="statement-title">Account statement</h2>
      <button type="button" aria-disabled={loading} onClick={() => void load(null)}>
        {entries === null ? "Show recent movements" : "Show the latest again"}
      </button>
      <Notice message={message} />
      {entries === null ? null : entries.length === 0 ? (
        <p>No movements yet.</p>
      ) : (
        <ScrollBox label="Movements">
          <table data-testid="statement">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col" class="num">
                  Amount
                </th>
                <th scope="col" class="num">
                  Balance
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.sequence} data-sequence={entry.sequence}>
                  <td>
                    {/* To the minute: with seconds the date took most of a phone's width, and the
                        balance was cut off. */}
                    <time dateTime={entry.at}>{whenShown(entry.at)}</time>
                  </td>
                  <td>{whatHappened(entry)}</td>
                  <td class="num" data-testid="statement-amount">
                    {entry.amount > 0 ? "+" : ""}
                    {formatMoney(entry.amount)}
                  </td>
                  <td class="num">{formatMoney(entry.balanceAfter)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {entries !== null && nextBefore !== null ? (
        <button type="button" class="link-button" aria-disabled={loading} onClick={() => void load(nextBefore)}>
          Older movements
        </button>
      ) : null}
      <Notice message={message} place={OLDER} />
    </section>
  );
}

/** A movement's time as the statement shows it: the player's own date form, to the minute. */
const whenShown = (at: string): string =>
  new Date(at).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
