// Server-streaming calls, both ends: the server side is `unary`'s counterpart (a handler that
// rejects never escapes; domain errors become their status, anything else INTERNAL), the client
// side reads a stream as an async iterable that cannot lose its final status.
import {
  Metadata,
  type ClientReadableStream,
  type handleServerStreamingCall,
  type ServerWritableStream,
  status,
  type StatusObject,
} from "@grpc/grpc-js";
import { BusyError, UnavailableError } from "../errors.js";
import { REQUEST_ID_FIELD, type Logger } from "../logger.js";
import { rpcHandled } from "../metrics.js";
import type { Slots } from "../slots.js";
import { endRpcSpan, inServerSpan, startClientSpan, type RpcSpan } from "../tracing/grpc-span.js";
import { REQUEST_ID_KEY, requestIdFrom } from "./metadata.js";
import { toStatusObject } from "./status.js";

export interface StreamContext {
  logger: Logger;
  requestId: string;
  /**
   * Aborted when the client cancels or goes away, or the server stops taking calls; its reason is
   * what the handler should reject with (UNAVAILABLE when the server stops).
   */
  signal: AbortSignal;
  /**
   * Sends the response headers: the client learns that the call was accepted before a first message
   * is ready (a refusal before it is a trailers-only answer carrying the status).
   */
  accept(): void;
}

/** Sends one message; resolves when the next may be sent (flow control), rejects once the call is over. */
export type Send<Res> = (message: Res) => Promise<void>;

/** Sends until done (OK), rejects with the error its status maps (domain errors), or follows the signal. */
export type ServerStreamHandler<Req, Res> = (request: Req, context: StreamContext, send: Send<Res>) => Promise<void>;

interface ServerStreamOptions {
  /** Aborted when the server shuts down: every open stream ends UNAVAILABLE at once, so its client moves on. */
  closing?: AbortSignal;
  /**
   * The streams each client address holds open, shared by all of a server's streaming RPCs: one past
   * its cap is refused before it starts (RESOURCE_EXHAUSTED). One caller holding 5,000 of the table
   * service's WatchTable streams unread took it from 97 to 342 MB.
   */
  perAddress?: Slots;
}

/** The client's address without its port ("10.0.0.7:52100" or "::1:52100" as grpc-js gives it). */
function clientAddress(call: ServerWritableStream<unknown, unknown>): string {
  const peer = call.getPeer();
  const colon = peer.lastIndexOf(":");
  return colon > 0 ? peer.slice(0, colon) : peer;
}

const ms = (seconds: number) => Math.round(seconds * 10_000) / 10;

/**
 * Adapts a handler to grpc-js's server-streaming call, as `unary` does for unary calls: the handler's
 * rejection never escapes, a domain error ends the call with its status, anything else is logged and
 * ends it INTERNAL; a call the client cancelled gets nothing more.
 */
export function serverStreaming<Req, Res>(
  logger: Logger,
  rpc: string,
  handler: ServerStreamHandler<Req, Res>,
  options: ServerStreamOptions = {},
): handleServerStreamingCall<Req, Res> {
  return (call: ServerWritableStream<Req, Res>) =>
    inServerSpan(call.getPath(), call.metadata, (span) => serve(call, span, { logger, rpc, handler, options }));
}

interface Served<Req, Res> {
  logger: Logger;
  rpc: string;
  handler: ServerStreamHandler<Req, Res>;
  options: ServerStreamOptions;
}

/** One served stream, inside its span. */
function serve<Req, Res>(
  call: ServerWritableStream<Req, Res>,
  span: RpcSpan,
  { logger, rpc, handler, options }: Served<Req, Res>,
): void {
  const requestId = requestIdFrom(call.metadata);
  const log = logger.child({ [REQUEST_ID_FIELD]: requestId, rpc });
  const stopTimer = rpcHandled.startTimer({ rpc });
  const abort = new AbortController();
  const onCancel = () => abort.abort(new Error("the client cancelled the call"));
  const onClosing = () => abort.abort(new UnavailableError("the server is shutting down; subscribe again"));
  call.once("cancelled", onCancel);
  options.closing?.addEventListener("abort", onClosing, { once: true });
  let accepted = false;
  const context: StreamContext = {
    logger: log,
    requestId,
    signal: abort.signal,
    accept: () => {
      if (accepted || abort.signal.aborted) return;
      accepted = true;
      call.sendMetadata(new Metadata());
    },
  };
  const slot = options.perAddress?.take(clientAddress(call));
  const finish = (error: unknown) => {
    if (typeof slot === "function") slot();
    options.closing?.removeEventListener("abort", onClosing);
    call.off("cancelled", onCancel);
    if (call.cancelled) {
      log.info({ code: "CANCELLED", ms: ms(stopTimer({ code: "CANCELLED" })) }, "stream cancelled by the client");
      endRpcSpan(span, status.CANCELLED);
      return;
    }
    if (error === undefined) {
      log.info({ code: "OK", ms: ms(stopTimer({ code: "OK" })) }, "stream done");
      endRpcSpan(span, status.OK);
      call.end();
      return;
    }
    const result = toStatusObject(error);
    const code = status[result.code!];
    const took = ms(stopTimer({ code }));
    if (result.known) log.info({ code, ms: took, reason: result.details }, "stream ended");
    else log.error({ err: error, ms: took }, "stream failed");
    endRpcSpan(span, result.code!, result.details);
    // A server-streaming call ends with a status through its 'error' event (grpc-js's contract).
    call.emit("error", result);
  };
  const send: Send<Res> = (message) => write(call, message, abort.signal);
  // A server already closing, or an address at its cap, takes no new stream: refused before it starts,
  // so never accepted.
  if (options.closing?.aborted) finish(new UnavailableError("the server is shutting down; subscribe again"));
  else if (typeof slot === "string") finish(new BusyError("too many streams open from this address; close one first"));
  else handler(call.request, context, send).then(() => finish(undefined), finish);
}

/** Writes one message, waiting for the transport to drain when its buffer is full. */
function write<Res>(call: ServerWritableStream<unknown, Res>, message: Res, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  if (call.write(message)) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const drained = () => {
      signal.removeEventListener("abort", aborted);
      resolve();
    };
    const aborted = () => {
      call.off("drain", drained);
      reject(signal.reason as Error);
    };
    call.once("drain", drained);
    signal.addEventListener("abort", aborted, { once: true });
  });
}

/** A server stream read by a client. */
export interface ServerStream<Res> extends AsyncIterable<Res> {
  /**
   * Settles once the server answered: resolved when it accepted the call (its headers, a first
   * message or a clean end), rejected with its status error when it refused it.
   */
  readonly accepted: Promise<void>;
}

export interface ServerStreamCallOptions {
  requestId?: string;
  /** Cancels the call (the server sees CANCELLED). */
  signal?: AbortSignal;
}

/** Messages held before the stream is paused, so a slow reader pushes back on the server. */
const BUFFERED = 8;

/**
 * Opens a server-streaming call and reads it as an async iterable: it ends when the server ends the
 * call with OK and throws the status error otherwise, whenever that status arrived (grpc-js emits it
 * once, as an event a late reader would miss). Leaving the loop early cancels the call.
 */
export function openServerStream<Res>(
  path: string,
  open: (metadata: Metadata) => ClientReadableStream<Res>,
  options: ServerStreamCallOptions = {},
): ServerStream<Res> {
  const metadata = new Metadata();
  if (options.requestId) metadata.set(REQUEST_ID_KEY, options.requestId);
  const span = startClientSpan(path, metadata);
  const call = open(metadata);
  const queue: Res[] = [];
  let outcome: { error?: Error } | undefined;
  let wake = () => {};
  let accept = () => {};
  let refuse: (error: Error) => void = () => {};
  const accepted = new Promise<void>((resolve, reject) => {
    accept = resolve;
    refuse = reject;
  });
  accepted.catch(() => {}); // the iteration throws the same error
  const cancel = () => call.cancel();
  // Once the call is over nothing is left to cancel: a stream that is never read holds no listener.
  const over = () => options.signal?.removeEventListener("abort", cancel);
  call.on("metadata", () => accept());
  call.on("data", (message: Res) => {
    accept();
    queue.push(message);
    if (queue.length >= BUFFERED) call.pause();
    wake();
  });
  call.on("status", ({ code, details }: StatusObject) => endRpcSpan(span, code, details));
  call.on("error", (error: Error) => {
    outcome = { error };
    refuse(error);
    over();
    wake();
  });
  call.on("end", () => {
    outcome ??= {};
    accept();
    over();
    wake();
  });
  options.signal?.addEventListener("abort", cancel, { once: true });
  if (options.signal?.aborted) cancel();

  async function* messages(): AsyncGenerator<Res> {
    try {
      for (;;) {
        if (queue.length > 0) {
          const message = queue.shift()!;
          if (queue.length < BUFFERED / 2) call.resume();
          yield message;
        } else if (outcome) {
          if (outcome.error) throw outcome.error;
          return;
        } else {
          await new Promise<void>((resolve) => (wake = resolve));
        }
      }
    } finally {
      over();
      call.cancel();
    }
  }
  return { accepted, [Symbol.asyncIterator]: messages };
}
