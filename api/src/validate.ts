import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { Ajv, type ErrorObject } from "ajv";
import { toCents } from "./money.js";
import { MONEY_KEYWORD, MUST_BE } from "./fields.js";

const ajv = new Ajv({
  strict: true,
  strictNumbers: true,
  allErrors: false,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: true,
  // multipleOf 0.01 on doubles: 0.29 / 0.01 is 28.999999999999996, and up to 1e11 cents the quotient is
  // off by less than 1e-4: that tolerance never refuses a valid amount; MONEY_KEYWORD is the exact check.
  multipleOfPrecision: 4,
});
ajv.addKeyword(MUST_BE);
ajv.addKeyword({
  keyword: MONEY_KEYWORD,
  type: "number",
  schemaType: "boolean",
  validate: (_schema: boolean, value: number) => toCents(value) !== undefined,
});

/** A request the contract refuses: the gateway answers it with a 400 and this message. */
export class InvalidRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidRequest";
  }
}

type BodyValidator<T> = (body: unknown) => T;

/** Validates a request body against its schema, throwing a 400 with a human-readable message. */
export function bodyValidator<S extends TObject>(schema: S): BodyValidator<Static<S>> {
  const check = ajv.compile(schema);
  return (body) => {
    if (check(body)) return body as Static<S>;
    throw new InvalidRequest(describe(check.errors?.[0], schema));
  };
}

/** For bodies that may be absent as a whole: an absent body validates as {} (a JSON null does not). */
export function optionalBodyValidator<S extends TObject>(schema: S): BodyValidator<Static<S>> {
  const validate = bodyValidator(schema);
  return (body) => validate(body === undefined ? {} : body);
}

/**
 * For bodies whose every optional field has a default: Ajv fills the defaults in, so the result
 * has every field. An absent body validates as {}.
 */
export function bodyValidatorWithDefaults<S extends TObject>(schema: S): BodyValidator<Required<Static<S>>> {
  const required = new Set(schema.required ?? []);
  const lacking = Object.entries(schema.properties).filter(
    ([name, field]) => !required.has(name) && field.default === undefined,
  );
  if (lacking.length > 0) throw new Error(`no default for ${lacking.map(([name]) => name).join(", ")}`);
  const validate = optionalBodyValidator(schema);
  return (body) => validate(body) as Required<Static<S>>;
}

function describe(error: ErrorObject | undefined, root: TSchema): string {
  if (!error) return "request body is invalid";
  const path = error.instancePath.split("/").slice(1).map(unescapePointer);
  const where = (name: string) => [...path, name].join(".");
  if (error.keyword === "additionalProperties") return `unknown property "${where(error.params.additionalProperty)}"`;
  if (error.keyword === "required") return `${where(error.params.missingProperty)} is required`;
  if (path.length === 0) return "request body must be a JSON object";
  // A nested object (a bet's at, an advance's from) sent as null, a string or a list: as the body's.
  if (error.keyword === "type" && error.params.type === "object") return `${path.join(".")} must be a JSON object`;
  const mustBe = schemaAt(root, path)?.[MUST_BE];
  return `${path.join(".")} ${typeof mustBe === "string" ? `must be ${mustBe}` : error.message}`;
}

function schemaAt(schema: TSchema | undefined, path: string[]): TSchema | undefined {
  let current = schema;
  for (const segment of path) {
    if (!current) return undefined;
    current = /^\d+$/.test(segment) && current.items ? current.items : current.properties?.[segment];
  }
  return current;
}

function unescapePointer(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}
