// The channel repeats a call after UNAVAILABLE only for the methods declared safe to repeat, and
// tries a peer that is down again within a bounded time.
import { Server, ServerCredentials, status, type ServerUnaryCall, type sendUnaryData } from "@grpc/grpc-js";
import test from "ava";
import {
  AdvanceResponse,
  GetStateResponse,
  TableServiceClient,
  TableServiceService,
} from "../src/generated/pokerodds/table/v1/table.js";
import {
  createClient,
  KEEPALIVE_TIME_MS,
  KEEPALIVE_TIMEOUT_MS,
  MAX_RECONNECT_BACKOFF_MS,
  MIN_TIME_BETWEEN_LOOKUPS_MS,
} from "../src/grpc/client.js";
import { HealthChecker } from "../src/grpc/health.js";
import { HealthImplementation } from "grpc-health-check";
import dns from "node:dns";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";

/** A table service whose every method fails UNAVAILABLE on its first call, then answers. */
async function flakyServer() {
  const calls = new Map<string, number>();
  const flaky =
    <Res>(name: string, answer: Res) =>
    (_call: ServerUnaryCall<unknown, Res>, callback: sendUnaryData<Res>) => {
      const n = (calls.get(name) ?? 0) + 1;
      calls.set(name, n);
      if (n === 1) callback({ code: status.UNAVAILABLE, details: "first call fails" });
      else callback(null, answer);
    };
  const server = new Server();
  server.addService(TableServiceService, {
    getState: flaky("getState", GetStateResponse.fromPartial({})),
    advance: flaky("advance", AdvanceResponse.fromPartial({})),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { port, calls, stop: () => server.forceShutdown() };
}

test("only the methods named in retryUnavailable are repeated after UNAVAILABLE", async (t) => {
  const server = await flakyServer();
  const client = createClient(TableServiceClient, ["getState", "advance"], `127.0.0.1:${server.port}`, {
    defaultDeadlineMs: 5_000,
    retryUnavailable: ["getState"],
  });
  try {
    await t.notThrowsAsync(client.call.getState({ tableId: 1 }));
    t.is(server.calls.get("getState"), 2, "repeated once by the channel");
    await t.throwsAsync(client.call.advance({ tableId: 1 }), { message: /UNAVAILABLE|first call fails/ });
    t.is(server.calls.get("advance"), 1, "not repeated");
  } finally {
    client.raw.close();
    server.stop();
  }
});

test("a method the client does not have cannot be declared repeatable", (t) => {
  t.throws(
    () =>
      createClient(TableServiceClient, ["getState"], "127.0.0.1:1", {
        defaultDeadlineMs: 1,
        retryUnavailable: ["nope"],
      }),
    { message: /no method nope/ },
  );
});

test("a peer that is down is tried again at least every MAX_RECONNECT_BACKOFF_MS (and its jitter)", async (t) => {
  // A peer that takes every connection and drops it at once, counting the attempts.
  const attempts: number[] = [];
  const peer = createServer((socket) => {
    attempts.push(performance.now());
    socket.destroy();
  });
  await new Promise<void>((resolve) => peer.listen(0, "127.0.0.1", resolve));
  const { port } = peer.address() as AddressInfo;
  const client = createClient(TableServiceClient, ["getState"], `127.0.0.1:${port}`, { defaultDeadlineMs: 200 });
  const start = performance.now();
  // 20 s of calls, as traffic keeps coming during an outage. grpc-js's own backoff (1 s, x1.6 each
  // time, 20 % jitter) leaves a stretch of at least 5.2 s without an attempt within them.
  const WATCHED_MS = 20_000;
  try {
    while (performance.now() - start < WATCHED_MS) {
      await client.call.getState({ tableId: 1 }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    client.raw.close();
    peer.close();
  }
  const end = performance.now();
  const marks = [start, ...attempts, end];
  const longest = Math.max(...marks.slice(1).map((mark, i) => mark - marks[i]!));
  // 1.2 x the cap, and two seconds of slack for a busy machine's late timers (still short of 5.2 s).
  t.true(
    longest <= 1.2 * MAX_RECONNECT_BACKOFF_MS + 2_000,
    `${Math.round(longest)} ms without an attempt (${attempts.length} attempts in ${WATCHED_MS} ms)`,
  );
});

/** A table service on `host` whose GetState answers `version` (which replica answered), with grpc.health.v1. */
async function replicaAt(host: string, port: number, version: number) {
  const server = new Server();
  server.addService(TableServiceService, {
    getState: (_call: ServerUnaryCall<unknown, GetStateResponse>, callback: sendUnaryData<GetStateResponse>) =>
      callback(null, GetStateResponse.fromPartial({ version })),
  });
  new HealthImplementation({ "": "SERVING" }).addToServer(server);
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    ),
  );
  return { port: bound, stop: () => server.forceShutdown() };
}

/** Milliseconds until `reached` holds, tried every 100 ms, or null after 40 s. */
async function timeUntil(reached: () => Promise<boolean>): Promise<number | null> {
  const start = performance.now();
  while (performance.now() - start < 40_000) {
    if (await reached()) return performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

// A rolling update replaces a headless Service's pods by pods at new addresses. grpc-js looks the name
// up again when the addresses it knows stop answering, but by default at most every 30 s: a client
// (or the gateway's health check) whose every known pod was replaced within that time had nothing to
// call until then.
// Linux answers on all of 127.0.0.0/8 (the two replicas' addresses); CI runs there.
test("a target's name is looked up again within seconds once the addresses it gave stop answering", async (t) => {
  const old = await replicaAt("127.0.0.2", 0, 1);
  const replacement = await replicaAt("127.0.0.3", old.port, 2);
  let answer = "127.0.0.2";
  const lookup = dns.promises.lookup;
  dns.promises.lookup = (async (hostname: string, options: dns.LookupAllOptions) =>
    hostname === "pods.test" ? [{ address: answer, family: 4 }] : lookup(hostname, options)) as typeof lookup;
  const target = `dns:///pods.test:${old.port}`;
  const client = createClient(TableServiceClient, ["getState"], target, {
    defaultDeadlineMs: 500,
    retryUnavailable: ["getState"],
  });
  const health = new HealthChecker(target);
  try {
    t.is((await client.call.getState({ tableId: 1 })).version, 1);
    t.is(await health.check(), "SERVING");
    answer = "127.0.0.3";
    old.stop();
    const [called, checked] = await Promise.all([
      timeUntil(() =>
        client.call.getState({ tableId: 1 }).then(
          (response) => response.version === 2,
          () => false,
        ),
      ),
      timeUntil(async () => (await health.check("", 500)) === "SERVING"),
    ]);
    // The shortest time between lookups, the connection backoff's cap and its jitter, and slack.
    const bound = MIN_TIME_BETWEEN_LOOKUPS_MS + 1.2 * MAX_RECONNECT_BACKOFF_MS + 2_000;
    t.true(called !== null && called < bound, `calls reached the new address after ${called} ms`);
    t.true(checked !== null && checked < bound, `health checks reached it after ${checked} ms`);
  } finally {
    dns.promises.lookup = lookup;
    client.raw.close();
    health.close();
    replacement.stop();
  }
});

/**
 * A TCP proxy to 127.0.0.1:`port` that can freeze as a stopped process does: its connections stay
 * open, and the kernel takes new ones and holds what is sent, but nothing is read or answered.
 */
async function freezableProxy(port: number) {
  const sockets: Socket[] = [];
  let frozen = false;
  const proxy = createServer((client) => {
    const upstream = connect(port, "127.0.0.1");
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) {
      socket.on("error", () => {});
      if (frozen) socket.pause();
      sockets.push(socket);
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    port: (proxy.address() as AddressInfo).port,
    freeze() {
      frozen = true;
      for (const socket of sockets) {
        socket.unpipe();
        socket.pause();
      }
    },
    close() {
      for (const socket of sockets) socket.destroy();
      proxy.close();
    },
  };
}

// A replica frozen with its connections open (SIGSTOP, a paused VM) kept its share of round-robin's
// calls, each failing at its deadline, until a keepalive ping went unanswered: 30 s after the
// connection's first call, then grpc-js's 20 s timeout.
test("a frozen replica stops getting calls once a keepalive ping goes unanswered, within 20 s", async (t) => {
  const live = await replicaAt("127.0.0.1", 0, 1);
  const paused = await replicaAt("127.0.0.1", 0, 2);
  const proxy = await freezableProxy(paused.port);
  const client = createClient(TableServiceClient, ["getState"], `ipv4:127.0.0.1:${live.port},127.0.0.1:${proxy.port}`, {
    defaultDeadlineMs: 500,
  });
  try {
    const answeredBy = new Set<number>();
    for (let n = 0; n < 20 && answeredBy.size < 2; n++)
      answeredBy.add((await client.call.getState({ tableId: 1 })).version);
    t.deepEqual([...answeredBy].sort(), [1, 2], "both replicas take calls before the freeze");
    // The connection's first call started its keepalive timer just now.
    proxy.freeze();
    const start = performance.now();
    let inARow = 0;
    let recovered: number | null = null;
    while (recovered === null && performance.now() - start < 60_000) {
      const answered = await client.call.getState({ tableId: 1 }).then(
        () => true,
        () => false,
      );
      inARow = answered ? inARow + 1 : 0;
      // Twenty calls in a row answered: round-robin no longer picks the frozen replica.
      if (inARow === 20) recovered = performance.now() - start;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The ping's interval and timeout, and 10 s of slack for a loaded machine: the 50 s it took is out.
    const bound = KEEPALIVE_TIME_MS + KEEPALIVE_TIMEOUT_MS + 10_000;
    t.true(recovered !== null && recovered < bound, `calls stopped failing ${recovered} ms after the freeze`);
  } finally {
    client.raw.close();
    proxy.close();
    live.stop();
    paused.stop();
  }
});

/** A server with grpc.health.v1 alone, reporting `serving` for the whole server. */
async function healthOnly(serving: "SERVING" | "NOT_SERVING") {
  const server = new Server();
  new HealthImplementation({ "": serving }).addToServer(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    ),
  );
  return { address: `127.0.0.1:${port}`, stop: () => server.forceShutdown() };
}

// A pick-first channel asked the first replica alone: while it drained (or had lost its database),
// the service was reported down though another served every call.
test("a service is serving while any of its replicas serves, and not serving when none does", async (t) => {
  const draining = await healthOnly("NOT_SERVING");
  const serving = await healthOnly("SERVING");
  const alsoDraining = await healthOnly("NOT_SERVING");
  const oneServes = new HealthChecker(`ipv4:${draining.address},${serving.address}`);
  const noneServes = new HealthChecker(`ipv4:${draining.address},${alsoDraining.address}`);
  try {
    for (let n = 0; n < 5; n++) t.is(await oneServes.check("", 2_000), "SERVING");
    t.is(await noneServes.check("", 2_000), "NOT_SERVING");
  } finally {
    oneServes.close();
    noneServes.close();
    for (const server of [draining, serving, alsoDraining]) server.stop();
  }
});
