import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";

export interface RunningHttpServer {
  port: number;
  /** Stops accepting, lets in-flight requests finish for up to graceMs, then cuts what is left. */
  close(graceMs: number): Promise<void>;
}

export async function startHttpServer(
  handler: RequestListener,
  options: { port: number; host?: string },
): Promise<RunningHttpServer> {
  let closing = false;
  const server = createServer({
    // Node's 300 s lets a slow client hold a socket for minutes; no request here needs 30 s to arrive.
    requestTimeout: 30_000,
    headersTimeout: 15_000,
    // Longer than the 60 s idle timeout of common load balancers, so they never reuse a socket we closed.
    keepAliveTimeout: 65_000,
  });
  server.on("request", (req, res) => {
    if (closing) res.setHeader("Connection", "close");
    // A keep-alive socket whose request was in flight at close() stays open until it times out:
    // close it as soon as its response is done.
    res.on("finish", () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    handler(req, res);
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
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
