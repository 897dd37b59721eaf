// The HTML report: one self-contained file (inline SVG, inline CSS, no script, no network), pure.

import type { Check, FairnessSummary } from "./summary.js";
import type { RtpFigures } from "./rtp.js";
import type { Estimate } from "./stats.js";

export interface Plots {
  rtp: string;
  rake: string;
  expected: string;
  heatmapPlain: string;
  heatmapDerived: string;
  equity: string;
}

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const f4 = (x: number): string => (Number.isFinite(x) ? x.toFixed(4) : "n/a");
const withCi = (e: Estimate): string => `${f4(e.value)} <small>[${f4(e.low)}, ${f4(e.high)}]</small>`;
const pct = (x: number): string => `${(100 * x).toFixed(2)} %`;
const row = (cells: string[], tag = "td"): string => `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join("")}</tr>`;
const table = (head: string[], rows: string[][]): string =>
  `<table>${row(head.map(escape), "th")}${rows.map((r) => row(r)).join("")}</table>`;

function checksTable(checks: Check[]): string {
  return table(
    ["check", "kind", "result", "detail"],
    checks.map((c) => [
      escape(c.name),
      c.kind,
      c.passed ? '<span class="ok">passed</span>' : '<span class="bad">failed</span>',
      escape(c.detail),
    ]),
  );
}

function rtpTable(summary: FairnessSummary): string {
  const entries: [string, RtpFigures][] = [...Object.entries(summary.rtp.stages), ["overall", summary.rtp.overall]];
  return table(
    [
      "stage",
      "bets",
      "realized RTP [95% CI]",
      "theoretical RTP [95% CI]",
      "realized − theoretical [95% CI]",
      "rounding rake",
      "paid on ties",
      "bets with EV > 1",
      "max EV",
      "max odds",
    ],
    entries.map(([name, f]) => [
      name,
      String(f.bets),
      withCi(f.realized),
      withCi(f.theoretical),
      withCi(f.difference),
      f.rake.toFixed(5),
      f4(f.tieReturn),
      `${pct(f.favourableBetShare)} <small>(${pct(f.favourableReturnShare)} of the return)</small>`,
      f4(f.maxExpected),
      f.maxOdds.toFixed(1),
    ]),
  );
}

function topSpotsTable(summary: FairnessSummary): string {
  return table(
    ["stage", "hands", "board", "bet on", "odds", "P(win alone)", "expected share", "expected return per 1"],
    summary.rtp.topSpots.map((s) => [
      s.stage,
      escape(s.hands.join(" ")),
      escape(s.board.join(" ") || "—"),
      `hand ${s.hand} (${escape(s.hands[s.hand] ?? "")})`,
      s.odds.toFixed(1),
      `${s.winPercent.toFixed(4)} %`,
      `${s.sharePercent.toFixed(4)} %`,
      s.expected.toFixed(2),
    ]),
  );
}

function shuffleTable(summary: FairnessSummary): string {
  const { plain, derived } = summary.shuffles;
  return table(
    ["source", "shuffles", "chi-square", "df", "p-value (upper tail)", "lower tail", "max |residual|"],
    [
      ["plain CSPRNG shuffle", plain],
      ["seed-derived decks", derived],
    ].map(([name, r]) => {
      const c = r as typeof plain;
      return [
        name as string,
        String(c.shuffles),
        c.statistic.toFixed(1),
        String(c.df),
        c.pValue.toPrecision(3),
        c.lowerTailP.toPrecision(3),
        c.maxAbsResidual.toFixed(2),
      ];
    }),
  );
}

/** A risk of the ruling that voids a game on its last leave, not a check: see rtp.ts (addLeaveWhenBehind). */
function leaveWhenBehindText(summary: FairnessSummary): string {
  const { everyHand, oneHand } = summary.rtp.leaveWhenBehind;
  return `<p>The last seated player's leave mid-game voids the game and refunds every open bet (the product owner's ruling).
A player alone at a table who bets at the hole, advances to the turn and leaves whenever the bets are worth less than their stake there
(odds × the exact share at the turn) gets back <span class="bad">${withCi(everyHand)}</span> per unit with a unit on every bettable hand,
and <span class="bad">${withCi(oneHand)}</span> per unit when each hole bet is the game's only one, against the target ${summary.rtp.targetRtp}.</p>`;
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.9em}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}.ok{color:#1a7f37;font-weight:bold}.bad{color:#c62828;font-weight:bold}.warn{color:#b26a00;font-weight:bold}
figure{margin:1em 0}small{color:#666}`;

export function reportHtml(summary: FairnessSummary, plots: Plots): string {
  const o = summary.options;
  const failed = summary.checks.filter((c) => !c.passed).length;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fairness report</title><style>${STYLE}</style></head><body>
<h1>Fairness report</h1>
<p>Generated ${escape(summary.generatedAt)} in ${summary.seconds.toFixed(0)} s: ${o.games} games of ${o.numberOfHands} hands at target RTP ${o.targetRtp},
${o.shuffles} shuffles of each deck source, ${summary.equity.spots} equity spots. Node ${escape(summary.environment.node)}, OpenSSL ${escape(summary.environment.openssl)}.
${failed === 0 ? '<span class="ok">Every bound holds.</span>' : `<span class="bad">${failed} bound(s) failed.</span>`}</p>
<h2>Checks</h2>${checksTable(summary.checks)}
<h2>Return to player</h2>
<p>A unit bet on every hand the table takes bets on (P(win alone) &gt; 0), at the hole, the flop and the turn, settled at the river by the table's payout rule
(odds to a sole winner, odds / k to each of k tied winners). The odds are the nearest tenth of target ÷ the hand's expected share of the pot
(P(win alone) + Σ P(tie with k − 1 others) / k), so a bet is expected to return the target up to that rounding.
<em>Realized</em>: returned ÷ staked. <em>Theoretical</em>: the exact expected return of the same bets given the cards seen (odds × expected share).
<em>Rounding rake</em> = target − theoretical. <em>Paid on ties</em>: odds × (share − P(win alone)), the part of the theoretical return that dead heats pay.
The 95 % intervals treat games, not bets, as independent.</p>
<figure>${plots.rtp}</figure>${rtpTable(summary)}
<h3>Bets with the highest expected return</h3>${topSpotsTable(summary)}
<h3>Leaving an empty table when behind</h3>${leaveWhenBehindText(summary)}
<h3>Rounding rake and expected return per bet</h3><figure>${plots.rake}</figure><figure>${plots.expected}</figure>
<h2>Shuffle uniformity</h2>
<p>How often each card lands at each position. A uniform shuffle gives a chi-square near its ${summary.shuffles.plain.df} degrees of freedom and a p-value spread evenly over (0, 1).</p>
${shuffleTable(summary)}<figure>${plots.heatmapPlain}</figure><figure>${plots.heatmapDerived}</figure>
<h2>Provably fair decks</h2><p>${summary.provablyFair.verified} of ${summary.provablyFair.derivedGames} games dealt from seed-derived decks verified from their seeds, commitments and cards (the procedure: docs/provably-fair.md).</p>
<h2>Exact against Monte Carlo equity</h2>
<p>${summary.equity.spots} spots, Monte Carlo with ${summary.equity.iterations} boards each: mean |difference| ${summary.equity.meanAbsDifference.toFixed(4)} percentage points, largest ${summary.equity.maxAbsDifference.toFixed(4)}; ${pct(summary.equity.beyond95)} of the figures beyond 1.96 standard errors (about 5 % expected).</p>
<figure>${plots.equity}</figure>
<h2>Randomness</h2>${table(
    ["use", "source"],
    Object.entries(summary.randomness).map(([k, v]) => [escape(k), escape(v)]),
  )}
</body></html>
`;
}
