import type { Request } from "express";
import { randomUUID } from "node:crypto";
import { badRequest } from "./http-error.js";

/**
 * Visible ASCII, no spaces: a header sent twice (which Node joins with ", ") is refused rather than
 * read as one key.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[!-~]{1,128}$/;

/**
 * The client's Idempotency-Key, or a fresh UUID when it sent none: every money movement reaches the
 * table service with a key, but only a client that sends one can retry safely.
 */
export function idempotencyKeyOf(req: Request): string {
  const key = req.headers["idempotency-key"];
  if (key === undefined) return randomUUID();
  if (typeof key !== "string" || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw badRequest("Idempotency-Key must be 1 to 128 visible ASCII characters without spaces");
  }
  return key;
}
