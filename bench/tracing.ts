// What OpenTelemetry tracing costs: the throughput benchmark's state reads and bets through the
// gateway, on three real stacks in the same run: tracing off (the default: no SDK loaded); tracing
// on in every process, recording and batching every span and then dropping it
// (OTEL_TRACES_EXPORTER=discard: the SDK's whole cost but a collector's network hop); and the same
// with one trace in ten sampled (OTEL_TRACES_SAMPLER=parentbased_traceidratio, 0.1), as a
// deployment at this rate would run it.
//
//   node --import=tsx/esm bench/tracing.ts        (after `npm run build`)
//
// The stacks run throughout; the phases go off, on, sampled, sampled, on, off so that a drift of
// the machine (they share it with the load generator) weighs on each alike, and that sequence runs
// REPEATS times: each repeat's ratio is printed too, as the measure of the noise. The goal: every
// span recorded within 10% of off, over all repeats.
import { pathToFileURL } from "node:url";
import { startTestStack, type TestStack } from "../test/helpers/stack.js";
import { formatBenchLines, type BenchLine } from "./report.js";
import { auth, BET, runPhase, setUp, type Target } from "./throughput.js";

const CLIENTS = 32;
/** Tracing within 10% of no tracing. */
const GOAL = 0.9;

const MODES = ["off", "on", "sampled"] as const;
type Mode = (typeof MODES)[number];
/** Each mode measured twice, on both sides of the others. */
const ORDER: Mode[] = ["off", "on", "sampled", "sampled", "on", "off"];
/** Runs of ORDER: the machine is shared and noisy, and one run's ratio moved by up to 0.15. */
const REPEATS = 3;
/**
 * Load on each stack before anything is counted: a stack's first phases ran slower while its code
 * was compiled and its heap grew to size (with 2 or 5 s of warm-up, the first repeat's ratio of
 * tracing on to off was the lowest of the three in six runs of eight).
 */
const WARM_UP_S = 10;

const STACK_ENV: Record<Mode, NodeJS.ProcessEnv> = {
  off: {},
  on: { OTEL_TRACES_EXPORTER: "discard" },
  sampled: {
    OTEL_TRACES_EXPORTER: "discard",
    OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
    OTEL_TRACES_SAMPLER_ARG: "0.1",
  },
};

type Tally = Record<Mode, { perSecond: number; failed: number }>;
/** Over all repeats, and each repeat's own. */
type Result = { all: Tally; repeats: Tally[] };

interface Workload {
  states: Target[];
  bets: Target[];
}

async function workload(stack: TestStack, clients: number): Promise<Workload> {
  const { seated, handOf } = await setUp(stack, clients);
  const base = new URL(stack.url);
  return {
    states: seated.map((s) => ({
      method: "GET" as const,
      url: new URL(`/api/tables/${s.tableId}/state`, base),
      headers: auth(s.player),
    })),
    bets: seated.map((s) => ({
      method: "POST" as const,
      url: new URL(`/api/tables/${s.tableId}/bet`, base),
      headers: auth(s.player),
      body: JSON.stringify({ seatIndex: s.seatId, handIndex: handOf.get(s.tableId), betAmount: BET }),
    })),
  };
}

const emptyTally = (): Tally => ({
  off: { perSecond: 0, failed: 0 },
  on: { perSecond: 0, failed: 0 },
  sampled: { perSecond: 0, failed: 0 },
});

/**
 * Requests per second of each mode, averaged over its phases in ORDER, REPEATS times, after warming
 * each stack up; failures counted.
 */
async function compare(
  loads: Record<Mode, Target[]>,
  seconds: number,
  accept: (status: number, body: string) => boolean,
): Promise<Result> {
  for (const mode of MODES) await runPhase(loads[mode], WARM_UP_S, accept);
  const repeats: Tally[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const tally = emptyTally();
    for (const mode of ORDER) {
      const phase = await runPhase(loads[mode], seconds, accept);
      tally[mode].perSecond += phase.perSecond / 2;
      tally[mode].failed += phase.failed;
    }
    repeats.push(tally);
  }
  const all = emptyTally();
  for (const tally of repeats) {
    for (const mode of MODES) {
      all[mode].perSecond += tally[mode].perSecond / REPEATS;
      all[mode].failed += tally[mode].failed;
    }
  }
  return { all, repeats };
}

function lines(what: string, { all, repeats }: Result, spread: string): BenchLine[] {
  const share = (tally: Tally, mode: Mode) => tally[mode].perSecond / tally.off.perSecond;
  const each = (mode: Mode) => `repeats ${repeats.map((tally) => share(tally, mode).toFixed(2)).join(" / ")}`;
  const failed = (mode: Mode) => (all[mode].failed ? `; ${all[mode].failed} failed` : "");
  return [
    { name: `${what}, tracing off, ${spread}${failed("off")}`, value: all.off.perSecond, unit: "req/s" },
    {
      name: `${what}, tracing on (every span recorded, then discarded), ${spread} (${each("on")})${failed("on")}`,
      value: all.on.perSecond,
      unit: "req/s",
      ratio: { to: "tracing off", value: share(all, "on") },
      goal: `>= ${100 * GOAL}% of tracing off`,
      met: share(all, "on") >= GOAL,
    },
    {
      name: `${what}, tracing on, one trace in ten sampled, ${spread} (${each("sampled")})${failed("sampled")}`,
      value: all.sampled.perSecond,
      unit: "req/s",
      ratio: { to: "tracing off", value: share(all, "sampled") },
    },
  ];
}

export async function benchTracing(options: { seconds?: number; clients?: number } = {}): Promise<BenchLine[]> {
  const seconds = options.seconds ?? 3;
  const clients = options.clients ?? CLIENTS;
  const stacks: TestStack[] = [];
  try {
    const loads = {} as Record<Mode, Workload>;
    for (const mode of MODES) {
      const stack = await startTestStack({ env: STACK_ENV[mode] });
      stacks.push(stack);
      loads[mode] = await workload(stack, clients);
    }
    const spread = `${clients} clients, ${seconds} s x ${2 * REPEATS} phases each`;
    const of = (part: keyof Workload) => ({ off: loads.off[part], on: loads.on[part], sampled: loads.sampled[part] });
    const states = await compare(of("states"), seconds, (s) => s === 200);
    const bets = await compare(of("bets"), seconds, (status, body) => status === 200 && body.includes('"ACK"'));
    return [
      ...lines("GET /api/tables/{id}/state", states, spread),
      ...lines(`POST /api/tables/{id}/bet (${BET} each)`, bets, spread),
    ];
  } finally {
    await Promise.all(stacks.map((stack) => stack.stop()));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = process.env.BENCH_SECONDS ? Number(process.env.BENCH_SECONDS) : undefined;
  console.log(formatBenchLines(await benchTracing({ seconds })));
}
