import type { handleUnaryCall, ServerUnaryCall, sendUnaryData } from "@grpc/grpc-js";
import { status } from "@grpc/grpc-js";
import { UnavailableError } from "../errors.js";
import { REQUEST_ID_FIELD, type Logger } from "../logger.js";
import { rpcHandled } from "../metrics.js";
import { endRpcSpan, inServerSpan } from "../tracing/grpc-span.js";
import { requestIdFrom } from "./metadata.js";
import { toStatusObject } from "./status.js";

export interface CallContext {
  logger: Logger;
  requestId: string;
  /** The incoming call, to pass as `parent` so deadlines propagate to calls this one makes. */
  call: ServerUnaryCall<unknown, unknown>;
}

export type UnaryHandler<Req, Res> = (request: Req, context: CallContext) => Promise<Res>;

/**
 * Adapts a promise-returning handler to grpc-js: a rejected promise never escapes (grpc-js does not
 * catch it), domain errors become their status, anything else is logged and answered INTERNAL.
 */
export function unary<Req, Res>(
  logger: Logger,
  rpc: string,
  handler: UnaryHandler<Req, Res>,
): handleUnaryCall<Req, Res> {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) =>
    inServerSpan(call.getPath(), call.metadata, async (span) => {
      const requestId = requestIdFrom(call.metadata);
      const log = logger.child({ [REQUEST_ID_FIELD]: requestId, rpc });
      const stopTimer = rpcHandled.startTimer({ rpc });
      const ms = (seconds: number) => Math.round(seconds * 10_000) / 10;
      if (await endedBeforeItBegan(call)) {
        log.info({ code: "CANCELLED", ms: ms(stopTimer({ code: "CANCELLED" })) }, "rpc ended before it began");
        endRpcSpan(span, status.CANCELLED);
        callback({ code: status.CANCELLED, details: CANCELLED_BEFORE_BEGUN });
        return;
      }
      handler(call.request, { logger: log, requestId, call: call as ServerUnaryCall<unknown, unknown> }).then(
        (response) => {
          log.info({ code: "OK", ms: ms(stopTimer({ code: "OK" })) }, "rpc done");
          endRpcSpan(span, status.OK);
          callback(null, response);
        },
        (error: unknown) => {
          const result = toStatusObject(error);
          const code = status[result.code!];
          const took = ms(stopTimer({ code }));
          if (result.known) log.info({ code, ms: took, reason: result.details }, "rpc refused");
          else log.error({ err: error, ms: took }, "rpc failed");
          endRpcSpan(span, result.code!, result.details);
          callback(result);
        },
      );
    });
}

const CANCELLED_BEFORE_BEGUN = "the call ended (cancelled or past its deadline) before it began";

/**
 * Whether the call ended before its handler began: its client cancelled it, or gave up at its
 * deadline, while this process could not read (paused: a stop signal, a frozen VM, a long GC). Its
 * request and its cancellation then wait together in the socket, and the cancellation is read just
 * after the request; gRPC's deadline is relative, so the call would otherwise start with a fresh one.
 * Begun, a move the client was answered 503 for would be made a minute later, on a table moved on
 * (a bet at the odds of a later stage, a top-up, an advance). One turn of the event loop lets it be read.
 */
async function endedBeforeItBegan(call: ServerUnaryCall<unknown, unknown>): Promise<boolean> {
  await new Promise((resolve) => setImmediate(resolve));
  return call.cancelled;
}

/**
 * Aborts when the call ends before its handler answers: the client cancelled it or its deadline
 * passed. For handlers that read whole collections (the audits), which would otherwise read on for
 * nobody, and the next call read it all again alongside, and for the odds pool's waiting tasks. The
 * reason is a domain error: a call nobody waits for any more is no server fault (no INTERNAL, no
 * error line).
 */
export function callEnded(call: ServerUnaryCall<unknown, unknown>): AbortSignal {
  const ended = new AbortController();
  const abort = () =>
    ended.abort(new UnavailableError("the call ended before its answer (cancelled or past its deadline)"));
  if (call.cancelled) abort();
  else call.once("cancelled", abort);
  return ended.signal;
}
