import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, describe, unwrap, type PlayerSeats, type Profile, type TablesList } from "../api/client";
import { formatMoney } from "../model/money";
import { Notice, type Message } from "./Notice";
import { Statement } from "./Statement";
import { tableHref } from "./route";

/** The account's role in words, not the API's names. */
const ROLE_NAMES: Record<Profile["role"], string> = {
  BASIC_USER: "Player",
  PAYING_USER: "Paying player",
  ANON_USER: "Guest",
  ADMIN: "Administrator",
  UNSPECIFIED_DUE_TO_ERROR: "Unknown",
};

/** The spec's lobby polling interval. */
const LOBBY_REFRESH_MS = 30_000;

export function Lobby({ playerId }: { playerId: string }) {
  const [profile, setProfile] = useState<Profile | null>(null);
  const [tables, setTables] = useState<TablesList | null>(null);
  const [seats, setSeats] = useState<Seats>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [refreshedAt, setRefreshedAt] = useState<Date | null>(null);

  // Only the latest refresh is shown: an earlier one answering late (the timer's and a click's
  // together) would show an older balance and lobby.
  const latest = useRef(0);
  const refresh = async () => {
    const read = ++latest.current;
    try {
      const path = { playerId };
      const [me, mine, lobby] = await Promise.all([
        unwrap(api.GET("/api/players/{playerId}", { params: { path } })),
        // The seats come from the table service, which may be down while the rest answers (the
        // lobby's list is then empty, as the spec rules): without them the lobby still shows.
        unwrap(api.GET("/api/players/{playerId}/seats", { params: { path } })).catch(() => "unavailable" as const),
        unwrap(api.GET("/api/tables")),
      ]);
      if (read !== latest.current) return;
      setProfile(me);
      setSeats(mine);
      setTables(lobby);
      setRefreshedAt(new Date());
      setMessage(null);
    } catch (error) {
      if (read === latest.current) setMessage({ kind: "error", text: describe(error) });
    }
  };
  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), LOBBY_REFRESH_MS);
    return () => clearInterval(timer);
  }, [playerId]);

  return (
    <>
      <h1 id="screen-title" tabIndex={-1}>
        Lobby
      </h1>
      <Notice message={message} />
      {profile ? <ProfileCard profile={profile} seats={seats} /> : <p>Loading your profile…</p>}
      <section aria-labelledby="tables-title" class="panel">
        <h2 id="tables-title">Active tables</h2>
        <p class="hint">
          Tables with activity in the last 30 minutes; refreshed every 30 seconds
          {refreshedAt ? ` (last at ${refreshedAt.toLocaleTimeString()})` : ""}.{" "}
          <button type="button" class="link-button" onClick={() => void refresh()}>
            Refresh now
          </button>
        </p>
        {tables && profile ? <TableList tables={tables} profile={profile} /> : null}
        <OpenTable />
      </section>
      <Statement playerId={playerId} />
    </>
  );
}

/** The player's seats; "unavailable" when they could not be read (the table service may be down). */
type Seats = PlayerSeats | "unavailable" | null;

function ProfileCard({ profile, seats }: { profile: Profile; seats: Seats }) {
  return (
    <section aria-labelledby="profile-title" class="panel">
      <h2 id="profile-title">{profile.displayName || profile.playerId}</h2>
      <dl class="facts">
        <dt>Account balance</dt>
        <dd data-testid="account-balance">{formatMoney(profile.accountBalance)}</dd>
        <dt>Username</dt>
        <dd>{profile.username || "—"}</dd>
        <dt>Role</dt>
        <dd>{ROLE_NAMES[profile.role]}</dd>
        {seats === "unavailable" ? (
          <>
            <dt>Chips at tables</dt>
            <dd data-testid="my-seats-unavailable">cannot be read just now: try again shortly</dd>
          </>
        ) : seats && seats.seats.length > 0 ? (
          <>
            <dt>Chips at tables</dt>
            <dd>
              <ul class="table-list" data-testid="my-seats">
                {seats.seats.map((s) => (
                  <li key={s.tableId} data-table={s.tableId}>
                    <a href={tableHref(s.tableId)}>Table {s.tableId}</a>, seat {s.seatId}:{" "}
                    <span data-testid="seat-chips">{formatMoney(s.seatBalance)}</span>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
        {profile.personalTableId !== undefined ? (
          <>
            <dt>Your table</dt>
            <dd>
              <a href={tableHref(profile.personalTableId)}>Table {profile.personalTableId}</a>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/**
 * Whether the player may open a table: any public one; a personal one only its owner (or an ADMIN).
 * The lobby lists every active table, so another player's personal table would only lead to a 403.
 */
function mayOpen(tableId: number, profile: Profile): boolean {
  return tableId < FIRST_PERSONAL_TABLE_ID || tableId === profile.personalTableId || profile.role === "ADMIN";
}

function TableList({ tables, profile }: { tables: TablesList; profile: Profile }) {
  const open = tables.tables.filter((t) => mayOpen(t.tableId, profile));
  const othersPersonal = tables.tables.length - open.length;
  return (
    <>
      {tables.totalActivePlayers > 0 ? (
        <p>
          {tables.totalActivePlayers} {tables.totalActivePlayers === 1 ? "player" : "players"} seated.
        </p>
      ) : null}
      {open.length === 0 ? (
        <p>No table you can open has been active lately: open one below.</p>
      ) : (
        <ul class="table-list" data-testid="active-tables">
          {open.map((t) => (
            <li key={t.tableId}>
              <a href={tableHref(t.tableId)}>Table {t.tableId}</a>{" "}
              <span>
                {t.playerCount} {t.playerCount === 1 ? "player" : "players"},{" "}
                {t.gameState === "BETTING" ? "betting" : "waiting"}
              </span>
            </li>
          ))}
        </ul>
      )}
      {othersPersonal > 0 ? (
        <p data-testid="others-personal-tables">
          Also active: {othersPersonal} {othersPersonal === 1 ? "personal table" : "personal tables"} of other players,
          where only their owners play.
        </p>
      ) : null}
    </>
  );
}

function OpenTable() {
  const [text, setText] = useState("1");
  const [message, setMessage] = useState<Message | null>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    const tableId = Number(text.trim());
    if (!Number.isInteger(tableId) || tableId < 1) {
      setMessage({ kind: "error", text: "A table number is a whole number from 1." });
      return;
    }
    location.hash = tableHref(tableId);
  };
  return (
    <form onSubmit={submit} class="inline-form">
      <label>
        Table number
        <input name="tableId" inputMode="numeric" value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <button type="submit">Open table</button>
      <Notice message={message} />
    </form>
  );
}
