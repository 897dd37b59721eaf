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

/** The claims of a JWT access token, unverified (the gateway verifies it): {} when it is not one. */
export function tokenClaims(token: string): { sub?: unknown; exp?: unknown } {
  const payload = token.split(".")[1];
  if (!payload) return {};
  try {
    const bytes = Uint8Array.from(atob(payload.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof claims === "object" && claims !== null ? claims : {};
  } catch {
    return {};
  }
}

/** When the session's token stops opening the API (epoch ms), or null when it does not say. */
export function sessionEndsAt(session: Session): number | null {
  const { exp } = tokenClaims(session.token);
  return typeof exp === "number" && Number.isFinite(exp) ? exp * 1000 : null;
}
