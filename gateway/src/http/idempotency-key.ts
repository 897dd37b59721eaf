import type { Request } from "express";
import { randomUUID } from "node:crypto";
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN } from "@pokerodds/common/limits";
import { badRequest } from "./http-error.js";

/**
 * Visible ASCII, no spaces (common/src/limits.ts): a header sent twice (which Node joins with ", ")
 * is refused rather than read as one key.
 */
export { IDEMPOTENCY_KEY_PATTERN };

/**
 * The client's Idempotency-Key, or a fresh UUID when it sent none: every money movement reaches the
 * table service with a key, but only a client that sends one can retry safely.
 */
export function idempotencyKeyOf(req: Request): string {
  const key = req.headers["idempotency-key"];
  if (key === undefined) return randomUUID();
  if (typeof key !== "string" || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw badRequest(
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters without spaces`,
    );
  }
  return key;
}
