import { useEffect, useState } from "preact/hooks";

// Screens live in the URL's hash, so the gateway serves one index.html for "/" and a reload or a
// shared link opens the same screen.
export type Route =
  { screen: "lobby" } | { screen: "table"; tableId: number } | { screen: "deal" } | { screen: "bulk" };

function parseRoute(hash: string): Route {
  const table = /^#\/table\/([1-9]\d{0,9})$/.exec(hash);
  if (table) return { screen: "table", tableId: Number(table[1]) };
  if (hash === "#/deal") return { screen: "deal" };
  if (hash === "#/bulk") return { screen: "bulk" };
  return { screen: "lobby" };
}

function sameRoute(a: Route, b: Route): boolean {
  return a.screen === b.screen && (a.screen !== "table" || (b.screen === "table" && a.tableId === b.tableId));
}

export const tableHref = (tableId: number): string => `#/table/${tableId}`;

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    // A link to the screen already shown (the lobby's "#/" from a bare "/") keeps the same route
    // object, so the screen is neither re-rendered nor has its focus moved to the heading.
    const changed = () =>
      setRoute((shown) => {
        const next = parseRoute(location.hash);
        return sameRoute(shown, next) ? shown : next;
      });
    addEventListener("hashchange", changed);
    // The hash may have changed before this ran: a sign-in's return puts back its screen's in a
    // child's effect, which runs first (history.replaceState fires no hashchange).
    changed();
    return () => removeEventListener("hashchange", changed);
  }, []);
  return route;
}
