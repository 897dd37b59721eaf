import { setTimeout as sleep } from "node:timers/promises";

const CAP_MS = 25;

/**
 * A pause before retrying after losing a race on a unique index: random ("full jitter") so that
 * the losers do not collide again in lockstep, growing with the attempt up to CAP_MS.
 */
export function backoff(attempt: number): Promise<void> {
  return sleep(Math.random() * Math.min(CAP_MS, 2 ** attempt));
}
