// The batch lane's runners: child processes of the odds service at a lowered priority
// (batch-process.ts says why processes), each running one task at a time. The pool (pool.ts) hands
// a task to run() only while fewer than `count` are running, so a free process is there unless one
// that ended waits to be started again.
import { UnavailableError } from "@pokerodds/common/errors";
import type { Logger } from "@pokerodds/common/logger";
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { AnswerMessage, TaskMessage } from "./batch-process.js";
import { COMPUTE_HEAP_MB } from "./config.js";

/** What a client hears when its task's process ended (how it ended is for the log). */
const NOT_FINISHED = "the odds service could not finish this request; try again";

const ENTRY = fileURLToPath(new URL("./batch-process.js", import.meta.url));
/**
 * A process that could not start, or ended before its first answer, is replaced at once the first
 * time; after each further such end in a row, after this long, doubled each time up to
 * RESTART_MAX_MS. A process that dies at its start (an environment it cannot run in) would
 * otherwise be forked again and again without end, taking the deals' CPU.
 */
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 30_000;

interface Running {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class BatchProcesses {
  private readonly idle: ChildProcess[] = [];
  private readonly running = new Map<ChildProcess, Running>();
  /** The processes that answered a task: one that ends before it did failed to start. */
  private readonly served = new WeakSet<ChildProcess>();
  /** Processes in a row that failed to start: the next restart waits the longer. */
  private failedStarts = 0;
  private nextId = 0;
  private closing = false;

  /** `logger`: where a process that dies is told, at warn (an operator alerting on it sees a crash). */
  constructor(
    readonly count: number,
    private readonly nice: number,
    private readonly logger?: Logger,
  ) {
    for (let i = 0; i < count; i++) this.start();
  }

  /** The processes' ids, for the service's start-up line and for tests. */
  get pids(): number[] {
    return [...this.idle, ...this.running.keys()].map((child) => child.pid ?? -1);
  }

  run(name: TaskMessage["name"], args: unknown): Promise<unknown> {
    const child = this.idle.pop();
    // Only while one waits to be started again (the pool never runs more tasks than processes).
    if (!child) return Promise.reject(new UnavailableError(NOT_FINISHED));
    return new Promise((resolve, reject) => {
      this.running.set(child, { resolve, reject });
      // The process may have died since it was last free: its exit fails the task and replaces it.
      child.send({ id: this.nextId++, name, args } satisfies TaskMessage, (error) => {
        if (error) child.kill("SIGKILL");
      });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    const children = [...this.idle, ...this.running.keys()];
    await Promise.all(
      children.map((child) => {
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        return gone;
      }),
    );
  }

  /** Forks a process and makes it idle; one that cannot be forked is tried again later. */
  private start(): void {
    let child: ChildProcess;
    try {
      child = this.fork();
    } catch {
      return this.restartLater();
    }
    this.idle.push(child);
  }

  private fork(): ChildProcess {
    const child = fork(ENTRY, [], {
      // Structured clone, as between threads: the games cross as they are, not as JSON.
      serialization: "advanced",
      // A session of its own: where the kernel groups processes by session, its group is its own.
      detached: true,
      // Not the service's preloads (tracing, the launcher's orphan guard): it only computes, and
      // it ends with its IPC channel. Nor its heap's share of the container: a budget of its own.
      execArgv: [`--max-old-space-size=${COMPUTE_HEAP_MB}`],
      env: { ...process.env, ODDS_BATCH_NICE: String(this.nice) },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child.on("message", (answer: AnswerMessage) => this.answered(child, answer));
    child.once("exit", (code, signal) => this.exited(child, code, signal));
    // One that could not start at all (no pid: out of processes or memory) is tried again later.
    child.on("error", () => {
      if (child.pid !== undefined) return;
      this.forget(child);
      this.restartLater();
    });
    return child;
  }

  private restartLater(): void {
    if (this.closing) return;
    const inRow = this.failedStarts++;
    if (inRow === 0) return this.start();
    const delay = Math.min(RESTART_FIRST_MS * 2 ** (inRow - 1), RESTART_MAX_MS);
    setTimeout(() => this.closing || this.start(), delay).unref();
  }

  private answered(child: ChildProcess, answer: AnswerMessage): void {
    const running = this.running.get(child);
    if (!running) return;
    this.served.add(child);
    this.failedStarts = 0;
    this.running.delete(child);
    this.idle.push(child);
    if ("failure" in answer) running.reject(new Error(answer.failure));
    else running.resolve(answer.result);
  }

  /**
   * A process that ends fails its task, if it had one, as unavailable (the client may ask again: its
   * replacement serves the next task), and is replaced (unless the pool is closing).
   */
  private exited(child: ChildProcess, code: number | null, signal: string | null): void {
    const task = this.forget(child);
    const why = `the batch process exited (${signal ?? `code ${code}`})${task ? " during its task" : ""}`;
    if (!this.closing) this.logger?.warn({ childPid: child.pid, code, signal }, `${why}; a new one takes its place`);
    // The client learns that the work was not done; how a process of ours ended is for the log above.
    task?.reject(new UnavailableError(NOT_FINISHED));
    if (this.closing) return;
    if (this.served.has(child)) this.start();
    else this.restartLater();
  }

  /** Takes a process off both lists; answers the task it was running, if any. */
  private forget(child: ChildProcess): Running | undefined {
    const running = this.running.get(child);
    this.running.delete(child);
    const at = this.idle.indexOf(child);
    if (at !== -1) this.idle.splice(at, 1);
    return running;
  }
}
