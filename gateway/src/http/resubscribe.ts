// A server stream of the table service relayed to a client and followed across a replica's death:
// the call cancelled when the client goes, the first subscription before the answer's headers,
// which failures mean the stream only went away (call again, after the last item sent), how many
// times, how long apart; and its items written to the client as they come. The game export relays
// its stream this way; the event streams' table feeds (tables/table-feeds.ts) follow the same rules
// of failure and pause, and their streams use the headers, the stop and the writes.
import { status } from "@grpc/grpc-js";
import { isServiceError, type ServerStream } from "@pokerodds/common";
import type { Request, Response } from "express";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { httpErrorFromGrpc } from "./errors.js";
import { whenClientGone } from "./request.js";

/** Statuses after which the stream is opened again: the replica or the connection went away. */
const INTERRUPTED = new Set<number>([status.UNAVAILABLE, status.CANCELLED, status.DEADLINE_EXCEEDED]);

/** Attempts in a row that bring nothing before a stream gives up (about 3 s of backoff). */
export const RESUBSCRIBE_ATTEMPTS = 6;

export const resubscribeDelayMs = (attempt: number) => Math.min(3_200, 100 * 2 ** (attempt - 1));

export const streamInterrupted = (error: unknown) => isServiceError(error) && INTERRUPTED.has(error.code);

/** Subscribes after `after`, trying again while the table service is only briefly away. */
async function untilSubscribed<Stream, After>(
  subscribe: (after: After) => Promise<Stream>,
  after: After,
  signal: AbortSignal,
): Promise<Stream> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await subscribe(after);
    } catch (error) {
      if (signal.aborted || !streamInterrupted(error) || attempt >= RESUBSCRIBE_ATTEMPTS) throw error;
      await sleep(resubscribeDelayMs(attempt), undefined, { signal });
    }
  }
}

/**
 * The relay's end: `signal` aborts when the client goes or `stop()` is called (the stream has lasted
 * its time, or the handler is done), cancelling the gRPC call made with it.
 */
export function relayStop(res: Response): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const stop = whenClientGone(res, () => controller.abort());
  return { signal: controller.signal, stop };
}

/**
 * Subscribes after `start` (again while the table service is only briefly away; a refusal is thrown
 * as the HTTP answer), then sends the answer's status and headers: its `contentType`, and no proxy
 * may buffer it (nothing may store it either, as no answer of this API: app.ts). Undefined when there
 * is nothing to relay: the client went away first, or asked for the headers only (HEAD).
 */
export async function openRelay<Stream, After>(
  req: Request,
  res: Response,
  subscription: { subscribe: (after: After) => Promise<Stream>; start: After; signal: AbortSignal },
  contentType: string,
): Promise<Stream | undefined> {
  const { subscribe, start, signal } = subscription;
  let first: Stream;
  try {
    first = await untilSubscribed(subscribe, start, signal);
  } catch (error) {
    if (signal.aborted) return undefined;
    throw httpErrorFromGrpc(error, "table");
  }
  sendStreamHeaders(res, contentType);
  return req.method === "HEAD" ? undefined : first;
}

/** A streamed answer's status and headers: its `contentType`, and no proxy may buffer it. */
export function sendStreamHeaders(res: Response, contentType: string): void {
  res.status(200);
  res.setHeader("Content-Type", contentType);
  res.setHeader("X-Accel-Buffering", "no");
  res.flushHeaders();
}

/** `stream` once the service has accepted the call; its refusal is thrown. */
export async function whenAccepted<T>(stream: ServerStream<T>): Promise<ServerStream<T>> {
  await stream.accepted;
  return stream;
}

/** Writes one piece of a streamed answer, waiting while the client's buffer is full. */
export async function writePiece(res: Response, piece: string, signal: AbortSignal): Promise<void> {
  if (!res.write(piece)) await once(res, "drain", { signal });
}
