// npm run bench: every benchmark, each figure next to a baseline measured in the same run.
import { benchEvaluator } from "./evaluator.js";
import { benchHttp } from "./http.js";
import { benchLobby } from "./lobby.js";
import { benchOverload } from "./overload.js";
import { formatBenchLines, type BenchLine } from "./report.js";
import { benchTable } from "./table.js";
import { benchThroughput } from "./throughput.js";
import { benchTracing } from "./tracing.js";
import { benchWallet } from "./wallet.js";

const sections: Array<[string, () => Promise<BenchLine[]>]> = [
  ["Evaluator and equity (one core, CPU time)", benchEvaluator],
  ["Through the gateway (real stack, 2 cores)", benchHttp],
  ["Throughput through the gateway, 32 concurrent clients (real stack), and the audit after", benchThroughput],
  ["The lobby through the gateway, 32 concurrent clients: no table active vs 4,000 (real stack)", benchLobby],
  ["Overload: another player's deal while one token floods bulk (real stack, default limits)", benchOverload],
  ["What tracing costs: state reads and bets, tracing on (spans discarded) vs off (real stacks)", benchTracing],
  ["Wallet on the embedded FerretDB: empty ledger vs 1,000,000 entries, and the audit", benchWallet],
  [
    "Table service: fresh table vs 100,000 stored versions; the lobby and a player's seats vs 10,000 more tables; the lobby and recovery vs 1,000 more active",
    benchTable,
  ],
];

for (const [title, run] of sections) {
  console.log(`\n## ${title}`);
  console.log(formatBenchLines(await run()));
}
