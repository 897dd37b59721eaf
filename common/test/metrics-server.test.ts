// The metrics port is reachable by whoever reaches the pod's network (Kubernetes' network policy lets
// in only the monitoring namespace): it caps each address's connections, closes one whose request
// never arrives, and serves the scrapes of other addresses meanwhile.
import test from "ava";
import { pino } from "pino";
import { METRICS_CONNECTIONS_PER_ADDRESS, METRICS_HEADERS_TIMEOUT_MS, startMetricsServer } from "../src/metrics.js";
import type { Socket } from "node:net";
import { closedWithin, rawConnection, socketClosed } from "../../test/helpers/raw-socket.js";
import { TIMED_OUT, within } from "../src/within.js";

async function scrape(port: number, from: string): Promise<string> {
  const socket = await rawConnection(port, {
    from,
    first: "GET /metrics HTTP/1.1\r\nHost: metrics\r\nConnection: close\r\n\r\n",
  });
  let answer = "";
  socket.setEncoding("latin1").on("data", (chunk: string) => (answer += chunk));
  await socketClosed(socket);
  return answer.slice(0, answer.indexOf("\r\n"));
}

test("one address's connections past the cap are closed; a request that never arrives is closed in time; other addresses are served", async (t) => {
  const metrics = await startMetricsServer({ port: 0, host: "0.0.0.0" }, pino({ level: "silent" }));
  const sockets: Socket[] = [];
  t.teardown(async () => {
    for (const socket of sockets) socket.destroy();
    await metrics.close();
  });
  // Requests begun and never finished, up to the cap.
  const started = performance.now();
  for (let n = 0; n < METRICS_CONNECTIONS_PER_ADDRESS; n++) {
    sockets.push(await rawConnection(metrics.port, { first: "GET /metrics HTTP/1.1\r\nHost: metrics\r\n" }));
  }
  const beyond = await rawConnection(metrics.port);
  sockets.push(beyond);
  t.true(await closedWithin(beyond, 2_000), "the connection past the cap is closed on arrival");
  t.is(await scrape(metrics.port, "127.0.0.2"), "HTTP/1.1 200 OK", "another address scrapes meanwhile");

  const held = sockets.slice(0, METRICS_CONNECTIONS_PER_ADDRESS);
  const allClosed = await within(Promise.all(held.map(socketClosed)), 4 * METRICS_HEADERS_TIMEOUT_MS);
  t.not(allClosed, TIMED_OUT, "requests that never arrive are closed");
  t.true(performance.now() - started >= METRICS_HEADERS_TIMEOUT_MS * 0.9, "not before their time");
  t.is(await scrape(metrics.port, "127.0.0.1"), "HTTP/1.1 200 OK", "the address is served again");
});
