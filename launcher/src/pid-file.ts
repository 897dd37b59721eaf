// <DATA_DIR>/pids.json: the launcher's pid and each running child's, rewritten whenever a child ends
// or starts again and removed when the launcher stops, so an operator (or a test) can find a process
// without parsing logs, and the gRPC services' addresses (the operator's tool reads the wallet's):
// {"launcher": 100, "children": {"db": 101, "odds": 102, ...}, "addresses": {"wallet": "127.0.0.1:4101", ...}}.
import { randomUUID } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";

export interface PidFile {
  readonly path: string;
  /** Writes the current pids; writes happen one at a time, in call order, so the last call wins. */
  write(children: { name: string; pid: number }[], addresses: Record<string, string>): Promise<void>;
  remove(): Promise<void>;
}

export function pidFile(path: string): PidFile {
  let queue = Promise.resolve();
  const enqueue = (step: () => Promise<void>) => {
    // A failed write (a full disk) must not stop the launcher or later writes.
    queue = queue.then(step).catch(() => {});
    return queue;
  };
  return {
    path,
    write: (children, addresses) =>
      enqueue(async () => {
        const pids = Object.fromEntries(children.map((c) => [c.name, c.pid]));
        const content = { launcher: process.pid, children: pids, addresses };
        // Through a temporary file and a rename: a reader never sees half a file.
        const temporary = `${path}.${randomUUID()}.tmp`;
        await writeFile(temporary, `${JSON.stringify(content)}\n`, { flag: "wx" });
        await rename(temporary, path);
      }),
    remove: () => enqueue(() => rm(path, { force: true })),
  };
}
