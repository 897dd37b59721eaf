// A backend call made for a request: its deadline and options, and its failure as the HTTP answer.
import type { CallOptions } from "@pokerodds/common";
import type { Request } from "express";
import { httpErrorFromGrpc } from "./errors.js";
import { requestIdOf } from "./request.js";

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

// gRPC deadlines of the wallet and table calls, by kind of call.
export const DEADLINES_MS = {
  read: 3_000,
  /** A movement of money, and a first profile read (which writes the welcome credit). */
  moneyMove: 10_000,
  /** An advance may deal or compute equities through the odds service. */
  advance: 15_000,
} as const;
