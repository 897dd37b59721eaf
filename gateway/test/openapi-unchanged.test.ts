// The OpenAPI document is a promise to every generated client: it changes only on purpose. This is
// the document as the gateway built it before its reorganisation by feature; a deliberate change of
// the contract updates the fixture in the same commit.
import test from "ava";
import { readFile } from "node:fs/promises";
import { openApiDocument } from "@pokerodds/api/document";

test("the OpenAPI document is exactly the recorded one", async (t) => {
  const recorded: unknown = JSON.parse(await readFile(new URL("./fixtures/openapi.json", import.meta.url), "utf8"));
  t.deepEqual(JSON.parse(JSON.stringify(openApiDocument())), recorded);
});
