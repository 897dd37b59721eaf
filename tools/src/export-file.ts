// The file `npm run export-games --out` writes: emptied for a new export; for a resumed one (--after)
// checked to end with the record the export resumes after, and cut back to that record's newline, so
// the line a full disk or a killed process left half written goes, and a resume from another cursor
// (which would repeat or skip games) is refused before anything is added.
import { open, type FileHandle } from "node:fs/promises";
import type { Writable } from "node:stream";

/** Why the file cannot take the export: no export (exit 2) with this message. */
export class ExportFileError extends Error {}

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/** The offset just past the file's last newline (0 when none), and the whole line before it (null when none). */
async function lastWholeLine(handle: FileHandle): Promise<{ end: number; line: string | null }> {
  const { size } = await handle.stat();
  let tail = Buffer.alloc(0);
  for (let position = size; position > 0;) {
    const length = Math.min(CHUNK, position);
    position -= length;
    const chunk = Buffer.alloc(length);
    await handle.read(chunk, 0, length, position);
    tail = Buffer.concat([chunk, tail]);
    const last = tail.lastIndexOf(NEWLINE);
    if (last < 0) continue;
    const previous = last === 0 ? -1 : tail.lastIndexOf(NEWLINE, last - 1);
    if (previous < 0 && position > 0) continue;
    return { end: position + last + 1, line: tail.subarray(previous + 1, last).toString("utf8") };
  }
  return { end: 0, line: null };
}

function cursorOf(line: string): string | undefined {
  try {
    const cursor = (JSON.parse(line) as { cursor?: unknown }).cursor;
    return typeof cursor === "string" ? cursor : undefined;
  } catch {
    return undefined;
  }
}

/** A resumed export's file, once its last whole record is the one `after` names; cut back to it. */
async function resumedFile(path: string, after: string): Promise<Writable> {
  const handle = await open(path, "a+");
  try {
    const { end, line } = await lastWholeLine(handle);
    if (line !== null) {
      const cursor = cursorOf(line);
      if (cursor === undefined) throw new ExportFileError(`${path} does not end with a game record`);
      if (cursor !== after) {
        throw new ExportFileError(
          `${path} ends with the game of cursor ${cursor}: resume with --after ${cursor}, or name another --out`,
        );
      }
    }
    await handle.truncate(end);
  } finally {
    await handle.close();
  }
  return (await open(path, "a")).createWriteStream();
}

/** The file named by --out: emptied for a new export, checked and added to for a resumed one. */
export async function exportFile(path: string, after: string | undefined): Promise<Writable> {
  try {
    return after === undefined ? (await open(path, "w")).createWriteStream() : await resumedFile(path, after);
  } catch (error) {
    if (error instanceof ExportFileError) throw error;
    throw new ExportFileError(`cannot write ${path}: ${(error as Error).message}`);
  }
}
