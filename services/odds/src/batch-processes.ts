// The batch lane's runners: child processes of the odds service at a lowered priority
// (batch-process.ts says why processes), each running one task at a time. The pool (pool.ts) hands
// a task to run() only while fewer than `count` are running, so a free process is always there.
import { UnavailableError } from "@pokerodds/common/errors";
import type { Logger } from "@pokerodds/common/logger";
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { AnswerMessage, TaskMessage } from "./batch-process.js";

const ENTRY = fileURLToPath(new URL("./batch-process.js", import.meta.url));
/** A process that could not be started is tried again after this long. */
const SPAWN_RETRY_MS = 1_000;

interface Running {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class BatchProcesses {
  private readonly idle: ChildProcess[] = [];
  private readonly running = new Map<ChildProcess, Running>();
  private nextId = 0;
  private closing = false;

  /** `logger`: where a process that dies is told, at warn (an operator alerting on it sees a crash). */
  constructor(
    readonly count: number,
    private readonly nice: number,
    private readonly logger?: Logger,
  ) {
    for (let i = 0; i < count; i++) this.idle.push(this.start());
  }

  /** The processes' ids, for the service's start-up line and for tests. */
  get pids(): number[] {
    return [...this.idle, ...this.running.keys()].map((child) => child.pid ?? -1);
  }

  run(name: TaskMessage["name"], args: unknown): Promise<unknown> {
    const child = this.idle.pop();
    if (!child) return Promise.reject(new Error("no batch process free"));
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

  private start(): ChildProcess {
    const child = fork(ENTRY, [], {
      // Structured clone, as between threads: the games cross as they are, not as JSON.
      serialization: "advanced",
      // A session of its own: where the kernel groups processes by session, its group is its own.
      detached: true,
      // Not the service's preloads (tracing, the launcher's orphan guard): it only computes, and
      // it ends with its IPC channel.
      execArgv: [],
      env: { ...process.env, ODDS_BATCH_NICE: String(this.nice) },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child.on("message", (answer: AnswerMessage) => this.answered(child, answer));
    child.once("exit", (code, signal) => this.exited(child, code, signal));
    // One that could not start at all (no pid: out of processes or memory) is tried again later.
    child.on("error", () => {
      if (child.pid !== undefined) return;
      this.forget(child);
      if (!this.closing) setTimeout(() => this.closing || this.idle.push(this.start()), SPAWN_RETRY_MS).unref();
    });
    return child;
  }

  private answered(child: ChildProcess, answer: AnswerMessage): void {
    const running = this.running.get(child);
    if (!running) return;
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
    task?.reject(new UnavailableError("the odds service could not finish this request; try again"));
    if (!this.closing) this.idle.push(this.start());
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
