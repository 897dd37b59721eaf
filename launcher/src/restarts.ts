// Under `npm start` a child that ends without being asked to (a crash, kill -9, an out-of-memory
// kill) is started again, on its port and with its environment, after a delay that doubles with each
// restart of that child within the window. The services recover their own pending work when they
// start, so a restart is all that a crash needs. A child that does not come up again (it ends while
// starting, or the stack kills it for not listening in time) counts as another exit, and such
// restarts count toward the limit until one comes up, however long their starts took. A child that
// keeps crashing is not restarted for ever: past the limit the launcher stops everything and exits
// non-zero, so the failure is seen.
import { ConfigError, envInt } from "@pokerodds/common/config";
import type { Logger } from "@pokerodds/common/logger";
import { describeExit, type Exit } from "./child.js";

export interface RestartPolicy {
  /** Restarts of one child allowed within `windowMs`; its next exit stops everything. 0: never restart. */
  maxRestarts: number;
  windowMs: number;
  /** Delay of a child's first restart within the window, doubled for each further one up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
}

/** The variables and their defaults, defined here only (README, Configuration). */
const restartVariables = {
  maxRestarts: { name: "RESTART_MAX_PER_WINDOW", fallback: 5 },
  windowSeconds: { name: "RESTART_WINDOW_SECONDS", fallback: 60 },
  initialDelayMs: { name: "RESTART_DELAY_MS", fallback: 500 },
  maxDelayMs: { name: "RESTART_DELAY_MAX_MS", fallback: 10_000 },
} as const;

/** The policy from the environment; throws ConfigError on a bad value. */
export function readRestartPolicy(env: NodeJS.ProcessEnv = process.env): RestartPolicy {
  const { maxRestarts, windowSeconds, initialDelayMs, maxDelayMs } = restartVariables;
  const read = (variable: { name: string; fallback: number }, min: number, max: number) =>
    envInt(variable.name, variable.fallback, { min, max }, env);
  const policy = {
    maxRestarts: read(maxRestarts, 0, 1000),
    windowMs: read(windowSeconds, 1, 86_400) * 1000,
    initialDelayMs: read(initialDelayMs, 0, 3_600_000),
    maxDelayMs: read(maxDelayMs, 0, 3_600_000),
  };
  if (policy.maxDelayMs < policy.initialDelayMs) {
    throw new ConfigError(
      `${maxDelayMs.name} (${policy.maxDelayMs}) must be at least ${initialDelayMs.name} (${policy.initialDelayMs})`,
    );
  }
  // The limit's restarts are at least their delays apart: when those fill the window, the earliest
  // has left it before the last is made, and a child that keeps crashing is restarted for ever.
  const delays = restartDelaysMs(policy);
  if (delays >= policy.windowMs) {
    throw new ConfigError(
      `${windowSeconds.name} (${policy.windowMs / 1000}) must be longer than the delays of ` +
        `${maxRestarts.name} (${policy.maxRestarts}) restarts, ${delays / 1000} s: else the limit is never ` +
        `reached and a child that keeps crashing is restarted for ever`,
    );
  }
  return policy;
}

/** The delays before a child's first `maxRestarts` restarts within a window, in all. */
export function restartDelaysMs(policy: RestartPolicy): number {
  let total = 0;
  for (let attempt = 1; attempt <= policy.maxRestarts; attempt++) total += backoffDelay(policy, attempt);
  return total;
}

type Decision =
  | {
      restart: true;
      /** 1-based, among the restarts that count */
      attempt: number;
      delayMs: number;
      /** Counted by the restarts before it that did not come up, which the window no longer holds. */
      byFailures: boolean;
    }
  | { restart: false; /** restarts that count, already made */ restarts: number };

/**
 * Pure: what to do about a child that exited at `now`, given when its earlier restarts were decided
 * and how many of the latest did not come up (`failedInARow`). Those count however old: a start may
 * last longer than the window (the stack waits up to 60 s for a child to listen), and a child that
 * never comes up must still reach the limit.
 */
export function decide(policy: RestartPolicy, earlier: readonly number[], now: number, failedInARow = 0): Decision {
  const recent = earlier.filter((at) => now - at < policy.windowMs).length;
  const counted = Math.max(recent, failedInARow);
  if (counted >= policy.maxRestarts) return { restart: false, restarts: counted };
  const attempt = counted + 1;
  return { restart: true, attempt, delayMs: backoffDelay(policy, attempt), byFailures: failedInARow > recent };
}

/** initialDelayMs, doubled for each restart after the first, never above maxDelayMs. */
export function backoffDelay(policy: RestartPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
}

/** Time as the restarter sees it: real timers in the launcher, fake ones in tests. */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface RestarterOptions {
  policy: RestartPolicy;
  /**
   * Starts the child again and resolves with its pid once it is up; rejects if it did not come up,
   * leaving no process of it running (the stack kills one that does not listen in time).
   */
  start(name: string): Promise<number>;
  /** Called once, when a child exits past the limit: the caller stops everything and exits non-zero. */
  giveUp(name: string): void;
  /**
   * After each successful restart, before it is logged: once the log says a child runs again, what
   * this records (the pid file) says so too.
   */
  restarted?(name: string, pid: number): Promise<void> | void;
  log: Pick<Logger, "info" | "warn" | "error">;
  clock?: Clock;
}

/** Restarts children that exit unexpectedly, by the policy, until stop() or the limit. */
export class Restarter {
  /** When each child's restarts were decided, for the window. */
  private readonly history = new Map<string, number[]>();
  /** Each child's latest restarts that did not come up, until one does. */
  private readonly failedInARow = new Map<string, number>();
  private readonly timers = new Map<string, unknown>();
  /** Children being started again, with the reason if the new process already ended. */
  private readonly starting = new Map<string, string | undefined>();
  private stopped = false;
  private readonly clock: Clock;

  constructor(private readonly options: RestarterOptions) {
    this.clock = options.clock ?? realClock;
  }

  /** A child ended without being asked to. */
  exited(name: string, exit: Exit): void {
    if (this.stopped) return;
    // A process that dies while its start is awaited: decided once that start settles.
    if (this.starting.has(name)) this.starting.set(name, describeExit(exit));
    else this.schedule(name, describeExit(exit));
  }

  /** Nothing is restarted from now on: pending restarts are cancelled, starts in flight ignored. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) this.clock.clearTimeout(timer);
    this.timers.clear();
  }

  /** Children whose restart is waiting for its delay. */
  pending(): string[] {
    return [...this.timers.keys()];
  }

  private schedule(name: string, why: string): void {
    const { policy, log } = this.options;
    const now = this.clock.now();
    const earlier = this.history.get(name) ?? [];
    const failed = this.failedInARow.get(name) ?? 0;
    const decision = decide(policy, earlier, now, failed);
    if (!decision.restart) {
      log.error(
        { child: name, reason: why, restarts: decision.restarts },
        `${name} ${why}; ${limitReached(policy, decision.restarts, failed)}: stopping everything`,
      );
      this.stop();
      this.options.giveUp(name);
      return;
    }
    this.history.set(name, [...earlier.filter((at) => now - at < policy.windowMs), now]);
    const { attempt, delayMs, byFailures } = decision;
    // The window's count, or, past the window, the restarts that did not come up.
    const which = byFailures
      ? `restart ${attempt} of ${policy.maxRestarts}: the ${failed} before it did not come up`
      : `restart ${attempt} of ${policy.maxRestarts} within ${policy.windowMs / 1000} s`;
    log.warn(
      { child: name, reason: why, attempt, maxRestarts: policy.maxRestarts, delayMs },
      `${name} ${why}; restarting it in ${delayMs} ms (${which})`,
    );
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(name);
      void this.restart(name, which);
    }, delayMs);
    this.timers.set(name, timer);
  }

  private async restart(name: string, which: string): Promise<void> {
    if (this.stopped) return;
    this.starting.set(name, undefined);
    let pid: number | undefined;
    let failure: string | undefined;
    try {
      pid = await this.options.start(name);
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    const diedMeanwhile = this.starting.get(name);
    this.starting.delete(name);
    if (this.stopped) return;
    if (diedMeanwhile === undefined && failure === undefined) {
      this.failedInARow.delete(name);
      await this.options.restarted?.(name, pid!);
      // childPid: pino's own pid field is the launcher's.
      this.options.log.info({ child: name, childPid: pid }, `${name} restarted, pid ${pid} (${which})`);
      return;
    }
    // Nothing of it runs (start's contract): a start that failed is decided like an exit.
    this.failedInARow.set(name, (this.failedInARow.get(name) ?? 0) + 1);
    this.schedule(
      name,
      diedMeanwhile !== undefined ? `${diedMeanwhile} while starting again` : `did not start again (${failure})`,
    );
  }
}

/** Why a child is not restarted again, for the log line that stops everything. */
function limitReached(policy: RestartPolicy, restarts: number, failedInARow: number): string {
  const { maxRestarts, windowSeconds } = restartVariables;
  if (policy.maxRestarts === 0) return `restarts are off (${maxRestarts.name}=0)`;
  if (failedInARow >= policy.maxRestarts)
    return `its last ${failedInARow} restarts did not come up, the limit (${maxRestarts.name}=${policy.maxRestarts})`;
  return (
    `it was restarted ${restarts} times already, the limit ` +
    `(${maxRestarts.name}=${policy.maxRestarts}, ${windowSeconds.name}=${policy.windowMs / 1000})`
  );
}
