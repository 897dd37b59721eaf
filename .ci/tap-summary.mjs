// Passes ava's TAP output through and ends with the one summary line CI reads.
//
//   node .ci/tap-summary.mjs                      one run: ends with "N passed, N failed"
//   node .ci/tap-summary.mjs --run LABEL --counts FILE
//                                                 one run of several: ends with a line naming the
//                                                 run (worded so it is not taken for the closing
//                                                 line) and writes its counts to FILE
//   node .ci/tap-summary.mjs --total FILE...      the closing line of every run: the counts summed
import { readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  options: { run: { type: "string" }, counts: { type: "string" }, total: { type: "boolean" } },
  allowPositionals: true,
});

if (values.total) {
  let passed = 0;
  let failed = 0;
  for (const file of positionals) {
    const counts = JSON.parse(readFileSync(file, "utf8"));
    passed += counts.passed;
    failed += counts.failed;
  }
  console.log(`${passed} passed, ${failed} failed`);
} else {
  let passed = 0;
  let failed = 0;
  for await (const line of createInterface({ input: process.stdin })) {
    console.log(line);
    if (/^ok \d+/.test(line) && !/# SKIP/.test(line)) passed++;
    else if (/^not ok \d+/.test(line)) failed++;
  }
  if (values.counts) {
    writeFileSync(values.counts, JSON.stringify({ run: values.run, passed, failed }) + "\n");
    console.log(`run on ${values.run ?? "?"}: passed ${passed}, failed ${failed}`);
  } else {
    console.log(`${passed} passed, ${failed} failed`);
  }
}
