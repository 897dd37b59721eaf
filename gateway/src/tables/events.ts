// GET /api/tables/{tableId}/events: the table's changes as Server-Sent Events, relayed from this
// gateway's feed of the table (table-feeds.ts: one WatchTable call per table, shared by its streams).
//
// A stream keeps one thing: the next version to send. The feed holds the table's recent versions,
// so a Last-Event-ID is answered from memory, and follows the table across a replica's death; a
// stream ends when its client goes, when it has lasted its time or its caller's token has, or when
// its feed ends (the client reconnects with Last-Event-ID and misses nothing).
import { LAST_EVENT_ID_PATTERN, type tableEventsApi } from "@pokerodds/api/table-events";
import { gauge } from "@pokerodds/common";
import type { Caller } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { Slots } from "@pokerodds/common/slots";
import type { Request, Response } from "express";
import { callerFor, identityOf } from "../auth/caller.js";
import { expiredToken } from "../auth/token-verifier.js";
import { callOptions, DEADLINES_MS, fromService } from "../http/backend-call.js";
import { clientAddressKey, tooManyRequests, type EdgeSettings } from "../http/edge.js";
import { badRequest, httpErrorFromGrpc, serviceUnavailable } from "../http/errors.js";
import type { Handlers } from "../http/mount.js";
import { cutWhenStalled } from "../http-server.js";
import { relayStop, sendStreamHeaders, writePiece } from "../http/resubscribe.js";
import { requestLog, whenClientGone } from "../http/request.js";
import type { TableApi } from "../services.js";
import { tableIdOf } from "./routes.js";
import type { TableFeed, TableFeeds } from "./table-feeds.js";

type EventStreamSettings = Pick<
  EdgeSettings,
  "eventStreams" | "eventStreamsPerPlayer" | "eventStreamsPerAddress" | "eventHeartbeatMs" | "eventStreamMaxMs"
>;

/** A stream whose client read nothing for this many heartbeats' time is cut (cutWhenStalled). */
const STALLED_HEARTBEATS = 3;

/** A full slot frees when some stream closes; its time is unknown. */
const SLOT_RETRY_AFTER_SECONDS = 5;

const openStreams = gauge("gateway_event_streams", "Table event streams open in this gateway");

// Exactly text/event-stream: no charset, the format is always UTF-8.
const EVENT_STREAM = "text/event-stream";

export function tableEventRoutes(
  table: TableApi,
  feeds: TableFeeds | undefined,
  settings: EventStreamSettings,
): Handlers<typeof tableEventsApi> {
  const slots = streamSlots(settings);
  return {
    getTableEvents: async (req, res) => {
      const tableId = tableIdOf(req);
      const afterVersion = lastEventIdOf(req);
      const identity = identityOf(res);
      if (!feeds) throw serviceUnavailable("table");
      // Accepted by the verifier, but its last moment passed since (a stream would end at once).
      if (identity.acceptedUntilMs <= Date.now()) throw expiredToken();
      const release = slots.take(identity.playerId, clientAddressKey(req.ip ?? ""));
      try {
        // The feed is shared: each stream's caller is checked by reading the state as it (the rule
        // of the contract), a unary call that ends by itself, unlike a watch its client leaves.
        const caller = callerFor(identity);
        const read = await fromService(
          "table",
          table.getState({ caller, tableId }, callOptions(req, DEADLINES_MS.read)),
        );
        if (req.method === "HEAD") {
          sendStreamHeaders(res, EVENT_STREAM);
          res.end();
          return;
        }
        const stream = { req, res, afterVersion, readVersion: read.version, untilMs: identity.acceptedUntilMs };
        const stoppedBy = await streamFrom(feeds, { tableId, caller }, stream, settings);
        // Its time, or its token's, ran out before its first event, and its client is still waiting.
        if (!res.headersSent && !res.closed && !req.socket.destroyed) {
          throw stoppedBy === "token" ? expiredToken() : serviceUnavailable("table");
        }
      } finally {
        release();
      }
    },
  };
}

/**
 * A stream's slots: one of its player's, one of its client address's, one of the gateway's. Takes
 * all three or throws the 429 of the first that is full.
 */
function streamSlots(settings: EventStreamSettings) {
  const byPlayer = new Slots(settings.eventStreams, settings.eventStreamsPerPlayer);
  const byAddress = new Slots(0, settings.eventStreamsPerAddress);
  const full = (message: string) => tooManyRequests(SLOT_RETRY_AFTER_SECONDS, message);
  return {
    take(playerId: string, address: string): () => void {
      const player = byPlayer.take(playerId);
      if (player === "key full") throw full("too many event streams open for this player; close one first");
      if (player === "all full") throw full("too many event streams open; try again later");
      const fromAddress = byAddress.take(address);
      if (typeof fromAddress !== "function") {
        player();
        throw full("too many event streams open from this address; close one first");
      }
      return () => {
        player();
        fromAddress();
      };
    },
  };
}

/**
 * Last-Event-ID: a version this gateway sent (0 when absent), or 400. The contract's 16 digits reach
 * past 2^53: such an id is above any version, as the largest exact one is.
 */
export function lastEventIdOf(req: Request): number {
  const header = req.headers["last-event-id"];
  if (header === undefined) return 0;
  if (typeof header !== "string" || !LAST_EVENT_ID_PATTERN.test(header)) {
    throw badRequest(
      "Last-Event-ID must be the id of an event received: a version of at most 16 decimal digits, without leading zeros",
    );
  }
  return Math.min(Number(header), Number.MAX_SAFE_INTEGER);
}

interface Stream {
  req: Request;
  res: Response;
  /** The client's Last-Event-ID, or 0. */
  afterVersion: number;
  /** The version the caller's check read (GetState): the feed may follow a replica behind it. */
  readVersion: number;
  /** When the caller's token stops being accepted: the stream ends then, if not before. */
  untilMs: number;
}

/**
 * Joins the table's feed and writes its versions until the client goes, the time is up or the feed
 * ends. Resolves to "token" when its token's end stopped it: told by the timer, not by comparing
 * clocks, since a timer may fire a millisecond before Date.now() reaches its end.
 */
async function streamFrom(
  feeds: TableFeeds,
  { tableId, caller }: { tableId: number; caller: Caller },
  stream: Stream,
  settings: EventStreamSettings,
): Promise<"token" | undefined> {
  const { res } = stream;
  // No more feeds: the gateway is stopping (the client reconnects to another).
  if (feeds.closed) throw serviceUnavailable("table");
  const feed = feeds.join(tableId, caller);
  // Stopped when the client goes, the stream has lasted long enough or outlived its token (which
  // may have been its player's last: a stream must not keep showing the table to a signed-out
  // client), or it ends otherwise.
  const { signal, stop } = relayStop(res);
  const tokenLeft = stream.untilMs - Date.now();
  let stoppedBy: "token" | undefined;
  const expiry = setTimeout(
    () => {
      if (tokenLeft <= settings.eventStreamMaxMs) stoppedBy = "token";
      stop();
    },
    Math.min(settings.eventStreamMaxMs, tokenLeft),
  );
  let heartbeat: NodeJS.Timeout | undefined;
  try {
    await caughtUp(feed, signal).catch((error: unknown) => {
      throw error === undefined ? serviceUnavailable("table") : httpErrorFromGrpc(error, "table");
    });
    if (signal.aborted) return stoppedBy;
    sendStreamHeaders(res, EVENT_STREAM);
    // Heartbeats keep a reading client's connection busy; one that stops reading is cut.
    cutWhenStalled(res, STALLED_HEARTBEATS * settings.eventHeartbeatMs);
    openStreams.inc();
    whenClientGone(res, () => openStreams.dec());
    heartbeat = setInterval(() => {
      if (!res.writableEnded && !res.destroyed && !res.writableNeedDrain) res.write(": keep-alive\n\n");
    }, settings.eventHeartbeatMs);
    await writeVersions(res, feed, await firstToSend(feed, stream, signal, feeds.aheadWaitMs), signal);
    if (feed.ended) requestLog(res).info({ tableId }, "table event stream ends with its feed: the client reconnects");
  } catch (error) {
    if (signal.aborted) return stoppedBy;
    if (!res.headersSent) throw error;
    // Too late for a status: the stream ends, and the client's reconnection gets the answer.
    requestLog(res).error({ err: error }, "table event stream failed");
  } finally {
    clearInterval(heartbeat);
    clearTimeout(expiry);
    stop();
    feeds.leave(feed);
    if (res.headersSent && !res.writableEnded) res.end();
  }
  return stoppedBy;
}

/** Resolves once the feed has caught up with its table, or as soon as the stream stops (the client went). */
function caughtUp(feed: TableFeed, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const stopped = () => resolve();
    signal.addEventListener("abort", stopped, { once: true });
    if (signal.aborted) stopped();
    feed.ready.then(resolve, reject).finally(() => signal.removeEventListener("abort", stopped));
  });
}

/**
 * The first version a stream sends: the current one; with Last-Event-ID, the one after it (the
 * feed skips to the current one when more than WATCH_REPLAY_MAX were missed), or the current one
 * when it is above the table's version. It waits a moment for the feed to reach the newer of
 * Last-Event-ID and the version the caller's check read (the feed follows one table replica, which
 * learns of another's writes by polling) before it decides that a cursor is above the table's
 * version; the stream then sends nothing older than the check's read, however late its feed: a
 * first state older than the page's own read of it took the player back a stage, or to the previous
 * game, and a resume whose feed lagged past the wait was sent its old head and then the versions up
 * to its cursor again.
 */
async function firstToSend(
  feed: TableFeed,
  { afterVersion, readVersion }: Stream,
  signal: AbortSignal,
  waitMs: number,
): Promise<number> {
  const awaited = Math.max(afterVersion, readVersion);
  // A controller and a timer of its own: AbortSignal.timeout inside AbortSignal.any can be
  // collected on Node 20 before it fires, and the wait would then last until the cursor is reached.
  const waiting = new AbortController();
  const timer = setTimeout(() => waiting.abort(), waitMs);
  const stopped = () => waiting.abort();
  signal.addEventListener("abort", stopped, { once: true });
  try {
    while (awaited > feed.head && !feed.ended && !waiting.signal.aborted) {
      await feed.changed(waiting.signal).catch(() => undefined);
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", stopped);
  }
  signal.throwIfAborted();
  // The table has the version the check read, so the stream starts no lower, and a cursor at or
  // below it is the table's: the versions after it, as the feed reaches them (writeVersions waits).
  // Only a cursor above both is above the table's version as far as anyone here knows.
  const current = Math.max(feed.head, readVersion);
  return afterVersion === 0 || afterVersion > current ? current : afterVersion + 1;
}

/** Writes the feed's versions from `next` on, each once and in order, until the signal aborts or the feed ends. */
async function writeVersions(res: Response, feed: TableFeed, next: number, signal: AbortSignal): Promise<void> {
  for (;;) {
    // Ended with its feed, or by the server's close() while this stream waited.
    if (feed.ended || res.writableEnded) return;
    next = feed.nextToSend(next);
    const event = feed.event(next);
    if (event === undefined) {
      await feed.changed(signal);
      continue;
    }
    await writePiece(res, event, signal);
    next++;
  }
}
