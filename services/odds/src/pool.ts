import { domainErrorOf } from "@pokerodds/common/errors";
import { Piscina } from "piscina";
import type * as Tasks from "./worker.js";

type TaskName = keyof typeof Tasks;
type TaskArgs<K extends TaskName> = Parameters<(typeof Tasks)[K]>[0];
type TaskValue<K extends TaskName> = Extract<ReturnType<(typeof Tasks)[K]>, { ok: unknown }>["ok"];

/**
 * Equity work runs on worker threads sized to the machine, so one large bulk request never
 * blocks the event loop that answers other calls and health checks.
 */
export class OddsPool {
  private readonly piscina: Piscina;

  /**
   * `maxQueue`: when this many tasks wait for a thread, the queue is full and the public requests
   * (Deal, GenerateBulk) are refused at once (RESOURCE_EXHAUSTED) instead of waiting behind it.
   */
  // Both come from config.ts, which owns their defaults (ODDS_WORKERS, ODDS_QUEUE_SIZE).
  constructor(
    threads: number,
    readonly maxQueue: number,
  ) {
    this.piscina = new Piscina({
      filename: new URL("./worker.js", import.meta.url).href,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Number.POSITIVE_INFINITY,
    });
  }

  /** Tasks waiting for a thread. */
  get queued(): number {
    return this.piscina.queueSize;
  }

  get isFull(): boolean {
    return this.queued >= this.maxQueue;
  }

  get threads(): number {
    return this.piscina.options.maxThreads;
  }

  /** Runs one task; domain errors thrown in the worker come back as the same typed errors. */
  async run<K extends TaskName>(name: K, args: TaskArgs<K>, signal?: AbortSignal): Promise<TaskValue<K>> {
    const result = (await this.piscina.run(args, { name, ...(signal ? { signal } : {}) })) as Tasks.TaskResult<
      TaskValue<K>
    >;
    if ("error" in result) throw domainErrorOf(result.error.kind, result.error.message);
    return result.ok;
  }

  close(): Promise<void> {
    return this.piscina.close();
  }
}
