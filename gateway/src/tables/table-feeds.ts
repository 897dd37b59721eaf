// One WatchTable call per watched table in this gateway, shared by every event stream on that table.
//
// When each stream was its own call, every client that went away cancelled one: an HTTP/2
// RST_STREAM on the gateway's one connection to the table service, whose rapid-reset protection
// closes the connection after about 1,000 of them in a burst, failing every call on it. A feed is
// cancelled only once its table has had no stream here for `lingerMs`, so opening and closing
// streams costs the table service nothing; it also sends each version once per gateway, not once
// per client, and the gateway formats each event once.
//
// A feed keeps its table's last WATCH_REPLAY_MAX versions as the events its clients are sent (it
// asks for them when it opens: recent_versions), so a client's Last-Event-ID is answered from
// memory. When the call breaks (the replica died or stopped, its connection was recycled), the feed
// subscribes again, on whichever replica the channel picks, for the versions after the last one it
// got: versions are contiguous and the same on every replica, so nothing is missed or repeated.
import { context, ROOT_CONTEXT } from "@opentelemetry/api";
import { gauge, WakeList, type Logger } from "@pokerodds/common";
import type { Caller, WatchTableResponse } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { WATCH_REPLAY_MAX } from "@pokerodds/common/limits";
import { setTimeout as sleep } from "node:timers/promises";
import { RESUBSCRIBE_ATTEMPTS, resubscribeDelayMs, streamInterrupted, whenAccepted } from "../http/resubscribe.js";
import type { TableEventsApi } from "../services.js";
import { toTableGameState } from "./to-api.js";

/** How long a feed stays open after its table's last stream here closed. */
const FEED_LINGER_MS = 30_000;

/**
 * Feeds kept open after their last stream, at most; past it the one idle longest closes. Each polls
 * its table at the table service, and streams that each came and went on another table kept one
 * open per table for FEED_LINGER_MS without bound (a review: 333 of them took the gateway's heap
 * from 29 to 100 MB in 30 s; about 450 would have filled its pod's 256 MiB).
 */
const FEEDS_MAX_LINGERING = 100;

/**
 * The events all feeds keep, in characters (up to 32 MiB: a state with a name beyond Latin-1 is a
 * string of two bytes a character). Past it, feeds without a stream close first (idle longest
 * first), then every feed keeps only its newest event: what a stream needs to go on.
 */
const FEEDS_MAX_CHARS = 16 * 1024 * 1024;

/**
 * The events a feed keeps, in characters, besides the newest: a state grows with its bets (about
 * 44 KB at 6 seats of 50 bets), and WATCH_REPLAY_MAX of the largest in each of the gateway's
 * EVENTS_MAX_STREAMS feeds would be gigabytes. Each event is a whole state, so a stream whose next
 * version was dropped loses nothing by going on from the oldest one kept.
 */
export const FEED_MAX_CHARS = 256 * 1024;

/**
 * How long a new stream waits for the feed to reach its Last-Event-ID, or the version its caller's
 * check read: either may be a version another replica stored that has not reached this feed yet
 * (the table service polls for those).
 */
const AHEAD_WAIT_MS = 1_000;

/** A feed that has not caught up with its table by then ends (its streams are answered 503). */
const CATCH_UP_MS = 10_000;

const openFeeds = gauge("gateway_table_feeds", "Tables this gateway follows (one WatchTable call each)");

/** One event: the version, and the state exactly as GET /api/tables/{tableId}/state answers it. */
function eventFrame(event: WatchTableResponse): string {
  return `id: ${event.version}\nevent: state\ndata: ${JSON.stringify(toTableGameState(event.state))}\n\n`;
}

/** One table's versions as this gateway receives them, shared by the table's streams here. */
export class TableFeed {
  /** The last version received; 0 before the first. */
  head = 0;
  /** Set when the feed has ended: the table service stayed away, refused it, or the gateway closes. */
  ended: { error?: unknown } | undefined;
  /**
   * Resolves once the feed has caught up with its table (it has the latest version the table
   * service knew of); rejects when the feed ends before that.
   */
  readonly ready: Promise<void>;
  streams = 0;
  /** The versions' events, oldest first; `chars` their length in all. */
  private readonly events = new Map<number, string>();
  private chars = 0;
  private readonly waiting = new WakeList();
  private readonly stop = new AbortController();
  private received!: () => void;
  private failed!: (error: unknown) => void;

  constructor(
    readonly tableId: number,
    private readonly caller: Caller,
    private readonly watch: TableEventsApi,
    private readonly logger: Logger,
    private readonly onClose: () => void,
    /** Told each change of `chars`, after it. */
    private readonly onResize: (delta: number) => void,
  ) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.received = resolve;
      this.failed = reject;
    });
    this.ready.catch(() => {}); // each stream awaits it and answers with the error
    // A table service that accepted the call and then hangs must not hold the streams for good.
    const catchingUp = setTimeout(() => this.close(), CATCH_UP_MS).unref();
    void this.ready.finally(() => clearTimeout(catchingUp)).catch(() => {});
    // Not any one request's: its calls start traces of their own.
    void context.with(ROOT_CONTEXT, () => this.follow());
  }

  /** The event of `version`, when this feed holds it. */
  event(version: number): string | undefined {
    return this.events.get(version);
  }

  /**
   * The version a stream that has sent everything before `next` sends next: `next` itself, the
   * current one when more than WATCH_REPLAY_MAX were missed, or the next one held after a gap (only
   * version 1, the empty table, is never stored). Above the head when there is nothing to send yet.
   * Asked once the feed has caught up, so its head is the table's.
   */
  nextToSend(next: number): number {
    let version = this.head - next >= WATCH_REPLAY_MAX ? this.head : next;
    while (version <= this.head && !this.events.has(version)) version++;
    return version;
  }

  /** Resolves when the head moves or the feed ends; rejects with the signal's reason when it aborts first. */
  changed(signal: AbortSignal): Promise<void> {
    if (this.ended && !signal.aborted) return Promise.resolve();
    return this.waiting.wait(signal);
  }

  /**
   * Ends the feed: its call is cancelled, its streams end (their clients reconnect), and a stream
   * still waiting for its first version is answered with `error` (a 503 when there is none).
   */
  close(error?: unknown): void {
    if (this.ended) return;
    this.ended = { error };
    this.stop.abort();
    this.failed(error);
    this.keepOnly(0);
    this.waiting.wake();
    this.onClose();
  }

  /** Subscribes, and again after each break, until the feed is closed or the table service stays away. */
  private async follow(): Promise<void> {
    const signal = this.stop.signal;
    let lastError: unknown;
    // The feed gives up after RESUBSCRIBE_ATTEMPTS calls in a row that the table service did not
    // accept. A call it accepted and that broke later (each server recycles its connections, also
    // under an idle table's call) only counts towards the pause before the next.
    let unaccepted = 0;
    let breaks = 0;
    try {
      for (;;) {
        let accepted = false;
        try {
          const stream = await this.subscribe(signal);
          accepted = true;
          for await (const event of stream) {
            breaks = 0;
            this.add(event);
          }
        } catch (error) {
          if (signal.aborted) return;
          if (!streamInterrupted(error)) return this.close(error);
          lastError = error;
        }
        unaccepted = accepted ? 0 : unaccepted + 1;
        if (unaccepted >= RESUBSCRIBE_ATTEMPTS) break;
        breaks++;
        this.logger.info(
          { tableId: this.tableId, head: this.head, breaks },
          "table feed interrupted: subscribing again",
        );
        await sleep(resubscribeDelayMs(breaks), undefined, { signal }).catch(() => undefined);
        if (signal.aborted) return;
      }
      this.logger.warn({ tableId: this.tableId, head: this.head }, "table feed: the table service stays away");
      this.close(lastError);
    } catch (error) {
      this.logger.error({ err: error, tableId: this.tableId }, "table feed failed");
      this.close(error);
    }
  }

  /**
   * The first call asks for the recent versions too; a later one for those after the head, or the
   * recent ones when more than WATCH_REPLAY_MAX were missed: with the current one alone, the feed
   * held a hole below it, and a stream resuming inside the hole skipped it without a word.
   */
  private subscribe(signal: AbortSignal) {
    const request = {
      caller: this.caller,
      tableId: this.tableId,
      afterVersion: this.head,
      recentVersions: WATCH_REPLAY_MAX,
    };
    return whenAccepted(this.watch.watchTable(request, { requestId: `table-feed-${this.tableId}`, signal }));
  }

  /** Drops the oldest events until at most `count` are left. */
  keepOnly(count: number): void {
    const before = this.chars;
    for (const [version, old] of this.events) {
      if (this.events.size <= count) break;
      this.events.delete(version);
      this.chars -= old.length;
    }
    if (this.chars !== before) this.onResize(this.chars - before);
  }

  private add(event: WatchTableResponse): void {
    // Never twice, whatever a replica sends; nothing once closed (a burst read before the cancel).
    if (this.ended || event.version <= this.head) return;
    this.head = event.version;
    const before = this.chars;
    const frame = eventFrame(event);
    this.events.set(event.version, frame);
    this.chars += frame.length;
    for (const [version, old] of this.events) {
      if (version === this.head) break;
      if (version > this.head - WATCH_REPLAY_MAX && this.chars <= FEED_MAX_CHARS) break;
      this.events.delete(version);
      this.chars -= old.length;
    }
    if (event.version >= event.latestVersion) this.received();
    this.waiting.wake();
    this.onResize(this.chars - before);
  }
}

export interface FeedLimits {
  /** How long a feed stays open after its last stream. */
  lingerMs: number;
  /** Feeds kept open without a stream, at most. */
  maxLingering: number;
  /** The characters of every feed's events, at most (besides each feed's newest). */
  maxChars: number;
  /** How long a new stream waits for its feed to reach a newer version (AHEAD_WAIT_MS). */
  aheadWaitMs: number;
}

const DEFAULT_FEED_LIMITS: FeedLimits = {
  lingerMs: FEED_LINGER_MS,
  maxLingering: FEEDS_MAX_LINGERING,
  maxChars: FEEDS_MAX_CHARS,
  aheadWaitMs: AHEAD_WAIT_MS,
};

/** The tables this gateway follows: a feed opens with its table's first stream, and closes a while after its last. */
export class TableFeeds {
  private readonly feeds = new Map<number, TableFeed>();
  /** Feeds without a stream, idle longest first, and the timers that close them. */
  private readonly lingering = new Map<TableFeed, NodeJS.Timeout>();
  /** The characters of every feed's events. */
  private chars = 0;
  /** Set by close(): no feed opens any more. */
  closed = false;
  private readonly limits: FeedLimits;

  constructor(
    private readonly watch: TableEventsApi,
    private readonly logger: Logger,
    limits: Partial<FeedLimits> = {},
  ) {
    this.limits = { ...DEFAULT_FEED_LIMITS, ...limits };
  }

  /** How long a new stream waits for its feed to reach a newer version. */
  get aheadWaitMs(): number {
    return this.limits.aheadWaitMs;
  }

  /**
   * The table's feed, opened for `caller` when there is none: the caller must already be allowed to
   * read the table, and every stream that joins it after must be checked the same way.
   */
  join(tableId: number, caller: Caller): TableFeed {
    let feed = this.feeds.get(tableId);
    if (!feed) {
      const opened: TableFeed = new TableFeed(
        tableId,
        caller,
        this.watch,
        this.logger,
        () => this.forget(opened),
        (delta) => this.resized(delta),
      );
      feed = opened;
      this.feeds.set(tableId, feed);
      openFeeds.set(this.feeds.size);
    }
    clearTimeout(this.lingering.get(feed));
    this.lingering.delete(feed);
    feed.streams++;
    return feed;
  }

  leave(feed: TableFeed): void {
    if (--feed.streams > 0 || feed.ended) return;
    this.lingering.set(feed, setTimeout(() => feed.close(), this.limits.lingerMs).unref());
    if (this.lingering.size > this.limits.maxLingering) this.lingering.keys().next().value!.close();
  }

  /** Keeps every feed's events within `maxChars`: idle feeds close first, then each feed keeps its newest. */
  private resized(delta: number): void {
    this.chars += delta;
    if (delta <= 0) return;
    for (const idle of this.lingering.keys()) {
      if (this.chars <= this.limits.maxChars) return;
      idle.close();
    }
    for (const feed of this.feeds.values()) {
      if (this.chars <= this.limits.maxChars) return;
      feed.keepOnly(1);
    }
  }

  /**
   * Closes every feed for good (the gateway stops): their streams end, and those still waiting for
   * their first version are answered 503, at once rather than cut when the drain is over.
   */
  close(): void {
    this.closed = true;
    for (const feed of [...this.feeds.values()]) feed.close();
  }

  private forget(feed: TableFeed): void {
    clearTimeout(this.lingering.get(feed));
    this.lingering.delete(feed);
    if (this.feeds.get(feed.tableId) === feed) this.feeds.delete(feed.tableId);
    openFeeds.set(this.feeds.size);
  }
}
