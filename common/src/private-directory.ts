// A directory only this user may enter: the local stack keeps its secrets (the CA's key, the
// development issuer's key) and its database under DATA_DIR. A DATA_DIR under a shared parent (/tmp)
// that another user made first would otherwise hand them those keys: an operator certificate to
// deposit with, a token for any player or ADMIN.
import { chmod, lstat, mkdir } from "node:fs/promises";

/**
 * Creates `path` (0700) or checks the one there: a directory, not a link to one, owned by this user;
 * then closes it to everyone else. Throws when another user owns it.
 */
export async function privateDirectory(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  const found = await lstat(path);
  if (!found.isDirectory()) throw new Error(`${path} must be a directory of its own, not a link or a file`);
  const uid = process.getuid?.();
  if (uid !== undefined && found.uid !== uid) {
    throw new Error(`${path} belongs to another user (uid ${found.uid}): give DATA_DIR a directory of your own`);
  }
  if ((found.mode & 0o077) !== 0) await chmod(path, 0o700);
}
