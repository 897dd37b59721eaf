// A backend call made for a request: its options, and its failure as the HTTP answer.
import type { CallOptions } from "@pokerodds/common";
import type { Request } from "express";
import { httpErrorFromGrpc } from "./grpc-errors.js";
import { requestIdOf } from "./request-logging.js";

/** The call's deadline, and the request's id, which the services log with every line of theirs. */
export function callOptions(req: Request, deadlineMs: number): CallOptions {
  return { deadlineMs, requestId: requestIdOf(req) };
}

/** Awaits a gRPC call to `service` (e.g. "odds"), turning its failure into the HTTP answer. */
export async function fromService<T>(service: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw httpErrorFromGrpc(error, service);
  }
}
