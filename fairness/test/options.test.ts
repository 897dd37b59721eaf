// `npm run fairness`'s options: a bad one is a usage error (exit 2) before any work starts.
import test from "ava";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const SMALL = ["--games", "2", "--shuffles", "1", "--equity-spots", "0", "--workers", "0"];

function run(rtp: string, ...more: string[]) {
  const out = mkdtempSync(join(tmpdir(), "fairness-options-"));
  try {
    return spawnSync(process.execPath, ["--import=tsx/esm", main, ...SMALL, "--out", out, "--rtp", rtp, ...more], {
      encoding: "utf8",
      timeout: 60_000,
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

test("--rtp is refused below the tables' lowest target RTP and in any spelling TABLE_TARGET_RTP refuses", (t) => {
  for (const rtp of ["0.01", "0.049", "1e-1", " 0.97", "0x1", "0.97abc", "1", "0", "Infinity", ""]) {
    const refused = run(rtp);
    t.is(refused.status, 2, `${JSON.stringify(rtp)}: ${refused.stderr}`);
    t.regex(refused.stderr, /--rtp must be a number from 0\.05 \(the tables' lowest\) to 1 \(exclusive\)/);
  }
  // Accepted: the report runs (exit 0, or 1 when two games fail a statistical bound).
  const accepted = run("0.05");
  t.true(accepted.status === 0 || accepted.status === 1, accepted.stderr);
  t.notRegex(accepted.stderr, /--rtp must be/);
});

test("an option given twice is a usage error, not the last one silently winning", (t) => {
  const twice = run("0.97", "--rtp", "0.5");
  t.is(twice.status, 2, twice.stderr);
  t.regex(twice.stderr, /--rtp was given more than once/);
});
