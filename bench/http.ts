// Latency through the gateway on the real stack (embedded FerretDB, every service), next to a bare
// Express route measured in the same run.
//
//   node --import=tsx/esm bench/http.ts        (after `npm run build`)
import { startStack } from "@pokerodds/launcher/stack";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NO_LIMITS } from "../test/helpers/stack.js";
import { devToken } from "../test/helpers/tokens.js";
import { startHelloServer } from "./hello.js";
import { percentile, runAlone } from "./latency.js";
import type { BenchLine } from "./report.js";

/** Sequential requests (one at a time: latency, not throughput), after a warm-up. */
async function latencies(send: () => Promise<Response>, count: number, warmUp: number): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await (await send()).arrayBuffer();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await send();
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`benchmark request failed with ${response.status}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

export async function benchHttp(): Promise<BenchLine[]> {
  const dataDir = await mkdtemp(join(tmpdir(), "pokerodds-bench-"));
  const log = await open(join(dataDir, "stack.log"), "a");
  const stack = await startStack({
    port: 0,
    dataDir,
    output: log.fd,
    // One load generator on one address: the gateway's limits would measure themselves.
    env: { ...process.env, NODE_OPTIONS: "", ...NO_LIMITS },
  });
  const hello = await startHelloServer();
  try {
    const token = await devToken(dataDir, "bench");
    const post = (path: string, body: unknown) => () =>
      fetch(`${stack.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    const baseline = await latencies(() => fetch(`${hello.url}/hello`), 500, 100);
    const baseP50 = percentile(baseline, 50);
    const lines: BenchLine[] = [{ name: "bare Express GET /hello p50 (baseline)", value: baseP50, unit: "ms" }];
    const measure = async (name: string, send: () => () => Promise<Response>, count: number, goalMs: number) => {
      const times = await latencies(send(), count, 2);
      const p50 = percentile(times, 50);
      lines.push(
        {
          name: `${name} p50`,
          value: p50,
          unit: "ms",
          ratio: { to: "bare Express p50", value: p50 / baseP50 },
          goal: `<= ${goalMs} ms`,
          met: p50 <= goalMs,
        },
        {
          name: `${name} p99`,
          value: percentile(times, 99),
          unit: "ms",
          ratio: { to: "bare Express p50", value: percentile(times, 99) / baseP50 },
        },
      );
    };
    // The goals: deal p50 at most 12 ms; bulk 50x3 at most 0.2 s and 200x4 at most 0.6 s on 2 cores.
    await measure("POST /api/deal (4 hands, exact)", () => post("/api/deal", { numberOfHands: 4 }), 200, 12);
    await measure(
      "POST /api/games/bulk 50x3",
      () => post("/api/games/bulk", { numberOfGames: 50, numberOfHands: 3 }),
      20,
      200,
    );
    await measure(
      "POST /api/games/bulk 200x4",
      () => post("/api/games/bulk", { numberOfGames: 200, numberOfHands: 4 }),
      8,
      600,
    );
    return lines;
  } finally {
    hello.stop();
    await stack.stop();
    await log.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await runAlone(import.meta.url, benchHttp);
