// `npm run export-games`: streams the running stack's GET /api/admin/games (every finished game, as
// JSON Lines) to standard output or a file, line by line as the lines arrive: nothing is gathered,
// so an export of any size takes the memory of one line.
//
//   exit 0  complete: the gateway's last line was its trailer, counting as many games as were written
//   exit 1  truncated: the command names the last game written whole (a file says so itself, read
//           back) and prints the command that resumes after it (the same flags, --after <cursor>);
//           a line a failed write cut short is cut off the file when the export resumes into it
//   exit 2  no export: bad usage, the stack cannot be reached, or it refused the token or the query
//
// The output holds the game records only, one per line; the trailer is the command's to check.
// AUDIT_URL (default http://127.0.0.1:${PORT:-8080}) names the gateway and AUDIT_TOKEN an ADMIN
// token, as for `npm run audit`; without AUDIT_TOKEN the development issuer's short-lived ADMIN token.
import { adminToken, NoAudit, stackUrl, type DevTokenSigner, type Env } from "@pokerodds/audit/cli";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { parseArgsOnce } from "@pokerodds/common/args";
import {
  ExportFileError,
  exportFile,
  isRegularFile,
  lastRecordIn,
  prepareToAdd,
  sizeOf,
  type WrittenRecord,
} from "./export-file.js";

const EXIT_COMPLETE = 0;
const EXIT_TRUNCATED = 1;
export const EXIT_NO_EXPORT = 2;

const GAMES_PATH = "/api/admin/games";
const FINER_THAN_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{4,}(Z|[+-]\d{2}:\d{2})$/i;
const USAGE = "usage: npm run export-games -- [--table N] [--since ISO] [--until ISO] [--after CURSOR] [--out FILE]";

interface ExportIo {
  /** Where the records go without --out (standard output). */
  stdout: Writable;
  /**
   * The file standard output is redirected to, when it is one: checked as --out is when the export
   * resumes, read back once it ends, and named as --out in the command that resumes it.
   */
  stdoutFile?: string;
  err(text: string): void;
}

/** Why there is no export: exit 2 with this message. */
class NoExport extends Error {}

interface ExportOptions {
  query: URLSearchParams;
  out: string | undefined;
  /** A resumed export's cursor: its file must end with that game's record, and is added to. */
  after: string | undefined;
  /** The filters as given, for the command that resumes the export. */
  filters: string[];
}

function optionsOf(args: readonly string[]): ExportOptions {
  let values;
  try {
    ({ values } = parseArgsOnce({
      args: [...args],
      options: {
        table: { type: "string" },
        since: { type: "string" },
        until: { type: "string" },
        after: { type: "string" },
        out: { type: "string" },
      },
      strict: true,
    }));
  } catch (error) {
    throw new NoExport(`${(error as Error).message}\n${USAGE}`);
  }
  const query = new URLSearchParams();
  if (values.table !== undefined) {
    if (!/^[1-9][0-9]*$/.test(values.table)) throw new NoExport(`--table must be a table id\n${USAGE}`);
    query.set("tableId", values.table);
  }
  // Any date the platform reads ("2026-11-23", "2026-11-23T12:00:00+01:00"), sent as RFC 3339 UTC;
  // but an RFC 3339 time finer than a millisecond as written, since the gateway compares it exactly.
  for (const [flag, name] of [
    ["since", "finishedAfter"],
    ["until", "finishedBefore"],
  ] as const) {
    const text = values[flag];
    if (text === undefined) continue;
    const ms = Date.parse(text);
    if (Number.isNaN(ms)) throw new NoExport(`--${flag} must be a date or time, e.g. 2026-11-23T12:00:00Z\n${USAGE}`);
    query.set(name, FINER_THAN_MS.test(text) ? text : new Date(ms).toISOString());
  }
  if (values.after !== undefined) query.set("after", values.after);
  const filters = (["table", "since", "until"] as const).flatMap((flag) =>
    values[flag] === undefined ? [] : [`--${flag}`, shellWord(values[flag])],
  );
  return { query, out: values.out, after: values.after, filters };
}

/** A word a shell reads back as written. */
const shellWord = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * The command that goes on after the export's last written game (from the start when none), into
 * the same file: a redirected standard output's too, by --out, which checks the file it adds to,
 * once there is a game to go on after (without one --out would empty what `>>` added to).
 */
function resumeCommand(options: ExportOptions, cursor: string | undefined, stdoutFile?: string): string {
  const file = options.out ?? (cursor === undefined ? undefined : stdoutFile);
  const out = file === undefined ? [] : ["--out", shellWord(file)];
  const after = cursor === undefined ? [] : ["--after", cursor];
  return ["npm run export-games --", ...options.filters, ...after, ...out].join(" ");
}

function gamesUrl(env: Env, query: URLSearchParams): URL {
  const url = stackUrl(env, GAMES_PATH);
  url.search = query.toString();
  return url;
}

/**
 * The export's answer, once the gateway answered 200; its refusal (or no answer) as NoExport. Its
 * body is read through it, not kept apart: undici cancels the unread body of a Response that is
 * garbage collected, and an export collected so while its file was prepared read an empty body.
 */
async function openExport(url: URL, token: string): Promise<Response & { body: ReadableStream<Uint8Array> }> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: "application/x-ndjson" } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new NoExport(
      `cannot reach the stack at ${url.origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
  }
  if (response.status === 200 && response.body) return response as Response & { body: ReadableStream<Uint8Array> };
  const text = await response.text().catch(() => "");
  let message: unknown;
  try {
    message = (JSON.parse(text) as { error?: unknown }).error;
  } catch {
    message = undefined;
  }
  const why = typeof message === "string" ? message : text.slice(0, 200);
  const hint =
    response.status === 401 || response.status === 403 ? " (an ADMIN token of the stack's issuer is needed)" : "";
  throw new NoExport(`${url.href} answered ${response.status}: ${why}${hint}`);
}

/**
 * How the body ended: complete (its trailer counted the `games` written), or why not; `last` is the
 * last record whose write reported done.
 */
interface Copied {
  games: number;
  complete: boolean;
  reason?: string;
  last?: WrittenRecord;
}

/**
 * Writes every record line of `body` to `out` as it arrives, waiting whenever `out` is full; keeps
 * only the line being read. A trailer that miscounts, a line after it, an `{ error }` line, a line
 * that is not JSON, or a body cut short make the export truncated. The games and the last record
 * returned are those whose write reported done, not those merely handed to `out`.
 */
async function copyRecords(body: AsyncIterable<Uint8Array>, out: Writable, signal?: AbortSignal): Promise<Copied> {
  const decoder = new TextDecoder();
  const state: Copied = { games: 0, complete: false };
  // Callbacks come in write order; after a failed write none counts, lest a gap follow the cursor.
  const written: Pick<Copied, "games" | "last"> = { games: 0 };
  let writeError: Error | undefined;
  let lastWrite = Promise.resolve();
  const write = (text: string, games: number, last: WrittenRecord): boolean => {
    let accepted = true;
    lastWrite = new Promise((resolve) => {
      accepted = out.write(`${text}\n`, (error) => {
        writeError ??= error ?? undefined;
        if (!writeError) Object.assign(written, { games, last });
        resolve();
      });
    });
    return accepted;
  };
  let pending = "";
  const take = async (text: string) => {
    let value: { gameId?: unknown; cursor?: unknown; end?: unknown; games?: unknown; error?: unknown };
    try {
      value = JSON.parse(text) as typeof value;
    } catch {
      throw new Error(`a line that is not JSON: ${text.slice(0, 80)}`);
    }
    if (state.complete) throw new Error("a line after the export's last line");
    if (typeof value.error === "string") throw new Error(`the gateway broke off: ${value.error}`);
    if (value.end === true) {
      if (value.games !== state.games)
        throw new Error(`the trailer counts ${String(value.games)} games, ${state.games} came`);
      state.complete = true;
      return;
    }
    if (typeof value.gameId !== "string" || typeof value.cursor !== "string")
      throw new Error("a line that is no game record");
    state.games++;
    if (!write(text, state.games, { gameId: value.gameId, cursor: value.cursor })) {
      await once(out, "drain", { signal });
    }
  };
  let reason: string | undefined;
  try {
    for await (const chunk of body) {
      pending += decoder.decode(chunk, { stream: true });
      for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
        const text = pending.slice(0, end);
        pending = pending.slice(end + 1);
        await take(text);
      }
    }
    if (!state.complete) reason = "the stream ended before the export's last line";
  } catch (error) {
    reason = (error as Error).message;
  }
  await lastWrite;
  if (writeError) reason = `cannot write the records: ${writeError.message}`;
  return reason === undefined ? { ...written, complete: true } : { ...written, complete: false, reason };
}

/** Copies the records to `out`; a failure to write (a full disk, a closed pipe) makes the export truncated. */
async function copyTo(body: ReadableStream<Uint8Array>, out: Writable, owned: boolean): Promise<Copied> {
  let failed: Error | undefined;
  const aborted = new AbortController();
  const onError = (error: Error) => {
    failed ??= error;
    aborted.abort(error);
  };
  out.on("error", onError);
  try {
    const copied = await copyRecords(body, out, aborted.signal);
    if (owned) {
      out.end();
      await finished(out).catch(() => undefined);
    }
    return failed ? { ...copied, complete: false, reason: `cannot write the records: ${failed.message}` } : copied;
  } finally {
    out.off("error", onError);
  }
}

/** Where the records go, and, in a file, the offset where this export's begin. */
interface Output {
  out: Writable;
  file?: { path: string; start: number };
}

/**
 * The output, once the export has started (so a refused export leaves a file as it was): the --out
 * file, created (emptied, unless resumed); else standard output, a redirected one prepared as a
 * resumed --out is when the export resumes (checked, and cut back to its last whole line). The export is let go when the
 * file cannot take it.
 */
async function outputOnceStarted(options: ExportOptions, io: ExportIo, answer: Response): Promise<Output> {
  try {
    if (options.out !== undefined) {
      const { out, start } = await exportFile(options.out, options.after);
      return { out, file: { path: options.out, start } };
    }
    // Without --after the file is not the export's to cut: only where its records begin is noted.
    const start =
      io.stdoutFile === undefined
        ? undefined
        : options.after === undefined
          ? await sizeOf(io.stdoutFile)
          : await prepareToAdd(io.stdoutFile, options.after);
    return start === undefined ? { out: io.stdout } : { out: io.stdout, file: { path: io.stdoutFile!, start } };
  } catch (error) {
    await answer.body?.cancel();
    throw error;
  }
}

/**
 * What the output holds once the copy ended: a file is read back for its last whole record (the
 * write callbacks cannot say, see export-file.ts), and a complete export whose file does not end
 * with the last game sent is truncated after all (a short write nothing reported).
 */
async function checkedAgainstFile(copied: Copied, file: Output["file"]): Promise<Copied> {
  const inFile = file === undefined ? undefined : await lastRecordIn(file.path, file.start);
  if (inFile === undefined) return copied;
  const { last: _callbacks, ...rest } = copied;
  const checked = inFile === null ? rest : { ...rest, last: inFile };
  if (!copied.complete || copied.last === undefined || inFile?.cursor === copied.last.cursor) return checked;
  const reason = `${file!.path} does not end with the last game sent, ${copied.last.gameId}`;
  return { ...checked, complete: false, reason };
}

/** The refusal's words: why, the last game written whole, and the command that goes on after it. */
function truncatedText(copied: Copied, options: ExportOptions, stdoutFile: string | undefined): string {
  const last =
    copied.last === undefined ? "no game was written whole" : `the last game written whole is ${copied.last.gameId}`;
  // A resumed export that wrote nothing whole resumes where it was to begin.
  const cursor = copied.last?.cursor ?? options.after;
  const resume = resumeCommand(options, cursor, stdoutFile);
  return `export-games: TRUNCATED: ${copied.reason}; ${last}; resume with: ${resume}`;
}

/**
 * What a complete export with --after says of a file that held no game before it: it holds the games
 * after the cursor alone. Asked for (an export of what came since), or a resume into a path other
 * than the first export's, which leaves that one short: said, so that it is not taken for whole.
 */
async function startedAfterNothing(options: ExportOptions, file: Output["file"]): Promise<string> {
  if (options.after === undefined || file === undefined || file.start > 0) return "";
  if (!(await isRegularFile(file.path))) return "";
  return ` into ${file.path}, which held no game before them: it holds the games after ${options.after} alone`;
}

/** Runs the command; resolves to its exit code. */
export async function runExportCli(
  env: Env,
  args: readonly string[],
  io: ExportIo,
  devToken: DevTokenSigner,
): Promise<number> {
  let copied: Copied;
  let options: ExportOptions;
  let output: Output;
  try {
    options = optionsOf(args);
    const url = gamesUrl(env, options.query);
    const answer = await openExport(url, await adminToken(env, devToken));
    output = await outputOnceStarted(options, io, answer);
    copied = await copyTo(answer.body, output.out, output.out !== io.stdout);
  } catch (error) {
    if (!(error instanceof NoExport || error instanceof NoAudit || error instanceof ExportFileError)) throw error;
    io.err(`export-games: ${error.message}`);
    return EXIT_NO_EXPORT;
  }
  copied = await checkedAgainstFile(copied, output.file);
  if (copied.complete) {
    io.err(`export-games: ${copied.games} games exported${await startedAfterNothing(options, output.file)}`);
    return EXIT_COMPLETE;
  }
  io.err(truncatedText(copied, options, io.stdoutFile));
  return EXIT_TRUNCATED;
}
