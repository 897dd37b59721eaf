// Passes ava's TAP output through and ends with the one summary line CI reads. Every failed test's
// line and its diagnostics are printed again just before that line, so the end of the log, which
// may be all a reader gets, names what failed.
//
//   node .ci/tap-summary.mjs                      one run: ends with "N passed, N failed"
//   node .ci/tap-summary.mjs --run LABEL --counts FILE
//                                                 one run of several: ends with a line naming the
//                                                 run (worded so it is not taken for the closing
//                                                 line) and writes its counts and failures to FILE
//   node .ci/tap-summary.mjs --total FILE...      the closing line of every run: the counts summed
import { readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  options: { run: { type: "string" }, counts: { type: "string" }, total: { type: "boolean" } },
  allowPositionals: true,
});

// A failure's diagnostics are the indented lines after its "not ok" line; a runaway one is cut.
const MAX_LINES_PER_FAILURE = 40;

function printFailures(label, failures) {
  if (failures.length === 0) return;
  console.log(`\nfailed on ${label}:`);
  for (const lines of failures) for (const line of lines) console.log(line);
}

if (values.total) {
  let passed = 0;
  let failed = 0;
  for (const file of positionals) {
    const counts = JSON.parse(readFileSync(file, "utf8"));
    passed += counts.passed;
    failed += counts.failed;
    printFailures(counts.run, counts.failures);
  }
  console.log(`${passed} passed, ${failed} failed`);
} else {
  let passed = 0;
  let failed = 0;
  const failures = [];
  let current = null;
  for await (const line of createInterface({ input: process.stdin })) {
    console.log(line);
    if (/^not ok \d+/.test(line)) {
      failed++;
      current = [line];
      failures.push(current);
      continue;
    }
    if (/^ok \d+/.test(line) && !/# SKIP/.test(line)) passed++;
    if (current && /^\s/.test(line) && current.length < MAX_LINES_PER_FAILURE) current.push(line);
    else if (!/^\s/.test(line)) current = null;
  }
  const label = values.run ?? "this run";
  printFailures(label, failures);
  if (values.counts) {
    writeFileSync(values.counts, JSON.stringify({ run: label, passed, failed, failures }) + "\n");
    console.log(`run on ${label}: passed ${passed}, failed ${failed}`);
  } else {
    console.log(`${passed} passed, ${failed} failed`);
  }
}
