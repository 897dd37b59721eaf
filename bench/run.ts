// npm run bench: every benchmark, each figure next to a baseline measured in the same run.
import { benchEvaluator } from "./evaluator.js";
import { benchHttp } from "./http.js";
import { formatBenchLines, type BenchLine } from "./report.js";
import { benchThroughput } from "./throughput.js";
import { benchWallet } from "./wallet.js";

const sections: Array<[string, () => Promise<BenchLine[]>]> = [
  ["Evaluator and equity (one core, CPU time)", benchEvaluator],
  ["Through the gateway (real stack, 2 cores)", benchHttp],
  ["Throughput through the gateway, 32 concurrent clients (real stack), and the audit after", benchThroughput],
  ["Wallet debits on the embedded FerretDB, empty vs grown ledger", benchWallet],
];

for (const [title, run] of sections) {
  console.log(`\n## ${title}`);
  console.log(formatBenchLines(await run()));
}
