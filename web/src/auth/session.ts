// Who is signed in, per browser tab: sessionStorage, so two tabs (or two test contexts) can hold
// two players, and closing the tab signs out.
export interface Session {
  token: string;
  playerId: string;
}

const KEY = "pokerodds.session";

export function loadSession(): Session | null {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(KEY) ?? "null") as Partial<Session> | null;
    if (typeof parsed?.token === "string" && typeof parsed.playerId === "string") {
      return { token: parsed.token, playerId: parsed.playerId };
    }
  } catch {
    // A damaged entry is the same as none: sign in again.
  }
  return null;
}

export function saveSession(session: Session | null): void {
  if (session === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, JSON.stringify(session));
}
