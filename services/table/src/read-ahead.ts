// A table's versions read in order by `_id` point reads (the only reads the embedded database serves
// from an index), several in flight: the next ones are on their way while the caller handles one,
// and no more than `window` are held. Used by the game export and by a watcher's replay.
import type { TableSnapshot } from "./domain/index.js";

/**
 * Versions from..to in order, each with its snapshot (null when the log has none), `window` reads
 * in flight. Stopping the iteration drops the reads still in flight.
 */
export async function* readAhead(
  read: (version: number) => Promise<TableSnapshot | null>,
  from: number,
  to: number,
  window: number,
): AsyncGenerator<{ version: number; snapshot: TableSnapshot | null }> {
  const pending: { version: number; read: Promise<TableSnapshot | null> }[] = [];
  let next = from;
  try {
    for (;;) {
      while (pending.length < window && next <= to) {
        const reading = read(next);
        // Handled now, awaited in turn: a read that fails while others are awaited is no unhandled rejection.
        reading.catch(() => undefined);
        pending.push({ version: next++, read: reading });
      }
      const head = pending.shift();
      if (!head) return;
      yield { version: head.version, snapshot: await head.read };
    }
  } finally {
    pending.length = 0;
  }
}
