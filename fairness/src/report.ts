// Writes a run's report: the JSON summary, the HTML page with its plots inline, and the RTP plot
// on its own (rtp.svg), for a README to show.

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Plots, reportHtml } from "./html.js";
import { equitySpec, heatmapSpec, histogramSpec, renderSvg, rtpSpec } from "./plots.js";
import type { RunResults } from "./run.js";
import { standardizedResiduals } from "./stats.js";
import type { FairnessSummary } from "./summary.js";

interface ReportFiles {
  html: string;
  json: string;
  rtpSvg: string;
}

async function renderPlots(summary: FairnessSummary, results: RunResults): Promise<Plots> {
  const { rtp, shuffles, options } = summary;
  const residuals = (source: "plain" | "derived") =>
    standardizedResiduals(results.shuffles[source].counts, results.shuffles[source].count);
  const z = results.equity.points.map((p) => p.z);
  return {
    rtp: await renderSvg(rtpSpec(rtp.stages, rtp.overall, options.targetRtp)),
    rake: await renderSvg(
      histogramSpec(rtp.rakeHistogram, "Rounding rake per bet", "target RTP − odds × expected share of the pot", 0),
    ),
    expected: await renderSvg(
      histogramSpec(rtp.expectedHistogram, "Expected return per unit bet", "odds × expected share of the pot", 1),
    ),
    heatmapPlain: await renderSvg(
      heatmapSpec(residuals("plain"), `Plain CSPRNG shuffle, ${shuffles.plain.shuffles} decks`),
    ),
    heatmapDerived: await renderSvg(
      heatmapSpec(residuals("derived"), `Seed-derived decks, ${shuffles.derived.shuffles} decks`),
    ),
    equity: await renderSvg(equitySpec(z, z.length)),
  };
}

export async function writeReport(summary: FairnessSummary, results: RunResults, outDir: string): Promise<ReportFiles> {
  await mkdir(outDir, { recursive: true });
  const plots = await renderPlots(summary, results);
  const files = {
    html: join(outDir, "index.html"),
    json: join(outDir, "summary.json"),
    rtpSvg: join(outDir, "rtp.svg"),
  };
  await writeFile(files.html, reportHtml(summary, plots));
  await writeFile(files.json, `${JSON.stringify(summary, null, 2)}\n`);
  await writeFile(files.rtpSvg, plots.rtp);
  return files;
}
