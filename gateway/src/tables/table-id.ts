import type { Request } from "express";
import { INT32_MAX } from "../contract/fields.js";
import { badRequest, notFound } from "../http/http-error.js";

// One spelling per table: no sign, exponent, fraction, space or leading zero.
const CANONICAL_ID = /^[1-9][0-9]*$/;

/** The path's tableId: 400 unless an integer >= 1 in plain digits; 404 above what any table can have. */
export function tableIdOf(req: Request): number {
  const text = String(req.params.tableId);
  if (!CANONICAL_ID.test(text)) {
    throw badRequest("tableId must be an integer of at least 1, in plain decimal digits");
  }
  const tableId = Number(text);
  if (tableId > INT32_MAX) throw notFound("no such table");
  return tableId;
}
