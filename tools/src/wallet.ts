// `npm run wallet`: the operator's deposits, withdrawals and ledger reads (wallet-cli.ts).
import { runWalletCli } from "./wallet-cli.js";

process.exitCode = await runWalletCli(process.env, process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
