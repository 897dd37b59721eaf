import { setTimeout as sleep } from "node:timers/promises";

/**
 * A pause before retrying after losing a race on a unique index: random ("full jitter") so that
 * the losers do not collide again in lockstep, growing with the attempt, never above capMs.
 */
export function backoff(attempt: number, capMs = 25): Promise<void> {
  return sleep(Math.random() * Math.min(capMs, 2 ** attempt));
}
