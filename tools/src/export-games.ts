// `npm run export-games`: the game records' command (see game-export-cli.ts), with the development
// issuer's short-lived ADMIN token when AUDIT_TOKEN is unset, as `npm run audit` has.
import { fstatSync, realpathSync } from "node:fs";
import { devAdminToken } from "./dev-admin-token.js";
import { EXIT_NO_EXPORT, runExportCli } from "./game-export-cli.js";

/**
 * Standard output redirected to a file: that file, found through its descriptor's link (Linux);
 * none when it cannot be named (deleted meanwhile, no /proc), so nothing names a wrong one.
 */
function redirectedTo(): string | undefined {
  if (!fstatSync(1).isFile()) return undefined;
  try {
    return realpathSync("/proc/self/fd/1");
  } catch {
    return undefined;
  }
}
const stdoutFile = redirectedTo();

try {
  process.exitCode = await runExportCli(
    process.env,
    process.argv.slice(2),
    { stdout: process.stdout, stdoutFile, err: (text) => process.stderr.write(`${text}\n`) },
    devAdminToken,
  );
} catch (error) {
  process.stderr.write(`export-games: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = EXIT_NO_EXPORT;
}
