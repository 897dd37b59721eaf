// Under `npm start` the embedded database lives in DATA_DIR, and nothing is ever deleted from it: it
// grows with play (the table database by 10 MB in 20 s under 4 busy players). A full disk is seen
// by the services only once writes fail (GET /api/health: "database read only"); the launcher says
// it before, in its log, while there is still room to act.
import type { Logger } from "@pokerodds/common/logger";
import { statfs } from "node:fs/promises";

/** How often the free space is read. */
const DISK_CHECK_INTERVAL_MS = 60_000;

/** Low: under 5 % of the file system free, or under 1 GiB, whichever is more room. */
const LOW_SHARE = 0.05;
const LOW_BYTES = 1024 ** 3;
/** Room again only above these (a margin, so that a level near the line does not log each minute). */
const ENOUGH_SHARE = 0.06;
const ENOUGH_BYTES = 1.2 * 1024 ** 3;

export interface DiskSpace {
  /** Bytes an unprivileged process may still write. */
  free: number;
  total: number;
}

/** Whether `space` is low, given whether it was low at the last reading (a margin on the way back). */
export function isLow(space: DiskSpace, wasLow: boolean): boolean {
  const [share, bytes] = wasLow ? [ENOUGH_SHARE, ENOUGH_BYTES] : [LOW_SHARE, LOW_BYTES];
  return space.free < Math.max(share * space.total, bytes);
}

/** The free and total bytes of the file system that holds `dir`. */
export async function diskSpace(dir: string): Promise<DiskSpace> {
  const stats = await statfs(dir);
  return { free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
}

const mebibytes = (bytes: number) => Math.floor(bytes / 1024 ** 2);

/** A warning is repeated this often while the space stays low. */
const WARN_AGAIN_MS = 3_600_000;

export interface DiskWatch {
  /** Reads the free space now (the timer does so every DISK_CHECK_INTERVAL_MS). */
  check(): Promise<void>;
  stop(): void;
}

/**
 * Reads the free space of `dir`'s file system now and every DISK_CHECK_INTERVAL_MS; logs a warning
 * when it turns low, again each hour while it stays so, and a line when there is room again (and one
 * when the space cannot be read, until it can).
 */
export function watchDiskSpace(dir: string, logger: Logger, read = diskSpace): DiskWatch {
  let low = false;
  let warnedAt = -Infinity;
  // A reading that keeps failing (the directory removed) is said once, not each minute.
  let unreadable = false;
  const check = async () => {
    let space: DiskSpace;
    try {
      space = await read(dir);
    } catch (error) {
      if (!unreadable) logger.warn({ dataDir: dir, reason: String(error) }, "could not read the free disk space");
      unreadable = true;
      return;
    }
    unreadable = false;
    const wasLow = low;
    low = isLow(space, wasLow);
    const fields = { dataDir: dir, freeMiB: mebibytes(space.free), totalMiB: mebibytes(space.total) };
    if (low && performance.now() - warnedAt >= WARN_AGAIN_MS) {
      warnedAt = performance.now();
      logger.warn(
        fields,
        "the disk holding DATA_DIR is almost full: once it is, every move of money answers 503; free some space or move DATA_DIR",
      );
    } else if (wasLow && !low) {
      warnedAt = -Infinity;
      logger.info(fields, "the disk holding DATA_DIR has room again");
    }
  };
  void check();
  const timer = setInterval(() => void check(), DISK_CHECK_INTERVAL_MS);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
