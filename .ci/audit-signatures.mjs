// `npm audit signatures` over the installed tree of each project directory named (default: the
// repository), read through its --json output:
//
//   - every signature and attestation verified: passes;
//   - an invalid registry signature or attestation, or a missing one from a registry that
//     publishes signing keys: fails (exit 1), naming the packages;
//   - the verification material cannot be fetched (npm takes the registry's signing keys from
//     Sigstore's TUF repository, tuf-repo-cdn.sigstore.dev, and refuses to go on without it): says
//     so loudly and passes, because nothing was verified either way, unless
//     CI_REQUIRE_SIGNATURES=1, which makes that a failure too;
//   - any other error: fails.
//
// npm retries a failed fetch for minutes by default; --fetch-retries=1 keeps an unreachable
// repository from costing that.
import { spawnSync } from "node:child_process";

const NETWORK_ERRORS = new Set(["ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH"]);
const SIGSTORE_TUF = "tuf-repo-cdn.sigstore.dev";
const required = process.env.CI_REQUIRE_SIGNATURES === "1";

let failed = false;
for (const dir of process.argv.length > 2 ? process.argv.slice(2) : ["."]) {
  const npm = spawnSync("npm", ["audit", "signatures", "--json", "--fetch-retries=1", "--prefix", dir], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const where = dir === "." ? "the repository" : dir;
  let report;
  try {
    report = JSON.parse(npm.stdout);
  } catch {
    process.stderr.write(npm.stderr);
    console.error(`${where}: npm audit signatures exited ${npm.status} without a JSON report`);
    failed = true;
    continue;
  }
  const invalid = report.invalid ?? [];
  const missing = report.missing ?? [];
  if (npm.status === 0 && !report.error) {
    console.log(`${where}: every installed package's registry signature (and attestation, where published) verified`);
  } else if (invalid.length > 0 || missing.length > 0) {
    for (const p of invalid)
      console.error(`${where}: INVALID ${p.name}@${p.version}: ${p.code ?? ""} ${p.message ?? ""}`);
    for (const p of missing) console.error(`${where}: MISSING signature ${p.name}@${p.version}`);
    console.error(`${where}: ${invalid.length} invalid, ${missing.length} missing`);
    failed = true;
  } else if (NETWORK_ERRORS.has(report.error?.code) && String(report.error?.summary).includes(SIGSTORE_TUF)) {
    const message =
      `${where}: NOT VERIFIED: npm audit signatures could not fetch the signing keys (${report.error.code}: ` +
      `${report.error.summary}); this network reaches the npm registry only`;
    if (required) {
      console.error(`${message} (CI_REQUIRE_SIGNATURES=1: failing)`);
      failed = true;
    } else {
      console.log(`${message}. The lock file's sha512 integrity, which npm ci checked, is what holds here.`);
    }
  } else {
    process.stderr.write(npm.stderr);
    console.error(`${where}: npm audit signatures failed: ${JSON.stringify(report.error ?? report)}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
