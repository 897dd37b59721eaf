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
// the machine (they share it with the load generator) weighs on each alike. The goal: every span
// recorded within 10% of off.
import { pathToFileURL } from "node:url";
import { startTestStack, type TestStack } from "../test/helpers/stack.js";
import { formatBenchLines, type BenchLine } from "./report.js";
import { auth, BET, runPhase, setUp, type Target } from "./throughput.js";

const CLIENTS = 32;
/** Tracing within 10% of no tracing. */
const GOAL = 0.9;

type Mode = "off" | "on" | "sampled";
/** Each mode measured twice, on both sides of the others. */
const ORDER: Mode[] = ["off", "on", "sampled", "sampled", "on", "off"];

const STACK_ENV: Record<Mode, NodeJS.ProcessEnv> = {
  off: {},
  on: { OTEL_TRACES_EXPORTER: "discard" },
  sampled: {
    OTEL_TRACES_EXPORTER: "discard",
    OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
    OTEL_TRACES_SAMPLER_ARG: "0.1",
  },
};

type Result = Record<Mode, { perSecond: number; failed: number }>;

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

/** Requests per second of each mode, averaged over its phases in ORDER; failures counted. */
async function compare(
  loads: Record<Mode, Target[]>,
  seconds: number,
  accept: (status: number, body: string) => boolean,
): Promise<Result> {
  const sums: Result = {
    off: { perSecond: 0, failed: 0 },
    on: { perSecond: 0, failed: 0 },
    sampled: { perSecond: 0, failed: 0 },
  };
  for (const mode of ORDER) {
    const phase = await runPhase(loads[mode], seconds, accept);
    sums[mode].perSecond += phase.perSecond / 2;
    sums[mode].failed += phase.failed;
  }
  return sums;
}

function lines(what: string, result: Result, spread: string): BenchLine[] {
  const share = (mode: Mode) => result[mode].perSecond / result.off.perSecond;
  const failed = (mode: Mode) => (result[mode].failed ? `; ${result[mode].failed} failed` : "");
  return [
    { name: `${what}, tracing off, ${spread}${failed("off")}`, value: result.off.perSecond, unit: "req/s" },
    {
      name: `${what}, tracing on (every span recorded, then discarded), ${spread}${failed("on")}`,
      value: result.on.perSecond,
      unit: "req/s",
      ratio: { to: "tracing off", value: share("on") },
      goal: `>= ${100 * GOAL}% of tracing off`,
      met: share("on") >= GOAL,
    },
    {
      name: `${what}, tracing on, one trace in ten sampled, ${spread}${failed("sampled")}`,
      value: result.sampled.perSecond,
      unit: "req/s",
      ratio: { to: "tracing off", value: share("sampled") },
    },
  ];
}

export async function benchTracing(options: { seconds?: number; clients?: number } = {}): Promise<BenchLine[]> {
  const seconds = options.seconds ?? 5;
  const clients = options.clients ?? CLIENTS;
  const stacks: TestStack[] = [];
  try {
    const loads = {} as Record<Mode, Workload>;
    for (const mode of ["off", "on", "sampled"] as const) {
      const stack = await startTestStack({ env: STACK_ENV[mode] });
      stacks.push(stack);
      loads[mode] = await workload(stack, clients);
    }
    const spread = `${clients} clients, ${seconds} s x 2 phases each`;
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
