import { domainErrorOf } from "@pokerodds/common/errors";
import { ArrayTaskQueue, Piscina, type TaskQueue } from "piscina";
import type * as Tasks from "./worker.js";

type TaskName = keyof typeof Tasks;
type TaskArgs<K extends TaskName> = Parameters<(typeof Tasks)[K]>[0];
type TaskValue<K extends TaskName> = Extract<ReturnType<(typeof Tasks)[K]>, { ok: unknown }>["ok"];

/** What the pool queues: piscina's own task object, which carries the task's name. */
type Task = Parameters<TaskQueue["push"]>[0];

/** Which queue a task waits in: a player waits on each deal and equity; bulk chunks are a batch job. */
export type Lane = "urgent" | "batch";

const laneOf = (task: Task): Lane => ((task as { name?: string }).name === "bulkTask" ? "batch" : "urgent");

/**
 * Two first-in-first-out lanes: a thread that frees up takes the oldest urgent task before any bulk
 * chunk, so a deal waits for at most one chunk per thread however many bulk games are queued.
 */
class LaneQueue implements TaskQueue {
  readonly lanes: Record<Lane, ArrayTaskQueue> = { urgent: new ArrayTaskQueue(), batch: new ArrayTaskQueue() };

  get size(): number {
    return this.lanes.urgent.size + this.lanes.batch.size;
  }

  shift(): Task | null {
    return this.lanes.urgent.shift() ?? this.lanes.batch.shift();
  }

  push(task: Task): void {
    this.lanes[laneOf(task)].push(task);
  }

  unshift(task: Task): void {
    this.lanes[laneOf(task)].unshift(task);
  }

  remove(task: Task): void {
    this.lanes[laneOf(task)].remove(task);
  }
}

/**
 * Equity work runs on worker threads sized to the machine, so one large bulk request never
 * blocks the event loop that answers other calls and health checks.
 */
export class OddsPool {
  private readonly piscina: Piscina;
  private readonly queue = new LaneQueue();

  /**
   * `maxQueue`: when this many tasks wait in a lane, that lane is full and the public requests that
   * use it (Deal; GenerateBulk) are refused at once (RESOURCE_EXHAUSTED) instead of waiting behind it.
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
      taskQueue: this.queue,
    });
  }

  /** Tasks waiting for a thread in a lane. */
  queued(lane: Lane): number {
    return this.queue.lanes[lane].size;
  }

  isFull(lane: Lane): boolean {
    return this.queued(lane) >= this.maxQueue;
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
