// `npm run fairness -- [--games N] [--shuffles N] [--out DIR] ...`: plays games and shuffles decks
// through the real domain code and writes the fairness report (fairness/README.md). Exit 0 when
// every statistical bound holds, 1 when one fails, 2 on bad usage.

import { parseArgsOnce } from "@pokerodds/common/args";
import {
  DEFAULT_TARGET_RTP,
  isTargetRtp,
  MAX_HANDS_PER_GAME,
  MIN_HANDS_PER_GAME,
  MIN_TABLE_TARGET_RTP,
  parseTargetRtp,
} from "@pokerodds/common/limits";
import { MultiBar, Presets } from "cli-progress";
import { writeReport } from "./report.js";
import { type RunOptions, type WorkKind, runFairness } from "./run.js";
import { summarize } from "./summary.js";

const USAGE = `usage: npm run fairness -- [--games 100000] [--shuffles 1000000] [--out fairness-report]
  [--hands 4] [--rtp 0.97] [--source derived|plain] [--workers 2] [--equity-spots 300]
  [--equity-iterations 100000]`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function integer(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) fail(`--${name} must be a whole number from ${min} to ${max}`);
  return value;
}

function readOptions(): { options: RunOptions; out: string } {
  let values;
  try {
    values = parseArgsOnce({
      options: {
        games: { type: "string", default: "100000" },
        shuffles: { type: "string", default: "1000000" },
        out: { type: "string", default: "fairness-report" },
        hands: { type: "string", default: "4" },
        rtp: { type: "string", default: String(DEFAULT_TARGET_RTP) },
        source: { type: "string", default: "derived" },
        workers: { type: "string", default: "2" },
        "equity-spots": { type: "string", default: "300" },
        "equity-iterations": { type: "string", default: "100000" },
      },
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
  // Bounded as TABLE_TARGET_RTP is (services/table/src/config.ts): a report at an RTP no table can
  // run at (below it a hand certain to win shows odds 0) describes no game.
  const targetRtp = parseTargetRtp(values.rtp);
  if (!isTargetRtp(targetRtp) || targetRtp < MIN_TABLE_TARGET_RTP) {
    fail(`--rtp must be a number from ${MIN_TABLE_TARGET_RTP} (the tables' lowest) to 1 (exclusive)`);
  }
  if (values.source !== "derived" && values.source !== "plain") fail("--source must be derived or plain");
  const options: RunOptions = {
    games: integer("games", values.games, 1, 100_000_000),
    shuffles: integer("shuffles", values.shuffles, 1, 1_000_000_000),
    numberOfHands: integer("hands", values.hands, MIN_HANDS_PER_GAME, MAX_HANDS_PER_GAME),
    targetRtp,
    gameSource: values.source,
    workers: integer("workers", values.workers, 0, 64),
    equitySpots: integer("equity-spots", values["equity-spots"], 0, 1_000_000),
    equityIterations: integer("equity-iterations", values["equity-iterations"], 1, 100_000_000),
  };
  return { options, out: values.out };
}

const WORK: Record<WorkKind, string> = { games: "games", shuffles: "shuffles", equity: "equity spots" };

function workTotals(options: RunOptions): Record<WorkKind, number> {
  return { games: options.games, shuffles: 2 * options.shuffles, equity: options.equitySpots };
}

/** On a terminal, one progress bar per kind of work on stderr; elsewhere (logs, CI) a line per tenth done. */
function progressReporter(options: RunOptions) {
  const totals = workTotals(options);
  if (!process.stderr.isTTY) {
    const done: Record<WorkKind, number> = { games: 0, shuffles: 0, equity: 0 };
    return {
      tick(kind: WorkKind, units: number) {
        const before = Math.floor((10 * done[kind]) / totals[kind]);
        done[kind] += units;
        const after = Math.floor((10 * done[kind]) / totals[kind]);
        if (after > before) process.stderr.write(`${WORK[kind]}: ${done[kind]} of ${totals[kind]}\n`);
      },
      stop() {},
    };
  }
  const bars = new MultiBar(
    {
      stream: process.stderr,
      format: "{name} [{bar}] {percentage}% {value}/{total} eta {eta_formatted}",
      hideCursor: true,
    },
    Presets.shades_classic,
  );
  const bar = Object.fromEntries(
    (Object.keys(totals) as WorkKind[]).map((kind) => [
      kind,
      bars.create(totals[kind], 0, { name: WORK[kind].padEnd(12) }),
    ]),
  ) as Record<WorkKind, ReturnType<MultiBar["create"]>>;
  return { tick: (kind: WorkKind, units: number) => bar[kind].increment(units), stop: () => bars.stop() };
}

const { options, out } = readOptions();
const progress = progressReporter(options);
const results = await runFairness(options, progress.tick);
progress.stop();
const summary = summarize(options, results);
const files = await writeReport(summary, results, out);
for (const check of summary.checks) {
  const mark = check.passed ? "ok  " : "FAIL";
  process.stdout.write(`${mark} ${check.name}: ${check.detail}\n`);
}
const { everyHand, oneHand } = summary.rtp.leaveWhenBehind;
process.stdout.write(
  `risk  leaving an empty table at the turn when behind (the last leave voids the game): hole bets return ` +
    `${everyHand.value.toFixed(4)} per unit (a unit on every hand), ${oneHand.value.toFixed(4)} (each alone)\n`,
);
process.stdout.write(`report: ${files.html}\nsummary: ${files.json}\n`);
process.exitCode = summary.checks.some((c) => !c.passed) ? 1 : 0;
