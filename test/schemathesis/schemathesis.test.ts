// API conformance in `npm test` (and so in CI): schemathesis against a fresh real stack, driven by its
// GET /api/openapi.json with every check; any finding fails (run.ts says how). Without Python 3.13
// this fails, saying where it looked: it never skips.
import test from "ava";
import { runSchemathesis } from "./run.js";

test("the API answers as its OpenAPI document says (schemathesis, every check and phase)", async (t) => {
  t.timeout(9 * 60_000);
  const result = await runSchemathesis((line) => t.log(line));
  if (result.ok) t.log(result.report);
  t.true(result.ok, `schemathesis found what the document does not allow:\n${result.report}`);
});
