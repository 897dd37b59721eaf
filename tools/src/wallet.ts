// `npm run wallet`: the operator's deposits, withdrawals and ledger reads (wallet-cli.ts).
import { runWalletCli } from "./wallet-cli.js";

const code = await runWalletCli(process.env, process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
// Ended here, not when nothing is left to do: a connection still being made to a wallet that never
// answers (a stopped process) holds the process open for as long, and closing the client does not end
// it. Standard output and error are written synchronously (files and pipes on Linux): nothing is lost.
process.exit(code);
