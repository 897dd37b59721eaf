import test from "ava";
import { Ajv2020 } from "ajv/dist/2020.js";
import { openApiDocument } from "@pokerodds/api/document";
import { startApp } from "./helpers/app.js";

// Every endpoint of interface-spec.md, plus the document itself.
const SPEC_OPERATIONS = [
  ["get", "/api/tables"],
  ["get", "/api/players/{playerId}"],
  ["post", "/api/tables/{tableId}/sit"],
  ["post", "/api/tables/{tableId}/topup"],
  ["post", "/api/tables/{tableId}/bet"],
  ["post", "/api/tables/{tableId}/leave"],
  ["post", "/api/tables/{tableId}/advance"],
  ["get", "/api/tables/{tableId}/state"],
  ["post", "/api/deal"],
  ["post", "/api/games/bulk"],
  ["get", "/api/health"],
  ["get", "/api/openapi.json"],
  // Ours, beyond the spec: a player's seats and account statement, the table's live events, a finished game's record, the
  // operators' money audit and game records, and how the web client signs in.
  ["get", "/api/players/{playerId}/seats"],
  ["get", "/api/players/{playerId}/ledger"],
  ["get", "/api/tables/{tableId}/events"],
  ["get", "/api/tables/{tableId}/games/{gameId}"],
  ["get", "/api/admin/audit"],
  ["get", "/api/admin/games"],
  ["get", "/api/client-config"],
] as const;
const PUBLIC = new Set(["/api/tables", "/api/health", "/api/openapi.json", "/api/client-config"]);

type Json = Record<string, unknown>;

async function servedDocument() {
  const app = await startApp();
  try {
    const response = await fetch(`${app.url}/api/openapi.json`);
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      document: (await response.json()) as Json,
    };
  } finally {
    await app.close();
  }
}

test("served publicly as OpenAPI 3.1 JSON", async (t) => {
  const { status, type, document } = await servedDocument();
  t.is(status, 200);
  t.is(type, "application/json; charset=utf-8");
  t.is(document.openapi, "3.1.0");
  t.like(document.info, { version: "0.6.0" });
  t.deepEqual(document, JSON.parse(JSON.stringify(openApiDocument())));
});

test("every path of the spec, with its method, and nothing else", async (t) => {
  const { document } = await servedDocument();
  const paths = document.paths as Record<string, Json>;
  const documented = Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method} ${path}`),
  );
  t.deepEqual(documented.sort(), SPEC_OPERATIONS.map(([method, path]) => `${method} ${path}`).sort());
});

test("security: bearer everywhere but the public endpoints", async (t) => {
  const { document } = await servedDocument();
  t.deepEqual(document.security, [{ bearerAuth: [] }]);
  t.like(document.components, {
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
  });
  for (const [method, path] of SPEC_OPERATIONS) {
    const operation = (document.paths as Record<string, Record<string, Json>>)[path]![method]!;
    const responses = operation.responses as Json;
    t.truthy(responses["200"], `${method} ${path} has a 200`);
    if (PUBLIC.has(path)) {
      t.deepEqual(operation.security, [], `${path} is public`);
      t.falsy(responses["401"]);
    } else {
      t.is(operation.security, undefined, `${path} inherits bearer auth`);
      t.truthy(responses["401"], `${method} ${path} documents 401`);
    }
  }
});

test("every $ref resolves, and every schema compiles as JSON Schema 2020-12", async (t) => {
  const { document } = await servedDocument();
  const refs: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") refs.push(value);
        else walk(value);
      }
    }
  };
  walk(document);
  t.true(refs.length > 20);
  for (const ref of refs) {
    const target = ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], document);
    t.truthy(target, ref);
  }
  // Each schema under the address a $ref names it by, so that one schema may refer to another.
  const ajv = new Ajv2020({ strict: false, formats: { "date-time": true } });
  const schemas = Object.entries((document.components as { schemas: Json }).schemas);
  for (const [name, schema] of schemas) ajv.addSchema(schema as object, `#/components/schemas/${name}`);
  for (const [name] of schemas) t.notThrows(() => ajv.getSchema(`#/components/schemas/${name}`), name);
});

test("request bodies forbid unknown properties; money fields state their rules", async (t) => {
  const { document } = await servedDocument();
  const schemas = (document.components as { schemas: Record<string, Json> }).schemas;
  for (const name of ["DealRequest", "BulkRequest", "SitRequest", "TopUpRequest", "BetRequest", "NoBody"]) {
    t.is(schemas[name]!.additionalProperties, false, name);
  }
  // Their nested objects too: an advance's from, a bet's at.
  const nested = (name: string, property: string) =>
    (schemas[name]!.properties as Record<string, Json>)[property]!.additionalProperties;
  t.is(schemas.AdvanceRequest!.additionalProperties, false);
  t.is(nested("AdvanceRequest", "from"), false);
  t.is(nested("BetRequest", "at"), false);
  t.like(schemas.SitRequest, {
    required: ["buyInAmount"],
    properties: { buyInAmount: { type: "number", exclusiveMinimum: 0, maximum: 1_000_000_000, multipleOf: 0.01 } },
  });
  t.false(JSON.stringify(document).includes('"format":"money"'), "no non-standard format");
  // Fields with defaults are not required.
  t.is(schemas.DealRequest!.required, undefined);
  t.is(schemas.BulkRequest!.required, undefined);
  t.like(schemas.DealRequest, { properties: { numberOfHands: { minimum: 2, maximum: 6, default: 4 } } });
  t.like(schemas.BulkRequest, {
    properties: {
      numberOfGames: { minimum: 1, maximum: 200, default: 50 },
      targetRtp: { exclusiveMinimum: 0, exclusiveMaximum: 1, default: 0.97 },
    },
  });
});

test("the money moves, and only they, document the optional Idempotency-Key and its 422", async (t) => {
  const { document } = await servedDocument();
  const paths = document.paths as Record<string, Record<string, Json>>;
  for (const [method, path] of SPEC_OPERATIONS) {
    const operation = paths[path]![method]!;
    const key = ((operation.parameters ?? []) as Json[]).find((parameter) => parameter.name === "Idempotency-Key");
    const responses = operation.responses as Json;
    if (/\/(sit|topup|bet|leave)$/.test(path)) {
      t.like(key, { in: "header", required: false, schema: { type: "string", pattern: "^[!-~]{1,128}$" } }, path);
      t.truthy(responses["422"], path);
      t.truthy(responses["400"], path);
    } else {
      t.is(key, undefined, path);
      t.falsy(responses["422"], path);
    }
  }
});

test("table routes document the answers decisions.md gives", async (t) => {
  const { document } = await servedDocument();
  const paths = document.paths as Record<string, Record<string, { responses: Json }>>;
  const statuses = (path: string, method = "post") => Object.keys(paths[path]![method]!.responses);
  for (const action of ["sit", "topup", "bet"]) {
    t.deepEqual(statuses(`/api/tables/{tableId}/${action}`), [
      "200",
      "400",
      "401",
      "403",
      "404",
      "409",
      "413",
      "415",
      "422",
      "429",
      "503",
    ]);
  }
  t.deepEqual(statuses("/api/tables/{tableId}/leave"), [
    "200",
    "400",
    "401",
    "403",
    "404",
    "409",
    "413",
    "415",
    "422",
    "429",
    "503",
  ]);
  t.deepEqual(statuses("/api/tables/{tableId}/advance"), [
    "200",
    "400",
    "401",
    "403",
    "404",
    "409",
    "413",
    "415",
    "429",
    "503",
  ]);
  t.deepEqual(statuses("/api/tables/{tableId}/state", "get"), ["200", "400", "401", "403", "404", "429", "503"]);
  t.deepEqual(statuses("/api/players/{playerId}", "get"), ["200", "400", "401", "403", "404", "429", "503"]);
  // A query parameter it does not declare is a 400 (the lobby takes none).
  t.deepEqual(statuses("/api/tables", "get"), ["200", "304", "400", "429"]);
});
