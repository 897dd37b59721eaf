// JSON.parse keeps the last of an object's duplicate names, while other parsers keep the first or
// refuse: a body such as {"betAmount": 1, "betAmount": 900} would be read one way by a proxy, a
// firewall or a log and another way here. The gateway refuses such a body instead of picking one.

/** Where a scan is in one open object: the names seen, and whether a string there would be a name. */
interface OpenObject {
  names: Set<string>;
  expectingName: boolean;
}

/** The index just past the string literal that opens at `start` (a `"`), escapes included. */
function endOfString(text: string, start: number): number {
  let at = start + 1;
  while (at < text.length && text[at] !== '"') at += text[at] === "\\" ? 2 : 1;
  return at + 1;
}

/**
 * The first name that occurs twice in one object of a JSON text, compared after unescaping ("a" and
 * "\u0061" are one name); undefined when there is none, or when the text is not JSON (JSON.parse then
 * refuses it).
 */
export function duplicateJsonName(text: string): string | undefined {
  // One entry per open bracket: an object's state, or null for an array.
  const open: (OpenObject | null)[] = [];
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    const current = open.at(-1);
    if (char === "{") open.push({ names: new Set(), expectingName: true });
    else if (char === "[") open.push(null);
    else if (char === "}" || char === "]") open.pop();
    else if (char === "," && current) current.expectingName = true;
    else if (char === '"') {
      const end = endOfString(text, at);
      if (current?.expectingName) {
        let name: unknown;
        try {
          name = JSON.parse(text.slice(at, end));
        } catch {
          return undefined;
        }
        if (typeof name !== "string") return undefined;
        if (current.names.has(name)) return name;
        current.names.add(name);
        current.expectingName = false;
      }
      at = end - 1;
    }
  }
  return undefined;
}
