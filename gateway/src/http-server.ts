import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { ConnectionsPerAddress } from "@pokerodds/common/connections-per-address";
import { clientAddressKey, securityHeaderValues } from "./http/edge.js";
import { MOVE_OUTCOME_UNKNOWN, RETRY_AFTER_SECONDS } from "./http/errors.js";

interface RunningHttpServer {
  port: number;
  /**
   * Stops accepting and lets in-flight requests finish for up to graceMs; then answers each one that
   * has not begun its answer with a 503 (UNFINISHED_AT_CLOSE), and cuts what is left.
   */
  close(graceMs: number): Promise<void>;
}

/**
 * The answer to a request still in flight when the grace period ends: its call to a backend may have
 * been made (a money move's answer carries its Idempotency-Key, set before the call), so the client
 * is told what it may do rather than being cut without a word.
 */
export const UNFINISHED_AT_CLOSE =
  `this gateway is shutting down and did not finish the request. A money move: ${MOVE_OUTCOME_UNKNOWN}; ` +
  "an advance may have been made (read the table's state before sending it again); anything else may " +
  "simply be sent again";

/** How long the answers written at the end of the grace period have to leave before every connection is cut. */
const FLUSH_MS = 500;

/**
 * How long an answer may wait for its client to take more of it before the connection is cut (nginx's
 * send_timeout). Node has no write timeout: a client that stopped reading held each answer (104 KB
 * for the OpenAPI document) in this process's memory for as long as it kept the connection open (a
 * hunt held 1,000 of them, 100 MB, for as long as it pleased), and a batch's answer its slot of the
 * heavy-route cap with it.
 */
const SEND_TIMEOUT_MS = 60_000;

interface HttpServerOptions {
  port: number;
  host?: string;
  /**
   * Open connections at most (idle keep-alive ones included): beyond it a new one is closed as it
   * arrives, so a flood of sockets costs the clients already connected nothing and never exhausts
   * the process's file descriptors (which its gRPC connections need too). None when absent.
   */
  maxConnections?: number;
  /**
   * Open connections from one client address at most (IPv6 by its /56, as the rate limits count):
   * beyond it a new one from there is closed as it arrives, so one client cannot take every
   * connection of maxConnections. None when absent or 0.
   */
  maxConnectionsPerAddress?: number;
  /** Called for each connection dropped at a cap: the whole server's, or one address's. */
  onDrop?: (cap: ConnectionCap) => void;
  /** SEND_TIMEOUT_MS unless given (tests). */
  sendTimeoutMs?: number;
  /** HEADERS_TIMEOUT_MS unless given (tests). */
  headersTimeoutMs?: number;
}

/** How long a request's headers and the whole request may take to arrive. */
const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 30_000;

export type ConnectionCap = "total" | "address";

export async function startHttpServer(
  handler: RequestListener,
  options: HttpServerOptions,
): Promise<RunningHttpServer> {
  let closing = false;
  const server = createServer({
    // Node's 300 s lets a slow client hold a socket for minutes; no request here needs 30 s to arrive.
    requestTimeout: REQUEST_TIMEOUT_MS,
    headersTimeout: options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
    // Node checks both timeouts only this often (30 s by default): headers that never end were cut
    // after up to 45 s and a dripped body after up to 60 s, each holding its connection's place.
    connectionsCheckingInterval: 1_000,
    // Longer than the 60 s idle timeout of common load balancers, so they never reuse a socket we closed.
    keepAliveTimeout: 65_000,
    // Checked below instead, to answer the 400 as JSON like every other refusal.
    requireHostHeader: false,
  });
  if (options.maxConnections !== undefined) server.maxConnections = options.maxConnections;
  const onDrop = options.onDrop ?? (() => {});
  server.on("drop", () => onDrop("total"));
  if (options.maxConnectionsPerAddress) capPerAddress(server, options.maxConnectionsPerAddress, onDrop);
  // Node answers a request it cannot parse (headers over 16 KiB, a malformed request line, a request
  // too slow to arrive) before Express sees it, with an empty body: the same answers as JSON here.
  server.on("clientError", answerClientError);
  // The same for what Node would answer with an empty body or not at all.
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) =>
    turnsOf(req.socket).refuse(res, 417, "only Expect: 100-continue is supported"),
  );
  server.on("connect", (_req, socket: Socket) => answerRaw(socket, 405, "CONNECT is not supported"));
  // Event streams (text/event-stream) never finish by themselves: close() ends them at once, and
  // their clients reconnect with Last-Event-ID (to another gateway), rather than being cut when
  // the grace period is over. Node's requestTimeout bounds receiving a request, not answering it,
  // so it never cuts a stream; the streams bound their own length (EVENTS_MAX_STREAM_SECONDS).
  const inFlight = new Set<ServerResponse>();
  server.on("request", (req, res) => {
    const turns = turnsOf(req.socket);
    // Pipelined behind a refusal that closes the connection: never handled, as it is never answered.
    if (turns.refused) return;
    if (req.httpVersion === "1.1" && req.headers.host === undefined) {
      turns.refuse(res, 400, "an HTTP/1.1 request needs a Host header");
      return;
    }
    if (closing) res.setHeader("Connection", "close");
    // A keep-alive socket whose request was in flight at close() stays open until it times out:
    // close it as soon as its response is done.
    res.on("finish", () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    // In flight from its turn on: on Node 20 a response pipelined behind others never closes if its
    // socket is cut first, so one held here from its arrival was held for good.
    const handle = () => {
      inFlight.add(res);
      res.once("close", () => inFlight.delete(res));
      // Once the answer is all written (an event stream cuts itself from its first piece: events.ts).
      res.once("prefinish", () => cutWhenStalled(res, options.sendTimeoutMs ?? SEND_TIMEOUT_MS));
      handler(req, res);
    };
    if (!turns.enter(res, handle)) req.socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });

  return {
    port: (server.address() as AddressInfo).port,
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        closing = true;
        for (const res of inFlight) if (isEventStream(res)) res.end();
        let cut: NodeJS.Timeout | undefined;
        const timer = setTimeout(() => {
          answerUnfinished(inFlight);
          cut = setTimeout(() => server.closeAllConnections(), FLUSH_MS);
        }, graceMs);
        server.close(() => {
          clearTimeout(timer);
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/**
 * The end of the grace period: each request whose answer has not begun is answered 503
 * (UNFINISHED_AT_CLOSE), and nothing pipelined behind it on its connection is handled (it would be
 * begun, and its answer never sent). Answers already begun are cut with the connections.
 */
function answerUnfinished(inFlight: Iterable<ServerResponse>): void {
  for (const res of inFlight) {
    if (res.headersSent) continue;
    if (res.socket) turnsOf(res.socket).endAfterCurrent();
    res.answeredAtClose = true;
    answerAndClose(res, 503, UNFINISHED_AT_CLOSE, { "Retry-After": String(RETRY_AFTER_SECONDS) });
  }
}

/**
 * Cuts the connection of an answer once nothing of it has left for the client in `ms` (it stopped
 * reading): its unsent pieces in this process's memory are dropped. All sent, the connection is
 * Node's again (its keep-alive timer), and its next request's. The socket's timer counts time
 * without a write too: a connection with nothing waiting to leave is only idle (an event stream
 * whose heartbeat ran late behind a busy event loop was cut), and stays; its next write starts the
 * timer again. Handled on the response, so that Node does not destroy the socket itself.
 */
export function cutWhenStalled(res: ServerResponse, ms: number): void {
  const socket = res.socket;
  if (!socket) return;
  const cut = () => {
    if (res.writableLength > 0) socket.destroy();
  };
  res.setTimeout(ms, cut);
  res.once("finish", () => res.off("timeout", cut));
}

/** Closes a new connection from an address that holds `max` already (its count kept until each closes). */
function capPerAddress(server: Server, max: number, onDrop: (cap: ConnectionCap) => void): void {
  const perAddress = new ConnectionsPerAddress(max, clientAddressKey);
  server.on("connection", (socket: Socket) => {
    // A socket reset before this runs has no address any more: nothing to count or serve.
    if (socket.remoteAddress === undefined) {
      socket.destroy();
      return;
    }
    if (perAddress.admit(socket)) return;
    onDrop("address");
    socket.destroy();
  });
}

/** Requests pipelined on one socket that may wait for their turn; one more cuts the socket. */
const MAX_WAITING = 16;

/**
 * One socket's requests, handled one at a time. HTTP/1.1 answers leave a socket in request order, so
 * Node holds the answer of a request pipelined behind another in memory until that one is done.
 * Handled at once, a thousand requests pipelined behind an event stream (open up to 15 minutes) had
 * their answers, 100 KB each for the OpenAPI document, held that long: 50 KB sent held 145 MB. And
 * a batch's answer waiting there kept its slot of the heavy-route cap, so two players could hold
 * every slot. A waiting request is parsed but not handled: it costs its headers, no answer.
 */
class SocketTurns {
  private busy = false;
  /** A refusal that closes the connection is in line: nothing after it is handled. */
  refused = false;
  private readonly waiting: { res: ServerResponse; handle: () => void }[] = [];

  constructor(private readonly socket: Socket) {}

  /** Handles the request now, or once the answers before it are done; false when too many wait already. */
  enter(res: ServerResponse, handle: () => void): boolean {
    if (!this.busy) {
      this.start(res, handle);
      return true;
    }
    if (this.waiting.length >= MAX_WAITING) return false;
    this.waiting.push({ res, handle });
    return true;
  }

  /** No request waiting or yet to come is handled: the connection closes after the current answer. */
  endAfterCurrent(): void {
    this.refused = true;
    this.waiting.length = 0;
  }

  /** Answers `{ error }` in the request's turn and closes the connection; no later request is handled. */
  refuse(res: ServerResponse, status: number, message: string): void {
    this.refused = true;
    if (!this.enter(res, () => answerAndClose(res, status, message))) this.socket.destroy();
  }

  private start(res: ServerResponse, handle: () => void): void {
    this.busy = true;
    res.once("close", () => {
      this.busy = false;
      // The requests still waiting on a cut socket are never answered.
      if (this.socket.destroyed) {
        this.waiting.length = 0;
        return;
      }
      const next = this.waiting.shift();
      if (next) this.start(next.res, next.handle);
    });
    handle();
  }
}

const socketTurns = new WeakMap<Socket, SocketTurns>();

function turnsOf(socket: Socket): SocketTurns {
  let turns = socketTurns.get(socket);
  if (!turns) {
    turns = new SocketTurns(socket);
    socketTurns.set(socket, turns);
  }
  return turns;
}

const isEventStream = (res: ServerResponse) =>
  res.headersSent && String(res.getHeader("content-type") ?? "").startsWith("text/event-stream");

/** Node's parser errors, by code, as the status Node itself would answer. */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "request headers are too large (at most 16 KiB)"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "the request took too long to arrive"],
};

function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // Nothing to answer on a socket that is gone or already answering.
  if (error.code === "ECONNRESET" || !socket.writable || socket.bytesWritten > 0) {
    socket.destroy();
    return;
  }
  const [status, message] = CLIENT_ERRORS[error.code ?? ""] ?? [400, "malformed HTTP request"];
  answerRaw(socket, status, message);
}

// The security headers of every other answer too: these are answers of the API like any other.
const REFUSAL_HEADERS = {
  ...securityHeaderValues(),
  "Content-Type": "application/json; charset=utf-8",
  "Cache-Control": "no-store",
  Connection: "close",
};

/** A whole `{ error }` answer written to the socket, which is then closed: for what has no response. */
function answerRaw(socket: Socket, status: number, message: string): void {
  const body = JSON.stringify({ error: message });
  const headers = { ...REFUSAL_HEADERS, "Content-Length": Buffer.byteLength(body) };
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("") +
      "\r\n" +
      body,
  );
}

/**
 * The same answer through a request's response, which Node sends in its turn: one pipelined behind
 * another has no socket yet (writing to the socket directly threw, and the gateway exited).
 */
function answerAndClose(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ error: message });
  res.writeHead(status, { ...REFUSAL_HEADERS, ...headers, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}
