// What `npm run verify -- --json` reads, one game at a time, so that an export of any size takes the
// memory of one line: JSON Lines (the file `npm run export-games` writes), a document on one line, or
// a document over several lines (a pretty-printed table state), read whole. A document's `games`
// (a bulk response) are its games; any other document is one.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

/** Why the input cannot be read: the command exits 2 with it. */
export class InputError extends Error {}

function* gamesOf(value: unknown): Generator<unknown> {
  const games = (value as { games?: unknown } | null)?.games;
  if (Array.isArray(games)) yield* games;
  else yield value;
}

function parse(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(`cannot read JSON from ${where}: ${(error as Error).message}`);
  }
}

/** The games of the file at `path` ("-": standard input), in order, each read when it is reached. */
export async function* jsonGames(path: string): AsyncGenerator<unknown> {
  const where = path === "-" ? "standard input" : path;
  const input = path === "-" ? process.stdin : createReadStream(path, "utf8");
  // "lines" once a first line parsed alone; "document" when it did not: the lines are then one JSON.
  let mode: "start" | "lines" | "document" = "start";
  const document: string[] = [];
  let lineNumber = 0;
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      lineNumber++;
      if (mode === "document") document.push(line);
      else if (line.trim() === "") continue;
      else if (mode === "lines") yield* gamesOf(parse(line, `${where}, line ${lineNumber}`));
      else {
        let value: unknown;
        try {
          value = JSON.parse(line) as unknown;
        } catch {
          mode = "document";
          document.push(line);
          continue;
        }
        mode = "lines";
        yield* gamesOf(value);
      }
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read ${where}: ${(error as Error).message}`);
  } finally {
    lines.close();
  }
  if (mode === "document") yield* gamesOf(parse(document.join("\n"), where));
}
