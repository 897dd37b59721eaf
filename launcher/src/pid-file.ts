// <DATA_DIR>/pids.json: the launcher's pid and each running child's, rewritten whenever a child ends
// or starts again and removed when the launcher stops, so an operator (or a test) can find a process
// without parsing logs, and the gRPC services' addresses (the operator's tool reads the wallet's):
// {"launcher": 100, "children": {"db": 101, "odds": 102, ...}, "addresses": {"wallet": "127.0.0.1:4101", ...}}.
import { randomUUID } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";

/** A write that failed (a full disk) is tried again this often, until one succeeds or a newer write comes. */
const RETRY_MS = 5_000;

interface PidFile {
  readonly path: string;
  /** Writes the current pids; writes happen one at a time, in call order, so the last call wins. */
  write(children: { name: string; pid: number }[], addresses: Record<string, string>): Promise<void>;
  remove(): Promise<void>;
}

export function pidFile(path: string, retryMs = RETRY_MS): PidFile {
  let queue = Promise.resolve();
  /** Bumped by each write and the removal: a retry of an older one is dropped. */
  let generation = 0;
  const enqueue = (step: () => Promise<void>) => {
    // A failed write must not stop the launcher or later writes.
    queue = queue.then(step).catch(() => {});
    return queue;
  };
  /** Through a temporary file and a rename: a reader never sees half a file. */
  const writeNow = async (text: string, mine: number) => {
    if (mine !== generation) return;
    const temporary = `${path}.${randomUUID()}.tmp`;
    try {
      await writeFile(temporary, text, { flag: "wx" });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      // Until the disk has room again, the file would name processes that are gone.
      setTimeout(() => void enqueue(() => writeNow(text, mine)), retryMs).unref();
      throw error;
    }
  };
  return {
    path,
    write: (children, addresses) => {
      const pids = Object.fromEntries(children.map((c) => [c.name, c.pid]));
      const text = `${JSON.stringify({ launcher: process.pid, children: pids, addresses })}\n`;
      const mine = ++generation;
      return enqueue(() => writeNow(text, mine));
    },
    remove: () => {
      generation++;
      return enqueue(() => rm(path, { force: true }));
    },
  };
}
