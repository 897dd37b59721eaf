// <DATA_DIR>/pids.json: a write that fails leaves no temporary file behind and is tried again, so
// that after a full disk the file does not go on naming processes that are gone.
import test from "ava";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { until } from "../../test/helpers/poll.js";
import { pidFile } from "../src/pid-file.js";

test("a write that fails leaves no temporary file, and is tried again until it succeeds", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "pokerodds-pids-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, "pids.json");
  // A directory where the file goes: the rename fails, as a write does on a full disk.
  await mkdir(path);
  const pids = pidFile(path, 100);
  await pids.write([{ name: "db", pid: 4242 }], { wallet: "127.0.0.1:1" });
  t.deepEqual(await readdir(dir), ["pids.json"], "no temporary file left");
  await rm(path, { recursive: true });
  await until("the write tried again", () => existsSync(path));
  t.like(JSON.parse(await readFile(path, "utf8")), { children: { db: 4242 }, addresses: { wallet: "127.0.0.1:1" } });
  await pids.remove();
});

test("a failed write is not tried again once a newer write or the removal came", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "pokerodds-pids-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, "pids.json");
  await mkdir(path);
  const pids = pidFile(path, 100);
  await pids.write([{ name: "db", pid: 1 }], {});
  await rm(path, { recursive: true });
  await pids.write([{ name: "db", pid: 2 }], {});
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.like(JSON.parse(await readFile(path, "utf8")), { children: { db: 2 } }, "the older one is not written over it");
  await pids.remove();
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.deepEqual(await readdir(dir), [], "nor after the removal");
});
