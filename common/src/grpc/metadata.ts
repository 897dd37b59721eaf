import { randomUUID } from "node:crypto";
import type { Metadata } from "@grpc/grpc-js";

export const REQUEST_ID_KEY = "x-request-id";

/** A request id taken from a caller (an HTTP header, gRPC metadata): short and printable only. */
const TRUSTED_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The caller's request id when it may be trusted, else a fresh one. */
export function trustedRequestId(value: unknown): string {
  return typeof value === "string" && TRUSTED_REQUEST_ID.test(value) ? value : randomUUID();
}

/** The caller's request id, or a new one. */
export function requestIdFrom(metadata: Metadata): string {
  return trustedRequestId(metadata.get(REQUEST_ID_KEY)[0]);
}
