// GET /api/tables/{tableId}/events: the table's changes as Server-Sent Events, relayed from the table
// service's WatchTable stream (see services/table/src/table-watch.ts).
//
// The gateway keeps one thing per stream: the last version it sent. When its WatchTable stream
// breaks (the replica died or stopped, its connection was recycled), it subscribes again, on
// whichever replica the channel picks, for the versions after that one. A table's versions are
// contiguous and the same on every replica, so the client sees no gap and no repeat. The gateway
// does not follow versions itself by polling GetState: that would cost a call per stream per
// interval, see only the latest state, and lose the versions in between.
import { LAST_EVENT_ID_PATTERN, type tableEventsApi } from "@pokerodds/api/table-events";
import { gauge, isServiceError, type ServerStream } from "@pokerodds/common";
import type { WatchTableResponse } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import type { Request, Response } from "express";
import { setTimeout as sleep } from "node:timers/promises";
import { callerFor, identityOf } from "../auth/caller.js";
import { Slots, tooManyRequests, type EdgeSettings } from "../http/edge.js";
import { badRequest, serviceUnavailable } from "../http/errors.js";
import type { Handlers } from "../http/mount.js";
import {
  openRelay,
  relayStop,
  RESUBSCRIBE_ATTEMPTS,
  resubscribeDelayMs,
  streamInterrupted,
  whenAccepted,
  writePiece,
} from "../http/resubscribe.js";
import { requestIdOf, whenClientGone } from "../http/request.js";
import type { TableEventsApi } from "../services.js";
import { tableIdOf } from "./routes.js";
import { toTableGameState } from "./to-api.js";

export type EventStreamSettings = Pick<
  EdgeSettings,
  "eventStreams" | "eventStreamsPerPlayer" | "eventHeartbeatMs" | "eventStreamMaxMs"
>;

/** A full slot frees when some stream closes; its time is unknown. */
const SLOT_RETRY_AFTER_SECONDS = 5;

const openStreams = gauge("gateway_event_streams", "Table event streams open in this gateway");

// Exactly text/event-stream: no charset, the format is always UTF-8.
const EVENT_STREAM = "text/event-stream";

export function tableEventRoutes(
  events: TableEventsApi | undefined,
  settings: EventStreamSettings,
): Handlers<typeof tableEventsApi> {
  const slots = new Slots(settings.eventStreams, settings.eventStreamsPerPlayer);
  return {
    getTableEvents: async (req, res) => {
      const tableId = tableIdOf(req);
      const afterVersion = lastEventIdOf(req);
      const identity = identityOf(res);
      if (!events) throw serviceUnavailable("table");
      const release = slots.take(identity.playerId);
      if (release === "player full") {
        throw tooManyRequests(SLOT_RETRY_AFTER_SECONDS, "too many event streams open for this player; close one first");
      }
      if (release === "all full") {
        throw tooManyRequests(SLOT_RETRY_AFTER_SECONDS, "too many event streams open; try again later");
      }
      // Stopped when the client goes, the stream has lasted long enough, or it ends otherwise: the
      // WatchTable call is cancelled with it, and the slot freed.
      const { signal, stop } = relayStop(res);
      const watch = { caller: callerFor(identity), tableId };
      const subscribe = (after: number) =>
        whenAccepted(events.watchTable({ ...watch, afterVersion: after }, { requestId: requestIdOf(req), signal }));
      try {
        const first = await openRelay(req, res, { subscribe, start: afterVersion, signal }, EVENT_STREAM);
        if (!first) return;
        openStreams.inc();
        whenClientGone(res, () => openStreams.dec());
        await relay(res, { first, subscribe, afterVersion, signal, stop }, settings);
      } catch (error) {
        if (!res.headersSent) throw error;
        // Too late for a status: the stream ends, and the client's reconnection gets the answer.
        if (isServiceError(error)) req.log.warn({ err: error }, "table event stream refused on resubscribing");
        else req.log.error({ err: error }, "table event stream failed");
      } finally {
        stop();
        release();
        if (res.headersSent && !res.writableEnded) res.end();
      }
    },
  };
}

/** Last-Event-ID: a version this gateway sent (0 when absent), or 400. */
export function lastEventIdOf(req: Request): number {
  const header = req.headers["last-event-id"];
  if (header === undefined) return 0;
  const version = Number(header);
  if (typeof header !== "string" || !LAST_EVENT_ID_PATTERN.test(header) || !Number.isSafeInteger(version)) {
    throw badRequest("Last-Event-ID must be the id of an event received: a version in plain decimal digits");
  }
  return version;
}

interface Relay {
  first: ServerStream<WatchTableResponse>;
  subscribe: (after: number) => Promise<ServerStream<WatchTableResponse>>;
  afterVersion: number;
  signal: AbortSignal;
  stop: () => void;
}

/**
 * Writes every event of the stream, and of the streams opened after it breaks, until the client goes
 * or the stream has lasted its time; gives up (ends the response: the client reconnects with
 * Last-Event-ID) after RESUBSCRIBE_ATTEMPTS subscriptions in a row that brought nothing.
 */
async function relay(
  res: Response,
  { first, subscribe, afterVersion, signal, stop }: Relay,
  settings: EventStreamSettings,
) {
  let lastSent = afterVersion;
  let sentAny = false;
  let stream: ServerStream<WatchTableResponse> | undefined = first;
  const heartbeat = setInterval(() => {
    if (!res.writableEnded && !res.destroyed && !res.writableNeedDrain) res.write(": keep-alive\n\n");
  }, settings.eventHeartbeatMs);
  const expiry = setTimeout(stop, settings.eventStreamMaxMs);
  try {
    for (let failures = 0; failures < RESUBSCRIBE_ATTEMPTS;) {
      try {
        stream ??= await subscribe(lastSent);
        for await (const event of stream) {
          failures = 0;
          // A Last-Event-ID above the table's version: the table service sends the current state,
          // and the stream goes on from it (the contract). Else never twice, whatever a replica sends.
          const aheadOfTable = !sentAny && event.version < afterVersion;
          if (event.version <= lastSent && !aheadOfTable) continue;
          await writePiece(res, eventFrame(event), signal);
          lastSent = event.version;
          sentAny = true;
        }
      } catch (error) {
        if (signal.aborted) return;
        if (!streamInterrupted(error)) throw error;
      }
      stream = undefined;
      failures++;
      res.req.log.info({ lastSent, failures }, "table event stream interrupted: subscribing again");
      await sleep(resubscribeDelayMs(failures), undefined, { signal }).catch(() => undefined);
      if (signal.aborted) return;
    }
    res.req.log.warn({ lastSent }, "table event stream: the table service stays away; ending the stream");
  } finally {
    clearInterval(heartbeat);
    clearTimeout(expiry);
  }
}

/** One event: the version, and the state exactly as GET /api/tables/{tableId}/state answers it. */
export function eventFrame(event: WatchTableResponse): string {
  return `id: ${event.version}\nevent: state\ndata: ${JSON.stringify(toTableGameState(event.state))}\n\n`;
}
