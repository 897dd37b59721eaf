// The gRPC servers' own TCP listener, in front of grpc-js (its connection injector): grpc-js binds a
// listener of its own with no bound on connections, and 10,000 connections from one client that
// never began the TLS handshake held 146 MB of a service for Node's 120 s handshake timeout (now
// 10 s: tls.ts). Here the connections one client address holds open are capped as they arrive,
// before any handshake.
import type { Server, ServerCredentials } from "@grpc/grpc-js";
import { createServer, type Socket } from "node:net";
import { ConnectionsPerAddress } from "../connections-per-address.js";
import type { Logger } from "../logger.js";
import { counter } from "../metrics.js";

const refused = counter(
  "grpc_connections_refused_total",
  "Connections closed on arrival because their client address held GRPC_MAX_CONNECTIONS_PER_ADDRESS already",
);

/**
 * A service's callers are a few processes (gateways, table replicas, probes), each holding a few
 * connections to it (one per channel); a whole stack on one machine shares the address 127.0.0.1.
 */
export const DEFAULT_CONNECTIONS_PER_ADDRESS = 256;

/** A refusal is logged at most this often: a flood would otherwise write a line per connection. */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

export interface ListenerOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  /** Connections one client address may hold open at once (0: no cap). */
  connectionsPerAddress: number;
  logger: Logger;
}

export interface Listener {
  port: number;
  /**
   * Stops taking connections, and resolves once every connection it took has ended (grpc-js closes
   * them: tryShutdown once their calls are done, forceShutdown at once). A drain must wait for this:
   * on Node 24 grpc-js's tryShutdown of injected connections reports done while their calls still
   * run (the HTTP/2 server closes their sessions first, and an injector's server counts no
   * connections to wait for).
   */
  close(): Promise<void>;
  /** Ends the connections still open, those that never began their handshake included. */
  destroy(): void;
}

/** Serves `server`'s calls with `creds` on a listener that caps each client address's connections. */
export async function listenCapped(
  server: Server,
  creds: ServerCredentials,
  options: ListenerOptions,
): Promise<Listener> {
  const injector = server.createConnectionInjector(creds);
  const perAddress = new ConnectionsPerAddress(options.connectionsPerAddress);
  const open = new Set<Socket>();
  let lastLogged = -Infinity;
  const refuse = (socket: Socket, address: string) => {
    socket.destroy();
    refused.inc();
    if (performance.now() - lastLogged < REFUSAL_LOG_INTERVAL_MS) return;
    lastLogged = performance.now();
    options.logger.warn(
      { address, connectionsPerAddress: options.connectionsPerAddress },
      "gRPC connection cap of a client address reached: its new connections are closed",
    );
  };
  const listener = createServer((socket) => {
    // A socket reset before this runs has no address any more: nothing to count or serve.
    if (socket.remoteAddress === undefined) return socket.destroy();
    if (!perAddress.admit(socket)) return refuse(socket, socket.remoteAddress);
    open.add(socket);
    socket.once("close", () => open.delete(socket));
    injector.injectConnection(socket);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(options.port, options.host, () => {
      listener.off("error", reject);
      resolve();
    });
  });
  // A failed accept (out of file descriptors) is the listener's error; the connections open go on.
  listener.on("error", (error) => options.logger.error({ err: error }, "gRPC listener error"));
  const address = listener.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    close: () => new Promise((resolve) => listener.close(() => resolve())),
    destroy: () => {
      for (const socket of open) socket.destroy();
    },
  };
}
