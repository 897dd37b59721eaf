// DATA_DIR and the directories of the local stack's keys: created 0700, tightened when found open,
// refused when they are a link or another user's.
import test from "ava";
import { chmod, chown, mkdir, mkdtemp, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateDirectory } from "../src/private-directory.js";

test("created 0700; an open one of this user's closed to others; a link or another user's refused", async (t) => {
  const parent = await mkdtemp(join(tmpdir(), "private-directory-"));
  t.teardown(() => rm(parent, { recursive: true, force: true }));

  const made = join(parent, "made", "deep");
  await privateDirectory(made);
  t.is((await stat(made)).mode & 0o777, 0o700);

  const open = join(parent, "open");
  await mkdir(open);
  await chmod(open, 0o777);
  await privateDirectory(open);
  t.is((await stat(open)).mode & 0o777, 0o700);

  const link = join(parent, "link");
  await symlink(open, link);
  await t.throwsAsync(privateDirectory(link), { message: /not a link or a file/ });

  // Another user's: one made here and given away (as root), else the root directory (as anyone else).
  let theirs = "/";
  if (process.getuid!() === 0) {
    theirs = join(parent, "theirs");
    await mkdir(theirs);
    await chmod(theirs, 0o777);
    await chown(theirs, 65534, 65534);
  }
  await t.throwsAsync(privateDirectory(theirs), { message: /belongs to another user/ });
  if (theirs !== "/") t.is((await stat(theirs)).mode & 0o777, 0o777, "left as it was");
});
