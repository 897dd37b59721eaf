// The processes a test saw, each by its pid and its start time: a pid the kernel has since handed to
// another process (pid_max is 32,768 here, and a test run starts thousands) is not the process the
// test saw, and must be neither counted as it nor killed in its place.
import { startTimeOf } from "@pokerodds/launcher/data-dir-lock";

export class SeenProcesses {
  private readonly started = new Map<number, string | null>();

  /**
   * Notes a pid as the process running under it now: a pid seen before stays the process it was
   * while that one runs, and is another one's (a new child the kernel gave it) once that one is gone.
   */
  add(pid: number): void {
    const started = this.started.get(pid);
    if (started == null || startTimeOf(pid) !== started) this.started.set(pid, startTimeOf(pid));
  }

  /** Of `pids` (every one seen when absent), those whose process still runs. */
  alive(pids: Iterable<number> = this.started.keys()): number[] {
    return [...pids].filter((pid) => {
      const started = this.started.get(pid);
      return started != null && startTimeOf(pid) === started;
    });
  }

  /** SIGKILLs every process seen that still runs (a test's teardown: leave nothing behind). */
  killAll(): void {
    for (const pid of this.alive()) process.kill(pid, "SIGKILL");
  }
}
