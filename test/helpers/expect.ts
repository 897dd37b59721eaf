// Assertions on API replies that show the whole reply (with its request id) when they fail.
import type { ExecutionContext } from "ava";
import { errorOf, show, type Reply } from "./api.js";

/** A 200 with the given acknowledgement, or the assertion fails showing the whole reply. */
export function expectAck<T extends { acknowledgement: string }>(
  t: ExecutionContext,
  reply: Reply<T>,
  ack: "ACK" | "NACK" = "ACK",
): T {
  t.is(reply.status, 200, show(reply));
  t.is(reply.body?.acknowledgement, ack, show(reply));
  if (ack === "NACK") {
    const message: unknown = (reply.body as { message?: unknown }).message;
    t.true(typeof message === "string" && message.length > 0, `a NACK says why: ${show(reply)}`);
  }
  return reply.body;
}

export function expectError(t: ExecutionContext, reply: Reply, status: number): void {
  t.is(reply.status, status, show(reply));
  t.truthy(errorOf(reply), `an { error } body: ${show(reply)}`);
}
