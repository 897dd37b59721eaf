// The file `npm run export-games` writes (--out, or standard output redirected to a file): emptied
// for a new export; for a resumed one (--after) checked to end with the record the export resumes
// after, and cut back to that record's newline, so the line a full disk or a killed process left
// half written goes, and a resume from another cursor (which would repeat or skip games) is refused
// before anything is added. After a failed write the file itself says which game it holds last,
// since a stream's write callbacks do not: a batched write fails every record in it, and a write to
// a redirected standard output reports a short write as done. A pipe or a device is none of this.
// A redirected standard output is named by --out in the command that resumes it, so it is checked.
import { open, stat, type FileHandle } from "node:fs/promises";
import type { Writable } from "node:stream";

/** Why the file cannot take the export: no export (exit 2) with this message. */
export class ExportFileError extends Error {}

/** A game record line's identity. */
export interface WrittenRecord {
  gameId: string;
  cursor: string;
}

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;
/** Far above any record (6 seats of 50 bets each make about 60 KB): a longer line is no record. */
const MAX_LINE_BYTES = 4 * 1024 * 1024;

/**
 * The offset just past the file's last newline (0 when none), and the whole line before it (null
 * when none), reading back from the end at most a record and a half-written one.
 */
async function lastWholeLine(handle: FileHandle, path: string): Promise<{ end: number; line: string | null }> {
  const { size } = await handle.stat();
  const chunks: Buffer[] = [];
  let end: number | undefined;
  let position = size;
  while (position > 0) {
    if (size - position >= 2 * MAX_LINE_BYTES) {
      throw new ExportFileError(`${path} has no line end where a game record would: it is not an export`);
    }
    const length = Math.min(CHUNK, position);
    position -= length;
    const chunk = Buffer.alloc(length);
    await handle.read(chunk, 0, length, position);
    chunks.unshift(chunk);
    // Only the new chunk is searched: whatever follows it was searched already.
    let at = chunk.lastIndexOf(NEWLINE);
    if (at >= 0 && end === undefined) {
      end = position + at + 1;
      at = at === 0 ? -1 : chunk.lastIndexOf(NEWLINE, at - 1);
    }
    if (at >= 0) return { end: end!, line: lineOf(chunks, position, position + at + 1, end!) };
  }
  return end === undefined ? { end: 0, line: null } : { end, line: lineOf(chunks, 0, 0, end) };
}

/** The bytes from `start` to just before `end` (its newline) of the chunks read from `position` on. */
const lineOf = (chunks: Buffer[], position: number, start: number, end: number): string =>
  Buffer.concat(chunks)
    .subarray(start - position, end - 1 - position)
    .toString("utf8");

function recordOf(line: string): WrittenRecord | undefined {
  try {
    const { gameId, cursor } = JSON.parse(line) as { gameId?: unknown; cursor?: unknown };
    return typeof gameId === "string" && typeof cursor === "string" ? { gameId, cursor } : undefined;
  } catch {
    return undefined;
  }
}

/** A regular file's size, where an export adding to it begins; undefined for a pipe or a device. */
export const sizeOf = (path: string): Promise<number | undefined> =>
  stat(path).then(
    (s) => (s.isFile() ? s.size : undefined),
    () => undefined,
  );

export const isRegularFile = (path: string): Promise<boolean> =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * A file an export adds to (--out when resumed, or a redirected standard output): a resumed export's
 * must end with the record `after` names; it is cut back to its last whole line, so nothing is
 * added to a half-written one. Resolves to its size then, where this export's records begin;
 * undefined for a pipe or a device, which is left be.
 */
export async function prepareToAdd(path: string, after: string | undefined): Promise<number | undefined> {
  if (!(await isRegularFile(path))) return undefined;
  try {
    const handle = await open(path, "r+");
    try {
      const { end, line } = await lastWholeLine(handle, path);
      if (after !== undefined && line !== null) {
        const cursor = recordOf(line)?.cursor;
        if (cursor === undefined) throw new ExportFileError(`${path} does not end with a game record`);
        if (cursor !== after) {
          throw new ExportFileError(
            `${path} ends with the game of cursor ${cursor}: resume with --after ${cursor}, or name another --out`,
          );
        }
      }
      if (end < (await handle.stat()).size) await handle.truncate(end);
      return end;
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof ExportFileError) throw error;
    throw new ExportFileError(`cannot add to ${path}: ${(error as Error).message}`);
  }
}

/**
 * The file named by --out: emptied for a new export, checked and added to for a resumed one; with
 * the offset where this export's records begin.
 */
export async function exportFile(path: string, after: string | undefined): Promise<{ out: Writable; start: number }> {
  const start = after === undefined ? 0 : ((await prepareToAdd(path, after)) ?? 0);
  try {
    // A new file is the owner's alone: it holds every game's bets and players.
    return { out: (await open(path, after === undefined ? "w" : "a", 0o600)).createWriteStream(), start };
  } catch (error) {
    throw new ExportFileError(`cannot write ${path}: ${(error as Error).message}`);
  }
}

/**
 * The last game record this export wrote whole into the file at `path`, its records beginning at
 * offset `start` (a record before it is another export's): null when none, undefined when the file
 * is no regular file (a pipe, a device) or cannot be read back, so it cannot say.
 */
export async function lastRecordIn(path: string, start: number): Promise<WrittenRecord | null | undefined> {
  if (!(await isRegularFile(path))) return undefined;
  try {
    const handle = await open(path, "r");
    try {
      const { end, line } = await lastWholeLine(handle, path);
      return line === null || end <= start ? null : (recordOf(line) ?? null);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
