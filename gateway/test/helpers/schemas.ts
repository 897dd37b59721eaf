import type { ExecutionContext } from "ava";
import { Ajv2020 } from "ajv/dist/2020.js";
import { openApiDocument } from "@pokerodds/api/document";

const document = openApiDocument();
const ajv = new Ajv2020({ strict: false, formats: { "date-time": true, money: true } });
for (const [name, schema] of Object.entries(document.components.schemas)) {
  ajv.addSchema(schema, `#/components/schemas/${name}`);
}

export type SchemaName = keyof typeof document.components.schemas;

/** Asserts that a response body is valid against the OpenAPI document's schema of that name. */
export function assertMatchesSchema(t: ExecutionContext, name: SchemaName, json: unknown) {
  const valid = ajv.validate(`#/components/schemas/${name}`, json);
  t.true(valid, `${name}: ${JSON.stringify(ajv.errors)}`);
}
