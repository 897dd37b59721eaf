// <DATA_DIR>/launcher.lock: one launcher per data directory. A second one (another PORT, the same
// DATA_DIR) would start a second embedded database on the same files and overwrite, then delete, the
// first one's pids.json. The lock names its launcher by pid and the process's start time, so a lock
// left by a killed launcher is taken over even when its pid now belongs to another process. Two
// launchers started at the same moment over a stale lock may both take it: this guards against a
// mistake, not an adversary.
import { readFileSync } from "node:fs";
import { privateDirectory } from "@pokerodds/common/private-directory";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout } from "node:timers/promises";

export class DataDirInUse extends Error {}

interface Holder {
  pid: number;
  /** The kernel's start time of the process (/proc/<pid>/stat), null where there is no /proc. */
  started: string | null;
}

/** Field 22 of /proc/<pid>/stat, counted after the command's closing parenthesis; null when unreadable. */
export function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/** The lock's launcher is still the process with its pid: another user's process is compared by start time too. */
function isRunning(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return holder.started === null || startTimeOf(holder.pid) === holder.started;
}

async function holderOf(path: string): Promise<Holder | undefined> {
  try {
    const holder = JSON.parse(await readFile(path, "utf8")) as Partial<Holder>;
    return Number.isInteger(holder.pid) ? { pid: holder.pid!, started: holder.started ?? null } : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the directory's lock for this process; resolves to its release. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await privateDirectory(dataDir);
  const path = join(dataDir, "launcher.lock");
  const mine: Holder = { pid: process.pid, started: startTimeOf(process.pid) };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, `${JSON.stringify(mine)}\n`, { flag: "wx" });
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    // A lock just created is empty until its holder has written it: read again after a moment.
    const holder = (await holderOf(path)) ?? (await setTimeout(100).then(() => holderOf(path)));
    if (holder !== undefined && isRunning(holder)) {
      throw new DataDirInUse(
        `${dataDir} is in use by the launcher with pid ${holder.pid}: stop it, or give this one another DATA_DIR`,
      );
    }
    // Left by a launcher that is gone (or unreadable): taken over.
    await rm(path, { force: true });
  }
  throw new DataDirInUse(`${path} is being taken by another launcher at this moment`);
}
