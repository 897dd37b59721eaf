import { createServer, type RequestListener, type Server } from "node:http";
import type { Socket } from "node:net";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { envPort, envString } from "./config.js";
import { ConnectionsPerAddress } from "./connections-per-address.js";
import type { Logger } from "./logger.js";

/** One registry per process, served on the admin port for Prometheus to scrape. */
const registry = new Registry();
collectDefaultMetrics({ register: registry });

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const rpcHandled = new Histogram({
  name: "grpc_server_handling_seconds",
  help: "gRPC calls handled, by method and status code",
  labelNames: ["rpc", "code"] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const httpHandled = new Histogram({
  name: "http_server_request_duration_seconds",
  help: "HTTP requests answered, by route and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export function counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
  return new Counter({ name, help, labelNames, registers: [registry] });
}

export function gauge(name: string, help: string): Gauge {
  return new Gauge({ name, help, registers: [registry] });
}

/**
 * The metrics port's bounds. Prometheus scrapes over one connection and a liveness probe opens one
 * at a time, so a few per address are plenty; all addresses together hold a few MB of half-sent
 * requests at most. Node's defaults held a request whose headers never ended for up to 90 s, and any
 * number of them: 5,000 such connections, opened in a second, held 70 MB (one-off, the client's
 * sockets included).
 */
export const METRICS_CONNECTIONS_PER_ADDRESS = 8;
export const METRICS_MAX_CONNECTIONS = 256;
/** A scrape's request is one line and a few headers: it has this long to arrive. */
export const METRICS_HEADERS_TIMEOUT_MS = 5_000;

/** Where a process serves GET /metrics. */
export interface MetricsListen {
  port: number;
  host: string;
}

/** METRICS_PORT (each process has its own default) on METRICS_HOST (127.0.0.1; Kubernetes sets 0.0.0.0). */
export function readMetricsListen(
  defaultPort: number,
  env: Record<string, string | undefined> = process.env,
): MetricsListen {
  return { port: envPort("METRICS_PORT", defaultPort, env), host: envString("METRICS_HOST", "127.0.0.1", env) };
}

/** GET /metrics on its own port, apart from the traffic port, so it is never exposed with the API. */
export async function startMetricsServer(
  { port, host }: MetricsListen,
  logger: Logger,
): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer(
    {
      headersTimeout: METRICS_HEADERS_TIMEOUT_MS,
      requestTimeout: 2 * METRICS_HEADERS_TIMEOUT_MS,
      // Node looks for requests past those times every 30 s by default.
      connectionsCheckingInterval: 1_000,
    },
    serveMetrics(logger),
  );
  server.maxConnections = METRICS_MAX_CONNECTIONS;
  const perAddress = new ConnectionsPerAddress(METRICS_CONNECTIONS_PER_ADDRESS);
  server.on("connection", (socket: Socket) => perAddress.admit(socket) || socket.destroy());
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, host, resolve));
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  logger.info({ host, port: bound }, "metrics listening");
  return {
    port: bound,
    // Last in a shutdown: a scrape cut then is taken again from another process.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function serveMetrics(logger: Logger): RequestListener {
  return (request, response) => {
    if (request.method !== "GET" || request.url !== "/metrics") {
      response.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (body) => response.writeHead(200, { "content-type": registry.contentType }).end(body),
      (error: unknown) => {
        logger.error({ err: error }, "metrics collection failed");
        response.writeHead(500).end();
      },
    );
  };
}
