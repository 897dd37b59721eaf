import { useEffect, useState } from "preact/hooks";
import { setSessionToken } from "../api/client";
import { loadSession, saveSession, sessionEndsAt, type Session } from "../auth/session";
import { BulkScreen } from "./BulkScreen";
import { DealScreen } from "./DealScreen";
import { Lobby } from "./Lobby";
import { useRoute, type Route } from "./route";
import { SessionEnding } from "./SessionEnding";
import { SignIn } from "./SignIn";
import { TableScreen } from "./table/TableScreen";

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const [signedOutBecause, setSignedOutBecause] = useState<string | null>(null);
  const route = useRoute();

  const signOut = (reason: string | null) => {
    saveSession(null);
    setSession(null);
    setSignedOutBecause(reason);
  };
  // Set during render, before any child's effect sends a request with it.
  // A refused token is refused before anything is done: the request it came with made no move.
  setSessionToken(session?.token ?? null, () =>
    signOut(
      "Your session has ended or was refused: sign in again. What you were doing when it ended was not done; your chips stay at your table.",
    ),
  );

  useEffect(() => {
    // A new screen moves focus to its heading, so keyboard and screen-reader users start there.
    document.getElementById("screen-title")?.focus();
  }, [route, session]);

  if (session === null) {
    return (
      <SignIn
        reason={signedOutBecause}
        onSignedIn={(signedIn) => {
          saveSession(signedIn);
          setSession(signedIn);
          setSignedOutBecause(null);
        }}
      />
    );
  }
  return (
    <>
      <header class="top">
        <span class="brand">Poker odds</span>
        <nav aria-label="Main">
          <a href="#/" aria-current={route.screen === "lobby" ? "page" : undefined}>
            Lobby
          </a>
          <a href="#/deal" aria-current={route.screen === "deal" ? "page" : undefined}>
            Deal
          </a>
          <a href="#/bulk" aria-current={route.screen === "bulk" ? "page" : undefined}>
            Bulk games
          </a>
        </nav>
        <span class="who">
          Signed in as <strong data-testid="signed-in-as">{session.playerId}</strong>
        </span>
        <button type="button" onClick={() => signOut(null)}>
          Sign out
        </button>
      </header>
      <SessionEnding
        endsAt={sessionEndsAt(session)}
        onEnded={() => signOut("Your sign-in has ended: sign in again to go on playing.")}
        onSignInAgain={() => signOut(null)}
      />
      <main>
        <Screen route={route} session={session} />
      </main>
    </>
  );
}

function Screen({ route, session }: { route: Route; session: Session }) {
  switch (route.screen) {
    case "table":
      return <TableScreen key={route.tableId} tableId={route.tableId} playerId={session.playerId} />;
    case "deal":
      return <DealScreen />;
    case "bulk":
      return <BulkScreen />;
    default:
      return <Lobby playerId={session.playerId} />;
  }
}
