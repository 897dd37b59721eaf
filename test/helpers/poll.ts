import { setTimeout as sleep } from "node:timers/promises";

/**
 * Polls `check` until it returns a value other than undefined, then returns it; after `timeoutMs`
 * throws, naming `what` and the last thing `check` said (via `describe`).
 */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  { timeoutMs = 30_000, intervalMs = 250 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
      last = "not yet";
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${String(last)})`);
    await sleep(intervalMs);
  }
}

/** Waits until `check` holds, polling every 10 ms; throws naming `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(10);
  }
}
