// The small fairness run CI makes: every statistical bound must hold, and the report must be
// written, offline. The second test feeds the same checks defects, to show they can fail.
import test from "ava";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shuffledDeck } from "../src/shuffle.js";
import { type GameOutcome, playGame } from "../src/game.js";
import { writeReport } from "../src/report.js";
import { addGame, emptyRtpTotals, rtpFigures } from "../src/rtp.js";
import { type RunOptions, type RunResults, runFairness } from "../src/run.js";
import { countPositions, emptyPositionCounts } from "../src/stats.js";
import { DIFFERENCE_Z, type FairnessSummary, RTP_ROUNDING_TOLERANCE, rtpChecks, summarize } from "../src/summary.js";

const SMALL: RunOptions = {
  games: 6_000,
  shuffles: 100_000,
  numberOfHands: 4,
  targetRtp: 0.97,
  gameSource: "derived",
  equitySpots: 60,
  equityIterations: 50_000,
  workers: 2,
};

const failedBounds = (summary: FairnessSummary) => summary.checks.filter((c) => !c.passed);

let run: Promise<RunResults> | undefined;
const smallRun = () => (run ??= runFairness(SMALL));

test("a small run keeps every statistical bound and writes the report", async (t) => {
  const results = await smallRun();
  const summary = summarize(SMALL, results);
  t.log(`${results.seconds.toFixed(1)} s`);
  for (const check of summary.checks) t.log(`${check.passed ? "ok  " : "FAIL"} ${check.name}: ${check.detail}`);
  t.deepEqual(failedBounds(summary), []);
  t.is(summary.rtp.games, SMALL.games);
  t.is(summary.provablyFair.verified, SMALL.games);
  t.is(summary.shuffles.plain.shuffles, SMALL.shuffles);
  t.is(summary.shuffles.derived.shuffles, SMALL.shuffles);
  // What the bounds above assert, spelled out: the odds price the dead-heat share, so every stage
  // is expected to return the target up to the rounding, and the realized return agrees with it.
  for (const f of [...Object.values(summary.rtp.stages), summary.rtp.overall]) {
    t.true(Math.abs(f.theoretical.value - SMALL.targetRtp) <= RTP_ROUNDING_TOLERANCE, String(f.theoretical.value));
    t.true(Math.abs(f.difference.value) <= DIFFERENCE_Z * f.difference.standardError);
    t.is(f.rakeOutOfBound, 0);
    t.is(f.favourableBeyondRounding, 0);
    // A bet favours the player only by the rounding of short odds: at most 0.05 x share above the target.
    t.true(f.maxExpected <= SMALL.targetRtp + 0.05 + 1e-12, String(f.maxExpected));
  }

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

test("the RTP checks fail on odds priced from the win alone, as they were before dead-heat shares", (t) => {
  const games: GameOutcome[] = [];
  for (let g = 0; g < 300; g++) games.push(playGame(shuffledDeck(), { numberOfHands: 4, targetRtp: 0.97 }));
  // The old rule: the nearest tenth of target / P(win alone). A payout is odds / k, so it scales with the odds.
  const winPriced = games.map((game) => ({
    ...game,
    bets: game.bets.map((bet) => {
      const oddsTenths = Math.round((10 * 0.97) / bet.win);
      return { ...bet, oddsTenths, returned: (bet.returned * oddsTenths) / bet.oddsTenths };
    }),
  }));
  const failures = (played: GameOutcome[]) => {
    const totals = emptyRtpTotals();
    for (const game of played) addGame(totals, game, 0.97);
    const { stages, overall } = rtpFigures(totals);
    return rtpChecks(stages, overall, 0.97)
      .filter((c) => !c.passed)
      .map((c) => c.name);
  };
  // The real pricing keeps the bounds that hold bet by bet even on a few games (the others are
  // statistical: 300 games are too few for them).
  const perBet = (name: string) => name.startsWith("every bet's odds") || name.startsWith("no bet returns");
  t.deepEqual(failures(games).filter(perBet), []);
  const old = failures(winPriced);
  for (const name of [
    "theoretical RTP is the target within the rounding (hole)",
    "every bet's odds are the nearest tenth of target / share (hole)",
    "no bet returns more than its stake beyond the rounding (overall)",
  ]) {
    t.true(old.includes(name), `${name}: ${old.join("; ")}`);
  }
});
