// One measured quantity of a benchmark, as every benchmark module reports it.

export interface BenchLine {
  /** What was measured, including anything needed to read the number (sample, method). */
  name: string;
  value: number;
  /** e.g. "M evals/s", "ms", "x". */
  unit: string;
  /** The value relative to another measurement, e.g. { to: "phe", value: 21.4 }. */
  ratio?: { to: string; value: number };
  /** The target, in words, e.g. ">= 250 M evals/s". */
  goal?: string;
  /** Whether the goal was met. */
  met?: boolean;
}

/** Formats lines as an aligned plain-text table. */
export function formatBenchLines(lines: readonly BenchLine[]): string {
  const rows = lines.map((l) => [
    l.name,
    `${formatNumber(l.value)} ${l.unit}`,
    l.ratio ? `${formatNumber(l.ratio.value)}x ${l.ratio.to}` : "",
    l.goal ? `goal ${l.goal}: ${l.met ? "met" : "NOT met"}` : "",
  ]);
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => (c < 3 ? cell.padEnd(widths[c]!) : cell))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function formatNumber(x: number): string {
  if (Math.abs(x) >= 100) return x.toFixed(0);
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(2);
}
