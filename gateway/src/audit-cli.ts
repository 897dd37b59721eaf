// `npm run audit` (not `npm audit`, which is npm's own dependency check): see audit/cli.ts.
import { EXIT_NO_AUDIT, runAuditCli } from "./audit/cli.js";

try {
  process.exitCode = await runAuditCli(process.env, process.argv.slice(2), {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  });
} catch (error) {
  process.stderr.write(`audit: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = EXIT_NO_AUDIT;
}
