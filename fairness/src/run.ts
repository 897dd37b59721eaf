// Runs the whole measurement: splits games, shuffles and equity spots into tasks, runs them on
// worker threads (or in this thread when workers is 0), and merges what they return.

import { Worker } from "node:worker_threads";
import { type EquityTotals, emptyEquityTotals, mergeEquityTotals } from "./equity-check.js";
import { type RtpTotals, emptyRtpTotals, mergeRtpTotals } from "./rtp.js";
import { emptyPositionCounts } from "./stats.js";
import { type DeckSource, type Task, type TaskResult, runTask } from "./tasks.js";

export interface RunOptions {
  games: number;
  /** Shuffles of each source (plain CSPRNG and seed-derived). */
  shuffles: number;
  numberOfHands: number;
  targetRtp: number;
  /** Where the games' decks come from: derived (the provably fair path) or plain. */
  gameSource: DeckSource;
  equitySpots: number;
  equityIterations: number;
  workers: number;
}

export type WorkKind = Task["kind"];

export interface RunResults {
  rtp: RtpTotals;
  verifiedGames: number;
  shuffles: Record<DeckSource, { counts: Float64Array; count: number }>;
  equity: EquityTotals;
  seconds: number;
}

const TASK_SIZE: Record<WorkKind, number> = { games: 200, shuffles: 50_000, equity: 10 };

/** The tasks of a run, in the order they are handed out. */
function planTasks(options: RunOptions): Task[] {
  const tasks: Task[] = [];
  const split = (kind: WorkKind, total: number, make: (count: number, firstIndex: number) => Task) => {
    for (let first = 0; first < total; first += TASK_SIZE[kind])
      tasks.push(make(Math.min(TASK_SIZE[kind], total - first), first));
  };
  const settings = { numberOfHands: options.numberOfHands, targetRtp: options.targetRtp };
  split("games", options.games, (count, firstIndex) => ({
    kind: "games",
    count,
    firstIndex,
    settings,
    source: options.gameSource,
  }));
  for (const source of ["plain", "derived"] as const) {
    split("shuffles", options.shuffles, (count, firstIndex) => ({ kind: "shuffles", count, firstIndex, source }));
  }
  split("equity", options.equitySpots, (count, firstIndex) => ({
    kind: "equity",
    count,
    firstIndex,
    numberOfHands: options.numberOfHands,
    iterations: options.equityIterations,
  }));
  return tasks;
}

type Progress = (kind: WorkKind, units: number) => void;

/**
 * A worker on worker.js; from the TypeScript sources (tests run them through tsx) a worker does
 * not inherit tsx's loader, so it registers its own before importing worker.ts.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./worker.js", import.meta.url));
  const api = import.meta.resolve("tsx/esm/api");
  const script = new URL("./worker.ts", import.meta.url).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(script)}); });`;
  return new Worker(boot, { eval: true });
}

/** Runs the tasks on `workers` threads, each taking the next task when it finishes one. */
async function runOnWorkers(tasks: Task[], workers: number, onProgress: Progress): Promise<TaskResult[]> {
  const pool = Array.from({ length: Math.min(workers, tasks.length) }, startWorker);
  const results: TaskResult[] = [];
  let next = 0;
  const drive = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      const give = () => (next < tasks.length ? worker.postMessage(tasks[next++]) : resolve());
      worker.on(
        "message",
        (message: { type: string; kind?: WorkKind; units?: number; result?: TaskResult; message?: string }) => {
          if (message.type === "progress") onProgress(message.kind!, message.units!);
          else if (message.type === "result") {
            results.push(message.result!);
            give();
          } else reject(new Error(`worker failed: ${message.message}`));
        },
      );
      worker.on("error", reject);
      give();
    });
  try {
    await Promise.all(pool.map(drive));
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  return results;
}

function merge(results: TaskResult[], options: RunOptions): Omit<RunResults, "seconds"> {
  let rtp = emptyRtpTotals();
  let verifiedGames = 0;
  let equity = emptyEquityTotals(options.equityIterations);
  const shuffles = {
    plain: { counts: emptyPositionCounts(), count: 0 },
    derived: { counts: emptyPositionCounts(), count: 0 },
  };
  for (const result of results) {
    if (result.kind === "games") {
      rtp = mergeRtpTotals(rtp, result.totals);
      verifiedGames += result.verified;
    } else if (result.kind === "equity") equity = mergeEquityTotals(equity, result.totals);
    else {
      const target = shuffles[result.source];
      result.counts.forEach((c, i) => (target.counts[i]! += c));
      target.count += result.count;
    }
  }
  return { rtp, verifiedGames, shuffles, equity };
}

export async function runFairness(options: RunOptions, onProgress: Progress = () => {}): Promise<RunResults> {
  const started = performance.now();
  const tasks = planTasks(options);
  const results =
    options.workers > 0
      ? await runOnWorkers(tasks, options.workers, onProgress)
      : tasks.map((task) => runTask(task, (units) => onProgress(task.kind, units)));
  return { ...merge(results, options), seconds: (performance.now() - started) / 1000 };
}
