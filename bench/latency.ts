// Sequential latency samples (one call at a time: latency, not throughput) and their report lines,
// each against a baseline measured in the same run. Shared by the wallet and table benchmarks.
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { formatBenchLines, type BenchLine } from "./report.js";

/** Calls not recorded before the samples, so that the first samples pay no start-up cost. */
export const WARM_UP = 5;

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Calls `call(0)`, `call(1)`… one after another, WARM_UP + `count` times, and answers the times of
 * the last `count` in ms, sorted. Each call gets its own index, for keys or accounts used once.
 */
export async function timed(count: number, call: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + count; i++) {
    const started = performance.now();
    await call(i);
    if (i >= WARM_UP) times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

interface Baseline {
  /** What the ratio is to, e.g. "empty". */
  to: string;
  times: readonly number[];
  /** The goal, if any: p50 at most this many times the baseline's. */
  factor?: number;
}

/** A p50 line (with its ratio to the baseline, and the goal) and a p99 line (its ratio to the baseline's p99). */
export function latencyLines(name: string, times: readonly number[], baseline?: Baseline): BenchLine[] {
  const p50 = percentile(times, 50);
  const p99 = percentile(times, 99);
  if (!baseline) {
    return [
      { name: `${name} p50`, value: p50, unit: "ms" },
      { name: `${name} p99`, value: p99, unit: "ms" },
    ];
  }
  const ratio50 = p50 / percentile(baseline.times, 50);
  const { factor } = baseline;
  return [
    {
      name: `${name} p50`,
      value: p50,
      unit: "ms",
      ratio: { to: baseline.to, value: ratio50 },
      ...(factor !== undefined && { goal: `p50 <= ${factor}x ${baseline.to}`, met: ratio50 <= factor }),
    },
    {
      name: `${name} p99`,
      value: p99,
      unit: "ms",
      ratio: { to: `${baseline.to} p99`, value: p99 / percentile(baseline.times, 99) },
    },
  ];
}

/** A process's peak and current resident memory in MB (VmHWM and VmRSS of /proc/<pid>/status). */
export async function memoryOf(pid: number): Promise<{ peakMb: number; rssMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { peakMb: kb("VmHWM") / 1024, rssMb: kb("VmRSS") / 1024 };
}

/**
 * When `moduleUrl` is the script node was started with, runs the benchmark with the numeric options
 * of the command line (`--entries=100000`) and prints its lines.
 */
export async function runAlone(
  moduleUrl: string,
  bench: (options: Record<string, number>) => Promise<BenchLine[]>,
): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const { values } = parseArgs({ strict: false });
  const options = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, Number(value)]));
  for (const [name, value] of Object.entries(options)) {
    if (!Number.isFinite(value)) throw new Error(`--${name} takes a number`);
  }
  console.log(formatBenchLines(await bench(options)));
}
