import { BusyError, domainErrorOf } from "@pokerodds/common/errors";
import { withSpan } from "@pokerodds/common/tracing/span";
import type { Attributes, Span } from "@opentelemetry/api";
import { Piscina } from "piscina";
import type * as Tasks from "./worker.js";

type TaskName = keyof typeof Tasks;
type TaskArgs<K extends TaskName> = Parameters<(typeof Tasks)[K]>[0];
type TaskValue<K extends TaskName> = Extract<ReturnType<(typeof Tasks)[K]>, { ok: unknown }>["ok"];

/** Which queue a task waits in: a player waits on each deal and equity; bulk chunks are a batch job. */
export type Lane = "urgent" | "batch";

interface Job {
  name: TaskName;
  args: unknown;
  /** The task's span: it notes when the task leaves its lane for a thread. */
  span: Span;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/**
 * The nice value of the batch lane's threads (Linux, where it is per thread): the kernel gives a
 * runnable normal thread about ten times a niced one's share of a core, so bulk chunks use what the
 * players' deals, the event loops and the other services leave, and all of it when the machine is
 * otherwise idle. Raising a nice value back needs privileges, hence threads of their own per lane.
 */
export const BATCH_THREAD_NICE = 10;

/**
 * Equity work runs on worker threads sized to the machine, so one large bulk request never blocks
 * the event loop that answers other calls and health checks.
 *
 * Each lane has threads of its own: `threads.urgent` at normal priority for what a player waits on
 * (deals and equity), `threads.batch` at BATCH_THREAD_NICE for bulk chunks, so a deal never waits for a chunk to
 * finish nor shares a core with one on equal terms. Tasks wait here, first in first out per lane,
 * and go to the lane's threads one per free thread. (Piscina's own queue is not used: it keeps
 * every task with an abort signal in one FIFO of its own, ahead of any custom queue.) A cancelled
 * call's waiting tasks leave their lane; one already on a thread runs to its end, which is short (a
 * chunk is a few games).
 */
export class OddsPool {
  private readonly lanes: Record<Lane, LaneThreads>;

  /**
   * `maxQueue`: when this many tasks wait in a lane, that lane is full and the public requests that
   * use it (Deal; GenerateBulk) are refused at once (RESOURCE_EXHAUSTED) instead of waiting behind it.
   */
  // Both come from config.ts, which owns their defaults (ODDS_WORKERS, ODDS_QUEUE_SIZE).
  constructor(
    readonly threads: Record<Lane, number>,
    readonly maxQueue: number,
  ) {
    this.lanes = { urgent: laneThreads(threads.urgent, 0), batch: laneThreads(threads.batch, BATCH_THREAD_NICE) };
  }

  /** Tasks waiting for a thread in a lane. */
  queued(lane: Lane): number {
    return this.lanes[lane].waiting.length;
  }

  isFull(lane: Lane): boolean {
    return this.queued(lane) >= this.maxQueue;
  }

  /**
   * BusyError when `lane` is full. Called right before the tasks are queued, in the same tick, so
   * requests that arrive together cannot all pass the check before any of them has queued.
   */
  assertRoom(lane: Lane): void {
    if (this.isFull(lane)) throw new BusyError("the odds service is busy; try again shortly");
  }

  /**
   * Runs one task; domain errors thrown in the worker come back as the same typed errors. Its span
   * ("odds.priceTask"...) is the only view of the equity work, which runs on a thread no
   * instrumentation sees: the wait in the lane is up to its "dispatched" event, the computation after.
   */
  run<K extends TaskName>(name: K, args: TaskArgs<K>, signal?: AbortSignal): Promise<TaskValue<K>> {
    return withSpan(`odds.${name}`, taskAttributes(name, args), async (span) => {
      const result = (await this.enqueue(name, args, span, signal)) as Tasks.TaskResult<TaskValue<K>>;
      if ("error" in result) throw domainErrorOf(result.error.kind, result.error.message);
      return result.ok;
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.lanes.urgent.piscina.close(), this.lanes.batch.piscina.close()]);
  }

  private enqueue(name: TaskName, args: unknown, span: Span, signal?: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      signal?.throwIfAborted();
      const lane = this.lanes[laneOf(name)];
      const job: Job = { name, args, span, resolve, reject };
      lane.waiting.push(job);
      signal?.addEventListener(
        "abort",
        () => {
          const waiting = lane.waiting.indexOf(job);
          if (waiting === -1) return;
          lane.waiting.splice(waiting, 1);
          reject(signal.reason);
        },
        { once: true },
      );
      this.dispatch(lane);
    });
  }

  /** Hands a lane's waiting tasks to its free threads. */
  private dispatch(lane: LaneThreads): void {
    while (lane.running < lane.threads) {
      const job = lane.waiting.shift();
      if (!job) return;
      lane.running++;
      job.span.addEvent("dispatched", { "odds.threads_busy": lane.running });
      lane.piscina
        .run(job.args, { name: job.name })
        .then(job.resolve, job.reject)
        .finally(() => {
          lane.running--;
          this.dispatch(lane);
        });
    }
  }
}

/** A lane: its waiting tasks and its threads. */
interface LaneThreads {
  readonly threads: number;
  readonly piscina: Piscina;
  readonly waiting: Job[];
  running: number;
}

function laneThreads(threads: number, nice: number): LaneThreads {
  const piscina = new Piscina({
    filename: new URL("./worker.js", import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    workerData: { nice } satisfies Tasks.WorkerSettings,
  });
  return { threads, piscina, waiting: [], running: 0 };
}

const laneOf = (name: TaskName): Lane => (name === "bulkTask" ? "batch" : "urgent");

/** What a task's span says of its size: hands, board cards, games; never the cards themselves. */
function taskAttributes(name: TaskName, args: unknown): Attributes {
  const { hands, board, numberOfHands, count } = args as {
    hands?: unknown[];
    board?: unknown[];
    numberOfHands?: number;
    count?: number;
  };
  return {
    "odds.task": name,
    "odds.lane": laneOf(name),
    ...(hands ? { "odds.hands": hands.length } : {}),
    ...(board ? { "odds.board_size": board.length } : {}),
    ...(numberOfHands === undefined ? {} : { "odds.hands": numberOfHands }),
    ...(count === undefined ? {} : { "odds.games": count }),
  };
}
