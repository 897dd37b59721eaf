// One launcher per DATA_DIR: a running launcher's lock refuses a second one; a lock whose launcher is
// gone, or whose pid now names another process (another start time), is taken over.
import test, { type ExecutionContext } from "ava";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DataDirInUse, lockDataDir, startTimeOf } from "../src/data-dir-lock.js";

async function dataDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "lock-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const lockOf = (dir: string) => join(dir, "launcher.lock");
const holder = async (dir: string) => JSON.parse(await readFile(lockOf(dir), "utf8")) as unknown;

test("a running launcher's lock refuses another; released, it can be taken again", async (t) => {
  const dir = await dataDir(t);
  const release = await lockDataDir(dir);
  t.deepEqual(await holder(dir), { pid: process.pid, started: startTimeOf(process.pid) });
  t.not(startTimeOf(process.pid), null);
  const refused = await t.throwsAsync(lockDataDir(dir), { instanceOf: DataDirInUse });
  t.is(
    refused?.message,
    `${dir} is in use by the launcher with pid ${process.pid}: stop it, or give this one another DATA_DIR`,
  );
  await release();
  await t.throwsAsync(readFile(lockOf(dir)));
  const again = await lockDataDir(dir);
  await again();
});

test("another running process's lock refuses; once it has exited, the lock is taken over", async (t) => {
  const dir = await dataDir(t);
  const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
  t.teardown(() => other.kill("SIGKILL"));
  await once(other, "spawn");
  await writeFile(lockOf(dir), JSON.stringify({ pid: other.pid, started: startTimeOf(other.pid!) }));
  await t.throwsAsync(lockDataDir(dir), { instanceOf: DataDirInUse, message: new RegExp(`pid ${other.pid}:`) });
  other.kill("SIGKILL");
  await once(other, "exit");
  const release = await lockDataDir(dir);
  t.deepEqual(await holder(dir), { pid: process.pid, started: startTimeOf(process.pid) });
  await release();
});

test("a lock whose pid now names a process started at another time, or an unreadable lock, is taken over", async (t) => {
  const dir = await dataDir(t);
  const mine = { pid: process.pid, started: startTimeOf(process.pid) };
  for (const left of [JSON.stringify({ pid: process.pid, started: "1" }), "not json"]) {
    await writeFile(lockOf(dir), left);
    const release = await lockDataDir(dir);
    t.deepEqual(await holder(dir), mine, left);
    await release();
  }
});
