// What OpenTelemetry tracing costs: the throughput benchmark's state reads and bets through the
// gateway, on three real stacks in the same run: tracing off (the default: no SDK loaded); tracing
// on in every process, recording and batching every span and then dropping it
// (OTEL_TRACES_EXPORTER=discard: the SDK's whole cost but a collector's network hop); and the same
// with one trace in ten sampled (OTEL_TRACES_SAMPLER=parentbased_traceidratio, 0.1), as a
// deployment at this rate would run it.
//
//   node --import=tsx/esm bench/tracing.ts        (after `npm run build`)
//
// Each round starts the three stacks anew, in a rotated order, and stops them after: with three
// stacks kept for the whole run, a run with tracing off in all three had a later stack 4 % ahead of
// the first (repeats 1.05 / 1.00 / 1.07); a run of this design, so untraced, read 0.99x. Within a round the phases go off, on, sampled,
// sampled, on, off, so that a drift of the machine (the stacks share it with the load generator)
// weighs on each alike. Each round's ratio is printed too, as the measure of the noise. The goal:
// every span recorded within 10% of off, over all rounds. A last line per workload says where the
// cost falls: each process's CPU per request (from /proc), off against every span recorded.
import { pathToFileURL } from "node:url";
import { startTestStack, type TestStack } from "../test/helpers/stack.js";
import { readCpu } from "./cpu.js";
import { formatBenchLines, type BenchLine } from "./report.js";
import { BET, betTargets, runPhase, setUp, stackEnv, stateTargets, type Answer, type Target } from "./throughput.js";

const CLIENTS = 32;
/** Tracing within 10% of no tracing. */
const GOAL = 0.9;

const MODES = ["off", "on", "sampled"] as const;
type Mode = (typeof MODES)[number];
/** Each mode measured twice, on both sides of the others. */
const ORDER: Mode[] = ["off", "on", "sampled", "sampled", "on", "off"];
/** Rounds of fresh stacks: the machine is shared and noisy, and the rounds of one run differed by up to 0.16. */
const ROUNDS = 3;
/**
 * Load on each stack before anything is counted: a stack's first phases ran slower while its code
 * was compiled and its heap grew to size (with 2 or 5 s of warm-up, the first run of ORDER had the
 * lowest ratio of tracing on to off in six runs of eight).
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

/**
 * A mode's requests per second and failures (with the first few answers that failed) over its phases,
 * and the CPU seconds each process of its stack used in them with the requests that ended meanwhile
 * (the warm-up's included).
 */
type Tally = Record<
  Mode,
  { perSecond: number; failed: number; failures: string[]; cpu: Map<string, number>; requests: number }
>;
/** Over all rounds, and each round's own. */
type Result = { all: Tally; rounds: Tally[] };

interface Workload {
  states: Target[];
  bets: Target[][];
}

async function workload(stack: TestStack, clients: number): Promise<Workload> {
  const setup = await setUp(stack, clients);
  const base = new URL(stack.url);
  return { states: stateTargets(setup, base), bets: betTargets(setup, base) };
}

const emptyTally = (): Tally => ({
  off: { perSecond: 0, failed: 0, failures: [], cpu: new Map(), requests: 0 },
  on: { perSecond: 0, failed: 0, failures: [], cpu: new Map(), requests: 0 },
  sampled: { perSecond: 0, failed: 0, failures: [], cpu: new Map(), requests: 0 },
});

/** Adds the CPU seconds each process used between two readings (the load generator's is not the stack's). */
function addCpu(to: Map<string, number>, before: Map<string, number>, after: Map<string, number>): void {
  for (const [name, seconds] of after) {
    if (name !== "load generator") to.set(name, (to.get(name) ?? 0) + seconds - (before.get(name) ?? 0));
  }
}

/**
 * Requests per second of each mode on one round's stacks, averaged over its phases in ORDER after
 * warming each up; failures counted, and the CPU of each stack's processes read from /proc.
 */
async function compare(
  loads: Record<Mode, { stack: TestStack; targets: readonly (Target | readonly Target[])[] }>,
  seconds: number,
  accept: (answer: Answer) => boolean,
): Promise<Tally> {
  for (const mode of MODES) await runPhase(loads[mode].targets, WARM_UP_S, accept);
  const tally = emptyTally();
  for (const mode of ORDER) {
    const { stack, targets } = loads[mode];
    const before = await readCpu(stack.children());
    const phase = await runPhase(targets, seconds, accept);
    addCpu(tally[mode].cpu, before, await readCpu(stack.children()));
    tally[mode].perSecond += phase.perSecond / 2;
    tally[mode].failed += phase.failed;
    tally[mode].failures.push(...phase.failures);
    tally[mode].requests += phase.answered;
  }
  return tally;
}

/** The rounds' tallies and their mean. */
function overRounds(rounds: Tally[]): Result {
  const all = emptyTally();
  for (const tally of rounds) {
    for (const mode of MODES) {
      all[mode].perSecond += tally[mode].perSecond / rounds.length;
      all[mode].failed += tally[mode].failed;
      all[mode].failures.push(...tally[mode].failures);
      all[mode].requests += tally[mode].requests;
      addCpu(all[mode].cpu, new Map(), tally[mode].cpu);
    }
  }
  return { all, rounds };
}

function lines(what: string, { all, rounds }: Result, spread: string): BenchLine[] {
  const share = (tally: Tally, mode: Mode) => tally[mode].perSecond / tally.off.perSecond;
  const each = (mode: Mode) => `rounds ${rounds.map((tally) => share(tally, mode).toFixed(2)).join(" / ")}`;
  const failed = (mode: Mode) =>
    all[mode].failed ? `; ${all[mode].failed} failed, e.g. ${all[mode].failures[0] ?? "?"}` : "";
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
    cpuLine(what, all),
  ];
}

/** Where the cost falls: each process's CPU per request, tracing off -> every span recorded, over every phase of every round. */
function cpuLine(what: string, all: Tally): BenchLine {
  const perRequest = (mode: Mode, name: string) => (1e6 * (all[mode].cpu.get(name) ?? 0)) / all[mode].requests;
  const total = (mode: Mode) => [...all[mode].cpu.keys()].reduce((sum, name) => sum + perRequest(mode, name), 0);
  const byProcess = [...all.off.cpu.keys()]
    .filter((name) => perRequest("off", name) >= 1)
    .map((name) => `${name} ${perRequest("off", name).toFixed(0)} -> ${perRequest("on", name).toFixed(0)}`)
    .join(", ");
  return {
    name: `  ${what}: CPU per request (µs), tracing off -> every span recorded: ${byProcess}; all of the stack`,
    value: total("on"),
    unit: "µs",
    ratio: { to: "tracing off", value: total("on") / total("off") },
  };
}

/** One round: the three stacks started in `order`, each mode's state reads and bets measured, the stacks stopped. */
async function oneRound(order: readonly Mode[], seconds: number, clients: number) {
  const stacks: TestStack[] = [];
  try {
    const loads = {} as Record<Mode, { stack: TestStack; workload: Workload }>;
    for (const mode of order) {
      const stack = await startTestStack({ env: { ...stackEnv(clients), ...STACK_ENV[mode] } });
      stacks.push(stack);
      loads[mode] = { stack, workload: await workload(stack, clients) };
    }
    const of = (part: keyof Workload) => {
      const targets = (mode: Mode) => ({ stack: loads[mode].stack, targets: loads[mode].workload[part] });
      return { off: targets("off"), on: targets("on"), sampled: targets("sampled") };
    };
    return {
      states: await compare(of("states"), seconds, ({ status }) => status === 200),
      bets: await compare(of("bets"), seconds, ({ status, body }) => status === 200 && body.includes('"ACK"')),
    };
  } finally {
    await Promise.all(stacks.map((stack) => stack.stop()));
  }
}

export async function benchTracing(options: { seconds?: number; clients?: number } = {}): Promise<BenchLine[]> {
  const seconds = options.seconds ?? 3;
  const clients = options.clients ?? CLIENTS;
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...MODES.slice(round % MODES.length), ...MODES.slice(0, round % MODES.length)];
    rounds.push(await oneRound(order, seconds, clients));
  }
  const spread = `${clients} clients, ${seconds} s x 2 phases each in each of ${ROUNDS} rounds of fresh stacks`;
  return [
    ...lines("GET /api/tables/{id}/state", overRounds(rounds.map((r) => r.states)), spread),
    ...lines(`POST /api/tables/{id}/bet (${BET} each)`, overRounds(rounds.map((r) => r.bets)), spread),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = process.env.BENCH_SECONDS ? Number(process.env.BENCH_SECONDS) : undefined;
  console.log(formatBenchLines(await benchTracing({ seconds })));
}
