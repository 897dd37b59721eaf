// What OpenTelemetry tracing costs: the throughput benchmark's state reads and bets through the
// gateway, on two real stacks in the same run, one with tracing off (the default: no SDK loaded)
// and one with tracing on in every process, recording and batching every span and then dropping it
// (OTEL_TRACES_EXPORTER=discard: the SDK's whole cost but a collector's network hop).
//
//   node --import=tsx/esm bench/tracing.ts        (after `npm run build`)
//
// Both stacks run throughout; the phases alternate off, on, on, off so that a drift of the machine
// (both share it with the load generator) weighs on both alike. The goal: on within 10% of off.
import { pathToFileURL } from "node:url";
import { startTestStack, type TestStack } from "../test/helpers/stack.js";
import { formatBenchLines, type BenchLine } from "./report.js";
import { auth, BET, runPhase, setUp, type Target } from "./throughput.js";

const CLIENTS = 32;
/** Tracing within 10% of no tracing. */
const GOAL = 0.9;

type Mode = "off" | "on";
/** Off, on, on, off: each mode measured twice, once on each side of the other. */
const ORDER: Mode[] = ["off", "on", "on", "off"];

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
): Promise<Record<Mode, { perSecond: number; failed: number }>> {
  const sums = { off: { perSecond: 0, failed: 0 }, on: { perSecond: 0, failed: 0 } };
  for (const mode of ORDER) {
    const phase = await runPhase(loads[mode], seconds, accept);
    sums[mode].perSecond += phase.perSecond / 2;
    sums[mode].failed += phase.failed;
  }
  return sums;
}

function lines(what: string, result: Record<Mode, { perSecond: number; failed: number }>, spread: string): BenchLine[] {
  const share = result.on.perSecond / result.off.perSecond;
  const failed = result.on.failed + result.off.failed;
  return [
    { name: `${what}, tracing off, ${spread}`, value: result.off.perSecond, unit: "req/s" },
    {
      name: `${what}, tracing on (every span recorded, then discarded), ${spread}${failed ? `; ${failed} failed` : ""}`,
      value: result.on.perSecond,
      unit: "req/s",
      ratio: { to: "tracing off", value: share },
      goal: `>= ${100 * GOAL}% of tracing off`,
      met: share >= GOAL,
    },
  ];
}

export async function benchTracing(options: { seconds?: number; clients?: number } = {}): Promise<BenchLine[]> {
  const seconds = options.seconds ?? 5;
  const clients = options.clients ?? CLIENTS;
  const stacks: TestStack[] = [];
  try {
    const off = await startTestStack();
    stacks.push(off);
    const on = await startTestStack({ env: { OTEL_TRACES_EXPORTER: "discard" } });
    stacks.push(on);
    const loads = { off: await workload(off, clients), on: await workload(on, clients) };
    const spread = `${clients} clients, ${seconds} s x 2 phases each`;
    const states = await compare({ off: loads.off.states, on: loads.on.states }, seconds, (s) => s === 200);
    const bets = await compare(
      { off: loads.off.bets, on: loads.on.bets },
      seconds,
      (status, body) => status === 200 && body.includes('"ACK"'),
    );
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
