import { BusyError, domainErrorOf } from "@pokerodds/common/errors";
import type { Logger } from "@pokerodds/common/logger";
import { withSpan } from "@pokerodds/common/tracing/span";
import type { Attributes, Span } from "@opentelemetry/api";
import { Piscina } from "piscina";
import { BatchProcesses } from "./batch-processes.js";
import { COMPUTE_HEAP_MB } from "./config.js";
import type * as Tasks from "./tasks.js";

type TaskName = keyof typeof Tasks;
type TaskArgs<K extends TaskName> = Parameters<(typeof Tasks)[K]>[0];
type TaskValue<K extends TaskName> = Extract<ReturnType<(typeof Tasks)[K]>, { ok: unknown }>["ok"];

/** Which queue a task waits in: a player waits on each deal and equity; bulk chunks are a batch job. */
type Lane = "urgent" | "batch";

interface Job {
  name: TaskName;
  args: unknown;
  /** The task's span: it notes when the task leaves its lane for a runner. */
  span: Span;
  /** A table's game flow: it goes before the lane's public tasks and is never refused (run). */
  gameFlow: boolean;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/**
 * The nice value of the batch lane's processes: the kernel gives a runnable normal thread about ten
 * times a niced one's share of a core, so bulk chunks use what the players' deals, the event loops
 * and the other services leave, and all of it when the machine is otherwise idle.
 */
export const BATCH_NICE = 10;

/**
 * Equity work runs off the event loop that answers calls and health checks, in two lanes with
 * runners of their own: `runners.urgent` worker threads at the service's priority for what a player
 * waits on (deals and equity), `runners.batch` processes at BATCH_NICE for bulk chunks
 * (batch-process.ts says why processes), so a deal never waits for a chunk to finish nor shares a
 * core with one on equal terms. Tasks wait here, first in first out per lane, and go to the lane's
 * runners one per free runner; a table's game flow (its Equity calls) goes before the public
 * deals waiting in its lane, so that a flood of public deals delays no table. (Piscina's own queue
 * is not used: it keeps every task with an abort signal in one FIFO of its own, ahead of any custom
 * queue.) A cancelled call's waiting tasks leave
 * their lane; one already running runs to its end, which is short (a chunk is a few games).
 */
export class OddsPool {
  private readonly lanes: Record<Lane, LaneRunners>;

  /**
   * `maxQueue`: when this many tasks wait in a lane, that lane is full and the public requests that
   * use it (Deal; GenerateBulk) are refused at once (RESOURCE_EXHAUSTED) instead of waiting behind it.
   */
  // Both come from config.ts, which owns their defaults (ODDS_WORKERS, ODDS_QUEUE_SIZE). `logger`
  // hears of a batch process that dies.
  constructor(
    readonly runners: Record<Lane, number>,
    readonly maxQueue: number,
    logger?: Logger,
  ) {
    const threads = new Piscina({
      filename: new URL("./thread.cjs", import.meta.url).href,
      minThreads: runners.urgent,
      maxThreads: runners.urgent,
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: { maxOldGenerationSizeMb: COMPUTE_HEAP_MB },
    });
    const processes = new BatchProcesses(runners.batch, BATCH_NICE, logger);
    this.processes = processes;
    this.lanes = {
      urgent: lane(
        runners.urgent,
        (name, args) => threads.run(args, { name }),
        () => threads.close(),
      ),
      batch: lane(
        runners.batch,
        (name, args) => processes.run(name, args),
        () => processes.close(),
      ),
    };
  }

  private readonly processes: BatchProcesses;

  /** The batch lane's processes now (the service logs them at start-up). */
  get batchPids(): number[] {
    return this.processes.pids;
  }

  /** Public tasks waiting for a runner in a lane (what fills it). */
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
   * Runs one task; domain errors thrown in its runner come back as the same typed errors. Its span
   * ("odds.priceTask"...) is the only view of the equity work, which runs where no instrumentation
   * sees it: the wait in the lane is up to its "dispatched" event, the computation after. A task of
   * a table's `gameFlow` waits only behind others of the kind, never behind a public one, and never
   * fills the lane: the table service asks only when a player advances a game (each try at an advance
   * asks, before the table decides which try wins), so its calls are bounded by the per-player rate
   * limit.
   */
  run<K extends TaskName>(
    name: K,
    args: TaskArgs<K>,
    signal?: AbortSignal,
    { gameFlow = false } = {},
  ): Promise<TaskValue<K>> {
    return withSpan(`odds.${name}`, taskAttributes(name, args), async (span) => {
      const result = (await this.enqueue({ name, args, span, gameFlow }, signal)) as Tasks.TaskResult<TaskValue<K>>;
      if ("error" in result) throw domainErrorOf(result.error.kind, result.error.message);
      return result.ok;
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.lanes.urgent.close(), this.lanes.batch.close()]);
  }

  private enqueue(task: Omit<Job, "resolve" | "reject">, signal?: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      signal?.throwIfAborted();
      const lane = this.lanes[laneOf(task.name)];
      const job: Job = { ...task, resolve, reject };
      const queue = job.gameFlow ? lane.gameFlow : lane.waiting;
      queue.push(job);
      signal?.addEventListener(
        "abort",
        () => {
          const waiting = queue.indexOf(job);
          if (waiting === -1) return;
          queue.splice(waiting, 1);
          reject(signal.reason);
        },
        { once: true },
      );
      this.dispatch(lane);
    });
  }

  /** Hands a lane's waiting tasks to its free runners. */
  private dispatch(lane: LaneRunners): void {
    while (lane.running < lane.size) {
      const job = lane.gameFlow.shift() ?? lane.waiting.shift();
      if (!job) return;
      lane.running++;
      job.span.addEvent("dispatched", { "odds.runners_busy": lane.running });
      lane
        .run(job.name, job.args)
        .then(job.resolve, job.reject)
        .finally(() => {
          lane.running--;
          this.dispatch(lane);
        });
    }
  }
}

/** A lane: its waiting tasks and its runners. */
interface LaneRunners {
  readonly size: number;
  run(name: TaskName, args: unknown): Promise<unknown>;
  close(): Promise<void>;
  /** The table's game flow, taken first. */
  readonly gameFlow: Job[];
  /** The public tasks. */
  readonly waiting: Job[];
  running: number;
}

function lane(size: number, run: LaneRunners["run"], close: LaneRunners["close"]): LaneRunners {
  return { size, run, close, gameFlow: [], waiting: [], running: 0 };
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
