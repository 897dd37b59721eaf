// `npm run audit` (not `npm audit`, which is npm's own dependency check): the money audit's command,
// @pokerodds/audit's cli.ts (see there), with the development issuer's ADMIN token when AUDIT_TOKEN is
// unset. Its entry point is here because that token needs the gateway's development issuer, and the
// gateway depends on @pokerodds/audit.
import { EXIT_NO_AUDIT, runAuditCli } from "@pokerodds/audit/cli";
import { devAdminToken } from "./dev-admin-token.js";

try {
  process.exitCode = await runAuditCli(
    process.env,
    process.argv.slice(2),
    {
      out: (text) => process.stdout.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
    },
    devAdminToken,
  );
} catch (error) {
  process.stderr.write(`audit: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = EXIT_NO_AUDIT;
}
