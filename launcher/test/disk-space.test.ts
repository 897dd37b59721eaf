// The launcher's warning of a disk filling under DATA_DIR (launcher/src/disk-space.ts): the threshold
// and its margin, what is logged as the space falls and comes back, and a real file system's reading.
import type { Logger } from "@pokerodds/common/logger";
import test from "ava";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { diskSpace, isLow, watchDiskSpace, type DiskSpace } from "../src/disk-space.js";

const GiB = 1024 ** 3;

test("low is under 5 % free or under 1 GiB, whichever is more room; room again only above 6 % and 1.2 GiB", (t) => {
  const big = 100 * GiB;
  t.false(isLow({ free: 5.1 * GiB, total: big }, false));
  t.true(isLow({ free: 4.9 * GiB, total: big }, false));
  // A small disk: 1 GiB is more than 5 % of it.
  t.true(isLow({ free: 0.9 * GiB, total: 10 * GiB }, false));
  t.false(isLow({ free: 1.1 * GiB, total: 10 * GiB }, false));
  // Once low, 5.5 % is not room yet; 6.1 % is.
  t.true(isLow({ free: 5.5 * GiB, total: big }, true));
  t.false(isLow({ free: 6.1 * GiB, total: big }, true));
  t.true(isLow({ free: 1.1 * GiB, total: 10 * GiB }, true));
  t.false(isLow({ free: 1.3 * GiB, total: 10 * GiB }, true));
});

/** A logger that keeps each line's level, message and fields. */
function recordingLogger() {
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) =>
    lines.push({ level, message, fields });
  return { lines, logger: { warn: at("warn"), info: at("info") } as unknown as Logger };
}

test("a warning when the space turns low, none more while it stays so, a line when there is room again", async (t) => {
  const readings: DiskSpace[] = [
    { free: 50 * GiB, total: 100 * GiB },
    { free: 4 * GiB, total: 100 * GiB },
    { free: 3 * GiB, total: 100 * GiB },
    { free: 5.5 * GiB, total: 100 * GiB },
    { free: 20 * GiB, total: 100 * GiB },
    { free: 2 * GiB, total: 100 * GiB },
  ];
  const { lines, logger } = recordingLogger();
  let next = 0;
  const watch = watchDiskSpace("/data", logger, async () => readings[next++]!);
  t.teardown(() => watch.stop());
  // The first reading is taken at once; each further one by check().
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(lines, []);
  for (let i = 1; i < readings.length; i++) await watch.check();
  t.deepEqual(
    lines.map(({ level, message }) => `${level}: ${message}`),
    [
      "warn: the disk holding DATA_DIR is almost full: once it is, every move of money answers 503; free some space or move DATA_DIR",
      "info: the disk holding DATA_DIR has room again",
      "warn: the disk holding DATA_DIR is almost full: once it is, every move of money answers 503; free some space or move DATA_DIR",
    ],
  );
  t.deepEqual(lines[0]!.fields, { dataDir: "/data", freeMiB: 4096, totalMiB: 102_400 });
});

test("a reading that fails is logged once while it keeps failing, and the watch goes on", async (t) => {
  const { lines, logger } = recordingLogger();
  let fail = true;
  const watch = watchDiskSpace("/data", logger, async () => {
    if (fail) throw new Error("EACCES");
    return { free: 1, total: 100 * GiB };
  });
  t.teardown(() => watch.stop());
  await new Promise((resolve) => setImmediate(resolve));
  await watch.check();
  fail = false;
  await watch.check();
  t.deepEqual(
    lines.map(({ level, message }) => `${level}: ${message}`),
    [
      "warn: could not read the free disk space",
      "warn: the disk holding DATA_DIR is almost full: once it is, every move of money answers 503; free some space or move DATA_DIR",
    ],
  );
});

test("diskSpace reads the file system's free and total bytes as df does", async (t) => {
  const dir = tmpdir();
  const space = await diskSpace(dir);
  // df's 1K-blocks and Available of the same file system.
  const [, total, available] = execFileSync("df", ["-k", "--output=target,size,avail", dir], { encoding: "utf8" })
    .trim()
    .split("\n")[1]!
    .trim()
    .split(/\s+/)
    .map(Number);
  t.is(Math.floor(space.total / 1024), total!);
  // Free space moves while other processes write: within 64 MiB.
  t.true(Math.abs(space.free / 1024 - available!) < 64 * 1024, `${space.free / 1024} KiB against df's ${available}`);
});
