import { useEffect, useState } from "preact/hooks";

// Screens live in the URL's hash, so the gateway serves one index.html for "/" and a reload or a
// shared link opens the same screen.
export type Route =
  { screen: "lobby" } | { screen: "table"; tableId: number } | { screen: "deal" } | { screen: "bulk" };

export function parseRoute(hash: string): Route {
  const table = /^#\/table\/([1-9]\d{0,9})$/.exec(hash);
  if (table) return { screen: "table", tableId: Number(table[1]) };
  if (hash === "#/deal") return { screen: "deal" };
  if (hash === "#/bulk") return { screen: "bulk" };
  return { screen: "lobby" };
}

export const tableHref = (tableId: number): string => `#/table/${tableId}`;

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", changed);
    return () => removeEventListener("hashchange", changed);
  }, []);
  return route;
}
