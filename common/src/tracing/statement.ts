// What a MongoDB span says about its command (db.query.text). JSON.stringify over the whole command
// would walk its documents too, and a Buffer's toJSON turns every byte into an array element first:
// with the OpenTelemetry instrumentation's default serializer, that took more of the table's CPU on
// bets than everything else the process did. The shape is as useful and costs a few field names.

/** Field names are kept down to this depth: {"find":"?","filter":{"_id":{"$in":"?"}}}. */
const MAX_DEPTH = 3;

/**
 * What the driver adds to every command for its session and the server's clock, not the statement:
 * left out of the shape (walking them was a fifth of its cost, and they say nothing of the statement).
 */
const BOOKKEEPING = new Set([
  "lsid",
  "$db",
  "$clusterTime",
  "txnNumber",
  "autocommit",
  "startTransaction",
  "$readPreference",
]);

/** The command's field names to MAX_DEPTH, every value "?": no player ids or amounts, no documents walked. */
export function statementShape(command: Record<string, unknown>): string {
  return JSON.stringify(shape(command, 0, BOOKKEEPING));
}

function shape(value: unknown, depth: number, skipped?: ReadonlySet<string>): unknown {
  if (depth > MAX_DEPTH || !isPlainObject(value)) return "?";
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (!skipped?.has(key)) fields[key] = shape(value[key], depth + 1);
  return fields;
}

/** Arrays (inserted documents, $in lists), Buffers, BSON values and dates are values, not shape. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
