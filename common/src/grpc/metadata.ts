import { randomUUID } from "node:crypto";
import type { Metadata } from "@grpc/grpc-js";

export const REQUEST_ID_KEY = "x-request-id";

/** The caller's request id, or a new one; only short printable ids are trusted. */
export function requestIdFrom(metadata: Metadata): string {
  const value = metadata.get(REQUEST_ID_KEY)[0];
  return typeof value === "string" && /^[\w.:-]{1,128}$/.test(value) ? value : randomUUID();
}
