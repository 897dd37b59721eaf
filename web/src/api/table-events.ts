// A table's state as it changes: the gateway's event stream (GET /api/tables/{id}/events, Server-Sent
// Events) read with fetch, because EventSource cannot send the Authorization header. While the
// stream is not open (refused, broken, or a gateway without it) the state is polled every 2 s, and
// the stream is tried again; a reconnect sends Last-Event-ID so the server can resume from there.
import { createParser } from "eventsource-parser";
import {
  api,
  ApiError,
  authorization,
  describe,
  errorMessage,
  tableVersion,
  unwrapState,
  type TableState,
  type VersionedState,
} from "./client";

/** "closed": the table cannot be shown to this player (404, 403), so nothing is followed any more. */
export type LiveMode = "connecting" | "live" | "polling" | "closed";

/** How changes arrive now. */
export interface FeedStatus {
  mode: LiveMode;
  /** The last problem, if any (shown, never thrown). */
  problem?: string;
  /** Why the table cannot be shown (mode "closed"): 404 no such table, 403 not this player's. */
  refused?: 403 | 404;
  /** The last read of the table failed and no stream is open: the state shown may be out of date. */
  stale: boolean;
}

interface FeedHandlers {
  state(state: TableState): void;
  status(status: FeedStatus): void;
}

export interface TableFeed {
  /** Reads the state now (after a move, so a poller does not wait 2 s). */
  refresh(): Promise<void>;
  /** A state answered to a move (advance): shown unless a later version of the table already is. */
  offer(answer: VersionedState): void;
  stop(): void;
}

const POLL_MS = 2_000;
const OFFLINE = "This device is offline: the table below may be out of date.";
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
/** Heartbeats arrive well within this; silence this long means a dead connection. */
const IDLE_MS = 60_000;

/** How one event stream connection ended. */
type StreamEnd = "ended" | "failed" | "unsupported";

export function followTable(tableId: number, handlers: FeedHandlers): TableFeed {
  const feed = new Feed(tableId, handlers);
  void feed.run();
  return feed;
}

class Feed implements TableFeed {
  private stopped = false;
  private readonly stopping = new AbortController();
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private lastEventId: string | undefined;
  private failures = 0;
  private current: LiveMode = "connecting";
  /** Why the last stream was refused, shown while polling (a 429 says so in its message). */
  private streamProblem: string | undefined;
  /**
   * The table's version of the state shown. States are shown in the table's order, not the order
   * answers arrive: a poll sent before an advance that answers after it, or a stream that resumes
   * behind a read, must not put an older state back on the screen.
   */
  private shownVersion = 0;
  /** States shown so far: a read sent when this many were shown, and answered before another one, tells the table now. */
  private shows = 0;
  /** The last read of the state failed: its problem is shown until a read succeeds. */
  private readFailed = false;
  /** The browser says it is offline: an open stream may not know it yet (its silence ends it after IDLE_MS). */
  private offline = false;
  /** The open stream's connection, cut when the browser comes back online (it may be dead). */
  private connection: AbortController | undefined;

  constructor(
    private readonly tableId: number,
    private readonly handlers: FeedHandlers,
  ) {
    const options = { signal: this.stopping.signal };
    addEventListener("offline", () => this.wentOffline(), options);
    addEventListener("online", () => this.cameOnline(), options);
  }

  private wentOffline(): void {
    this.offline = true;
    this.readFailed = true;
    this.setMode(this.current, OFFLINE);
  }

  /** Reads the state at once and opens a new stream, rather than trust one that lived through it. */
  private cameOnline(): void {
    this.offline = false;
    this.connection?.abort();
    void this.refresh();
  }

  async run(): Promise<void> {
    this.setMode("connecting");
    await this.refresh();
    while (!this.stopped) {
      const end = await this.streamOnce().catch((error: unknown): StreamEnd => {
        this.streamProblem = `Live updates interrupted: ${describe(error)}`;
        return "failed";
      });
      if (this.stopped) return;
      this.startPolling();
      if (end === "unsupported") return;
      const delay = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)]!;
      this.failures += 1;
      await sleep(delay, this.stopping.signal);
    }
  }

  stop(): void {
    this.stopped = true;
    this.stopping.abort();
    this.stopPolling();
  }

  offer({ state, version }: VersionedState): void {
    if (this.stopped || version <= this.shownVersion) return;
    this.show(state, version);
  }

  private show(state: TableState, version: number): void {
    this.shownVersion = version;
    this.shows += 1;
    this.handlers.state(state);
  }

  async refresh(): Promise<void> {
    const shows = this.shows;
    try {
      const read = await unwrapState(
        api.GET("/api/tables/{tableId}/state", { params: { path: { tableId: this.tableId } } }),
      );
      // A read sent after the state shown, and answered before any other was shown, is the table now,
      // even below the version shown: the table's versions went back (restored from a backup). Else
      // the version decides, as for every state.
      if (shows === this.shows && read.version < this.shownVersion && !this.stopped)
        this.show(read.state, read.version);
      else this.offer(read);
      if (this.readFailed && !this.stopped) {
        // The table answers again: its problem is over (a refused stream's stays while polling).
        this.readFailed = false;
        this.setMode(this.current, this.current === "polling" ? this.streamProblem : undefined);
      }
    } catch (error) {
      if (this.stopped) return;
      this.readFailed = true;
      // No such table, or not this player's: asking again every 2 s would only say so again.
      const status = error instanceof ApiError ? error.status : 0;
      if (status === 404 || status === 403) {
        this.setMode("closed", describe(error), status);
        this.stop();
        return;
      }
      this.setMode(this.current, describe(error));
    }
  }

  private setMode(mode: LiveMode, problem?: string, refused?: 403 | 404): void {
    this.current = mode;
    // While the stream is open its events bring every change, whatever a single read did, unless
    // the browser is offline, when the stream may be dead without knowing it.
    const stale = this.offline || (this.readFailed && mode !== "live");
    this.handlers.status({ mode, stale, ...(problem ? { problem } : {}), ...(refused ? { refused } : {}) });
  }

  private startPolling(): void {
    if (this.pollTimer !== undefined || this.stopped) return;
    this.setMode("polling", this.streamProblem);
    this.pollTimer = setInterval(() => void this.refresh(), POLL_MS);
  }

  private stopPolling(): void {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** One connection, until it ends or fails. */
  private async streamOnce(): Promise<StreamEnd> {
    const connection = new AbortController();
    this.connection = connection;
    const abort = () => connection.abort();
    this.stopping.signal.addEventListener("abort", abort);
    try {
      const headers: Record<string, string> = { Accept: "text/event-stream", ...authorization() };
      if (this.lastEventId !== undefined) headers["Last-Event-ID"] = this.lastEventId;
      const response = await fetch(`/api/tables/${this.tableId}/events`, {
        headers,
        cache: "no-store",
        signal: connection.signal,
      });
      if (response.status === 404 || response.status === 405 || response.status === 501) return "unsupported";
      const type = response.headers.get("content-type") ?? "";
      if (!response.ok || !response.body || !type.startsWith("text/event-stream")) {
        const body: unknown = await response.json().catch(() => undefined);
        this.streamProblem = `Live updates unavailable: ${errorMessage(response.status, body)}`;
        return "failed";
      }
      this.stopPolling();
      this.failures = 0;
      this.streamProblem = undefined;
      this.setMode("live");
      await this.read(response.body, connection);
      return "ended";
    } finally {
      this.stopping.signal.removeEventListener("abort", abort);
      connection.abort();
    }
  }

  private async read(body: ReadableStream<Uint8Array>, connection: AbortController): Promise<void> {
    const parser = createParser({
      onEvent: (event) => {
        if (event.event !== "state") return;
        if (event.id !== undefined) this.lastEventId = event.id;
        try {
          const version = tableVersion(event.id);
          if (version === undefined) throw new Error(`an event without a version: ${event.id}`);
          this.offer({ state: JSON.parse(event.data) as TableState, version });
          // The state shown is current again: a read that failed before says nothing of it now.
          if (!this.offline) this.readFailed = false;
        } catch {
          this.setMode("live", "A table update could not be read.");
        }
      },
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let idle = setTimeout(() => connection.abort(), IDLE_MS);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || this.stopped) return;
        clearTimeout(idle);
        idle = setTimeout(() => connection.abort(), IDLE_MS);
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } finally {
      clearTimeout(idle);
      reader.releaseLock();
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
