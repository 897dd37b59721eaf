// Passes ava's TAP output through and ends with the one summary line CI reads.
import { createInterface } from "node:readline";

let passed = 0;
let failed = 0;
for await (const line of createInterface({ input: process.stdin })) {
  console.log(line);
  if (/^ok \d+/.test(line) && !/# SKIP/.test(line)) passed++;
  else if (/^not ok \d+/.test(line)) failed++;
}
console.log(`${passed} passed, ${failed} failed`);
