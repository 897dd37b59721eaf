// The report's plots: Vega-Lite specifications (pure builders) rendered to SVG text here, at
// generation time, so the HTML needs no script and no network to show them.

import { formatCard } from "@pokerodds/common/poker/cards";
import * as vega from "vega";
import { type TopLevelSpec, compile } from "vega-lite";
import { STAGES } from "./game.js";
import type { RtpFigures } from "./rtp.js";
import { type Histogram, binStart, DECK } from "./stats.js";

const SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json";
/** One layer of a layered chart (vega-lite exports only its top-level spec type). */
type Layer = Extract<TopLevelSpec, { layer: unknown }>["layer"][number];

/** Renders a Vega-Lite specification to standalone SVG text (no canvas, no network). */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Realized RTP (95 % CI), theoretical RTP (95 % CI over deals) and the target, per stage. */
export function rtpSpec(stages: Record<string, RtpFigures>, overall: RtpFigures, targetRtp: number): TopLevelSpec {
  const rows = [...STAGES.map((s) => [s, stages[s]!] as const), ["overall", overall] as const].flatMap(([stage, f]) => [
    { stage, series: "realized (95% CI)", value: f.realized.value, low: f.realized.low, high: f.realized.high },
    {
      stage,
      series: "theoretical: odds x share (95% CI)",
      value: f.theoretical.value,
      low: f.theoretical.low,
      high: f.theoretical.high,
    },
  ]);
  const x = {
    field: "stage",
    type: "nominal",
    sort: [...STAGES, "overall"],
    title: null,
    axis: { labelAngle: 0 },
  } as const;
  const color = {
    field: "series",
    type: "nominal",
    title: null,
    legend: { orient: "bottom", direction: "vertical", labelLimit: 400 },
  } as const;
  return {
    $schema: SCHEMA,
    title: { text: "Return to player per betting stage", subtitle: `unit bet on every live hand; target ${targetRtp}` },
    width: 420,
    height: 260,
    data: { values: rows },
    layer: [
      {
        mark: { type: "rule", strokeWidth: 2 },
        encoding: {
          x,
          xOffset: { field: "series" },
          y: { field: "low", type: "quantitative", scale: { zero: false } },
          y2: { field: "high" },
          color,
        },
      },
      {
        mark: { type: "point", filled: true, size: 60 },
        encoding: {
          x,
          xOffset: { field: "series" },
          // Not from zero: the series lie within a few hundredths of the target, and so do their intervals.
          y: { field: "value", type: "quantitative", title: "RTP", scale: { zero: false } },
          color,
          tooltip: [{ field: "value", format: ".4f" }],
        },
      },
      {
        data: { values: [{ target: targetRtp, label: `target ${targetRtp}` }] },
        layer: [
          { mark: { type: "rule", strokeDash: [6, 4], color: "black" } },
          {
            mark: { type: "text", align: "right", dx: -4, dy: 8, fontSize: 10 },
            encoding: { text: { field: "label" }, x: { value: 420 } },
          },
        ],
        encoding: { y: { field: "target", type: "quantitative" } },
      },
    ],
  };
}

/** Standardized residual of every card (row) at every position (column): noise only, if uniform. */
export function heatmapSpec(residuals: ArrayLike<number>, title: string): TopLevelSpec {
  const values: { card: string; position: number; z: number }[] = [];
  for (let card = 0; card < DECK; card++) {
    for (let position = 0; position < DECK; position++) {
      values.push({
        card: formatCard(card),
        position: position + 1,
        z: Number(residuals[card * DECK + position]!.toFixed(2)),
      });
    }
  }
  return {
    $schema: SCHEMA,
    title: { text: title, subtitle: "(observed - expected) / sqrt(expected) per card and deck position" },
    width: 416,
    height: 416,
    data: { values },
    mark: "rect",
    encoding: {
      x: {
        field: "position",
        type: "ordinal",
        title: "position in the deck",
        axis: { values: [1, 10, 20, 30, 40, 52] },
      },
      y: {
        field: "card",
        type: "ordinal",
        sort: Array.from({ length: DECK }, (_, c) => formatCard(c)),
        axis: { values: Array.from({ length: 13 }, (_, r) => formatCard(r * 4)) },
      },
      color: { field: "z", type: "quantitative", scale: { scheme: "redblue", domain: [-4, 4], reverse: true } },
    },
  };
}

/** A dashed vertical line at `at`, when given. */
function markerLayer(at: number | undefined): Layer[] {
  if (at === undefined) return [];
  return [
    {
      data: { values: [{ at }] },
      mark: { type: "rule", strokeDash: [6, 4], color: "black" },
      encoding: { x: { field: "at", type: "quantitative" } },
    },
  ];
}

/** A histogram's bins as bars; the counts outside its range are named in the subtitle. */
export function histogramSpec(histogram: Histogram, title: string, xTitle: string, marker?: number): TopLevelSpec {
  const width = (histogram.high - histogram.low) / histogram.counts.length;
  const values = histogram.counts.map((count, i) => ({
    start: binStart(histogram, i),
    end: binStart(histogram, i) + width,
    count,
  }));
  const outside = `${histogram.below} below ${histogram.low}, ${histogram.above} at or above ${histogram.high}`;
  return {
    $schema: SCHEMA,
    title: { text: title, subtitle: `bets per bin; ${outside}` },
    width: 420,
    height: 200,
    layer: [
      {
        data: { values },
        mark: { type: "bar", color: "#4c78a8" },
        encoding: {
          x: {
            field: "start",
            type: "quantitative",
            bin: { binned: true, step: width },
            title: xTitle,
            scale: { domain: [histogram.low, histogram.high] },
            axis: {
              values: Array.from({ length: 5 }, (_, i) => histogram.low + (i * (histogram.high - histogram.low)) / 4),
            },
          },
          x2: { field: "end" },
          y: { field: "count", type: "quantitative", title: "bets", scale: { type: "symlog" } },
        },
      },
      ...markerLayer(marker),
    ],
  };
}

/** Exact against Monte Carlo: z = (mc - exact) / SE per figure, against the standard normal density. */
export function equitySpec(z: readonly number[], comparisons: number): TopLevelSpec {
  const bins = 40;
  const low = -5;
  const high = 5;
  const width = (high - low) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (const value of z) counts[Math.min(bins - 1, Math.max(0, Math.floor((value - low) / width)))]!++;
  const bars = counts.map((count, i) => ({
    start: low + i * width,
    end: low + (i + 1) * width,
    density: count / (comparisons * width),
  }));
  const curve = Array.from({ length: 101 }, (_, i) => {
    const x = low + (i * (high - low)) / 100;
    return { x, density: Math.exp(-(x * x) / 2) / Math.sqrt(2 * Math.PI) };
  });
  return {
    $schema: SCHEMA,
    title: { text: "Monte Carlo against exact equity", subtitle: "z per win and draw figure; the curve is N(0, 1)" },
    width: 420,
    height: 200,
    layer: [
      {
        data: { values: bars },
        mark: { type: "bar", color: "#72b7b2" },
        encoding: {
          x: {
            field: "start",
            type: "quantitative",
            bin: { binned: true, step: width },
            title: "z = (Monte Carlo - exact) / standard error",
            axis: { values: [-4, -2, 0, 2, 4] },
          },
          x2: { field: "end" },
          y: { field: "density", type: "quantitative", title: "density" },
        },
      },
      {
        data: { values: curve },
        mark: { type: "line", color: "black" },
        encoding: { x: { field: "x", type: "quantitative" }, y: { field: "density", type: "quantitative" } },
      },
    ],
  };
}
