import { TIMED_OUT, within } from "@pokerodds/common/within";
import { spawn, type ChildProcess } from "node:child_process";

/** Where a child's output goes: the launcher's own stdout/stderr, nowhere, or an open file descriptor. */
export type Output = "inherit" | "ignore" | number;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  error?: Error;
}

export interface Child {
  readonly name: string;
  readonly pid: number;
  /** The process, for its piped stdout when asked for. */
  readonly process: ChildProcess;
  /** Resolves once the process is gone; never rejects. */
  readonly exited: Promise<Exit>;
  alive(): boolean;
  kill(signal: NodeJS.Signals): void;
}

const live = new Set<Child>();

// Last resort: whatever way this process ends (process.exit, an uncaught exception), no child
// outlives it. Signals are handled by the launcher's own handlers, which stop children gracefully.
process.on("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

export function spawnChild(
  name: string,
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; output: Output; pipeStdout?: boolean },
): Child {
  const proc = spawn(command, args, {
    env: options.env,
    // Own process group: a terminal's Ctrl-C reaches only the launcher, which then stops the
    // children in order, instead of every process at once.
    detached: true,
    stdio: ["ignore", options.pipeStdout ? "pipe" : options.output, options.output],
  });
  let exit: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    proc.once("exit", (code, signal) => resolve((exit = { code, signal })));
    proc.once("error", (error) => {
      // "error" also reports a failed kill of a running process; only a failed spawn ends it.
      if (proc.pid === undefined) resolve((exit = { code: null, signal: null, error }));
    });
  });
  const child: Child = {
    name,
    pid: proc.pid ?? -1,
    process: proc,
    exited,
    alive: () => exit === undefined,
    kill: (signal) => {
      if (exit === undefined && proc.pid !== undefined) proc.kill(signal);
    },
  };
  live.add(child);
  void exited.then(() => live.delete(child));
  return child;
}

export function describeExit(exit: Exit): string {
  if (exit.error) return `could not start: ${exit.error.message}`;
  if (exit.signal) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}

/** Resolves true if `promise` settles before `deadline` (epoch ms), false otherwise. */
async function before(promise: Promise<unknown>, deadline: number): Promise<boolean> {
  return (await within(promise, Math.max(0, deadline - Date.now()))) !== TIMED_OUT;
}

/**
 * Stops children phase by phase (each phase gets SIGTERM and is awaited before the next), all
 * within `graceMs`; whatever is still running then gets SIGKILL. Resolves once all are gone.
 */
export async function stopChildren(phases: Child[][], graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  for (const phase of phases) {
    for (const child of phase) child.kill("SIGTERM");
    if (!(await before(Promise.all(phase.map((child) => child.exited)), deadline))) break;
  }
  const all = phases.flat();
  for (const child of all) child.kill("SIGKILL");
  await Promise.all(all.map((child) => child.exited));
}
