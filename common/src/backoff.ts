import { setTimeout as sleep } from "node:timers/promises";

/** A random pause ("full jitter") growing with the attempt up to capMs, so racing writers spread out. */
export function backoff(attempt: number, capMs = 25): Promise<void> {
  return sleep(Math.random() * Math.min(capMs, 2 ** attempt));
}
