// The metrics port is reachable by whoever reaches the pod's network (Kubernetes' network policy lets
// in only the monitoring namespace): it caps each address's connections, closes one whose request
// never arrives, and serves the scrapes of other addresses meanwhile.
import test from "ava";
import { connect, type Socket } from "node:net";
import { pino } from "pino";
import { METRICS_CONNECTIONS_PER_ADDRESS, METRICS_HEADERS_TIMEOUT_MS, startMetricsServer } from "../src/metrics.js";
import { TIMED_OUT, within } from "../src/within.js";

async function openFrom(port: number, localAddress: string, first?: string): Promise<Socket> {
  const socket = connect({ port, host: "127.0.0.1", localAddress });
  socket.on("error", () => {});
  socket.resume();
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  if (first) socket.write(first);
  return socket;
}

const closed = (socket: Socket) =>
  socket.destroyed ? Promise.resolve() : new Promise<void>((resolve) => socket.once("close", () => resolve()));

/** Whether `done` settles within `ms`. */
const settlesWithin = async (done: Promise<unknown>, ms: number) => (await within(done, ms)) !== TIMED_OUT;

async function scrape(port: number, localAddress: string): Promise<string> {
  const socket = await openFrom(
    port,
    localAddress,
    "GET /metrics HTTP/1.1\r\nHost: metrics\r\nConnection: close\r\n\r\n",
  );
  let answer = "";
  socket.setEncoding("latin1").on("data", (chunk: string) => (answer += chunk));
  await closed(socket);
  return answer.slice(0, answer.indexOf("\r\n"));
}

test("one address's connections past the cap are closed; a request that never arrives is closed in time; other addresses are served", async (t) => {
  const metrics = await startMetricsServer(0, pino({ level: "silent" }), "0.0.0.0");
  const sockets: Socket[] = [];
  t.teardown(async () => {
    for (const socket of sockets) socket.destroy();
    await metrics.close();
  });
  // Requests begun and never finished, up to the cap.
  const started = performance.now();
  for (let n = 0; n < METRICS_CONNECTIONS_PER_ADDRESS; n++) {
    sockets.push(await openFrom(metrics.port, "127.0.0.1", "GET /metrics HTTP/1.1\r\nHost: metrics\r\n"));
  }
  const beyond = await openFrom(metrics.port, "127.0.0.1");
  sockets.push(beyond);
  t.true(await settlesWithin(closed(beyond), 2_000), "the connection past the cap is closed on arrival");
  t.is(await scrape(metrics.port, "127.0.0.2"), "HTTP/1.1 200 OK", "another address scrapes meanwhile");

  const held = sockets.slice(0, METRICS_CONNECTIONS_PER_ADDRESS);
  const allClosed = await settlesWithin(Promise.all(held.map(closed)), 4 * METRICS_HEADERS_TIMEOUT_MS);
  t.true(allClosed, "requests that never arrive are closed");
  t.true(performance.now() - started >= METRICS_HEADERS_TIMEOUT_MS * 0.9, "not before their time");
  t.is(await scrape(metrics.port, "127.0.0.1"), "HTTP/1.1 200 OK", "the address is served again");
});
