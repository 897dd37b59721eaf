// The small fairness run CI makes: every statistical bound must hold, and the report must be
// written, offline. The second test feeds the same checks defects, to show they can fail.
import test from "ava";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shuffledDeck } from "@pokerodds/odds/domain/shuffle";
import { writeReport } from "../src/report.js";
import { type RunOptions, type RunResults, runFairness } from "../src/run.js";
import { countPositions, emptyPositionCounts } from "../src/stats.js";
import { type FairnessSummary, summarize } from "../src/summary.js";

const SMALL: RunOptions = {
  games: 6_000,
  shuffles: 100_000,
  numberOfHands: 4,
  targetRtp: 0.97,
  gameSource: "derived",
  tieSamples: 5_000,
  equitySpots: 60,
  equityIterations: 50_000,
  workers: 2,
};

const failedBounds = (summary: FairnessSummary) => summary.checks.filter((c) => c.kind === "bound" && !c.passed);

let run: Promise<RunResults> | undefined;
const smallRun = () => (run ??= runFairness(SMALL));

test("a small run keeps every statistical bound and writes the report", async (t) => {
  const results = await smallRun();
  const summary = summarize(SMALL, results);
  t.log(`${results.seconds.toFixed(1)} s`);
  for (const check of summary.checks)
    t.log(`${check.passed ? "ok  " : check.kind === "bound" ? "FAIL" : "WARN"} ${check.name}: ${check.detail}`);
  t.deepEqual(failedBounds(summary), []);
  t.is(summary.rtp.games, SMALL.games);
  t.is(summary.provablyFair.verified, SMALL.games);
  t.is(summary.shuffles.plain.shuffles, SMALL.shuffles);
  t.is(summary.shuffles.derived.shuffles, SMALL.shuffles);
  // The odds aim at the target after rounding: the priced RTP stays within a rounding of it.
  t.true(Math.abs(summary.rtp.overall.priced - SMALL.targetRtp) < 0.005, String(summary.rtp.overall.priced));

  const dir = await mkdtemp(join(tmpdir(), "fairness-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const files = await writeReport(summary, results, dir);
  const html = await readFile(files.html, "utf8");
  t.true(html.startsWith("<!doctype html>"));
  t.is((html.match(/<svg/g) ?? []).length, 6);
  // Offline: no script, and nothing fetched from anywhere (an SVG's xmlns is a name, not a fetch;
  // url(#id) points inside the page).
  t.false(/<script|<link|<img|src=|@import|url\((?!#)/i.test(html));
  const json = JSON.parse(await readFile(files.json, "utf8")) as FairnessSummary;
  t.is(json.rtp.games, SMALL.games);
  t.true((await readFile(files.rtpSvg, "utf8")).startsWith("<svg"));
});

test("the checks fail on a biased shuffle, a payout that differs from the prices, or an unverified game", async (t) => {
  const results = await smallRun();
  // A subtly biased deck: one shuffle in 52 moves card 0 to the top, doubling its 1/52 there.
  const counts = emptyPositionCounts();
  for (let s = 0; s < SMALL.shuffles; s++) {
    const deck = shuffledDeck();
    if (s % 52 === 0) {
      const at = deck.indexOf(0);
      [deck[0], deck[at]] = [deck[at]!, deck[0]!];
    }
    countPositions(counts, deck);
  }
  const biased = { ...results, shuffles: { ...results.shuffles, derived: { counts, count: SMALL.shuffles } } };
  const shuffleFailures = failedBounds(summarize(SMALL, biased)).map((c) => c.name);
  t.true(shuffleFailures.includes("shuffle uniformity (seed-derived decks)"), shuffleFailures.join("; "));

  // Turn bets paid a fifth more than the rule says.
  const turn = results.rtp.stages[2]!;
  const overpaid = structuredClone(results);
  const realized = overpaid.rtp.stages[2]!.realized;
  realized.y *= 1.2;
  realized.yy *= 1.44;
  realized.xy *= 1.2;
  const difference = overpaid.rtp.stages[2]!.difference;
  const extra = 0.2 * turn.realized.y;
  difference.y += extra;
  const payoutFailures = failedBounds(summarize(SMALL, overpaid)).map((c) => c.name);
  t.true(payoutFailures.includes("realized RTP matches theoretical (turn)"), payoutFailures.join("; "));

  const unverified = failedBounds(summarize(SMALL, { ...results, verifiedGames: results.verifiedGames - 1 }));
  t.true(unverified.some((c) => c.name === "every derived game verifies from its seed"));
});
