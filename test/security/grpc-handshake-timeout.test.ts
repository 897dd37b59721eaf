// A connection to a gRPC port must finish its TLS handshake, and one to the plaintext health port
// must make a call, within a handshake's time (common/src/grpc/tls.ts, server.ts); otherwise the
// server closes it. Before, Node's TLS default held one that never finished for 120 s, and the health
// port held one that sent nothing until its client closed it: anyone who reaches the ports could hold
// a service's memory that long with idle connections (up to the per-address cap, from each address).
// The callers' own connections, made and used, stay open past that time.
import { connectivityState, credentials } from "@grpc/grpc-js";
import { healthClient } from "@pokerodds/common/grpc/health";
import test from "ava";
import type { Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { oddsStubClient, startOddsStub, STUB_GAME_ID } from "../helpers/odds-stub.js";
import { rawConnection, socketClosed } from "../helpers/raw-socket.js";

const HANDSHAKE_TIMEOUT_MS = 500;
/** The start of a TLS ClientHello record: a handshake begun and never finished. */
const PART_OF_A_CLIENT_HELLO = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]);
/** The start of HTTP/2's connection preface: a plaintext connection begun and never finished. */
const PART_OF_THE_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n");

interface Stalled {
  socket: Socket;
  /** Milliseconds from just before the connection was asked for (the server's time for it starts later) until it closed. */
  closedAfter: Promise<number>;
}

/** A TCP connection that sends `first` (or nothing) and then nothing more; it reads what comes. */
async function stalledConnection(port: number, first?: Buffer): Promise<Stalled> {
  const openedAt = performance.now();
  const socket = await rawConnection(port, { first });
  return { socket, closedAfter: socketClosed(socket).then(() => performance.now() - openedAt) };
}

function check(port: number, client = healthClient(`127.0.0.1:${port}`, credentials.createInsecure())) {
  return new Promise<string | undefined>((resolve, reject) =>
    client.check({ service: "" }, { deadline: Date.now() + 3000 }, (error, response) =>
      error ? reject(error) : resolve(response?.status),
    ),
  );
}

test("connections that never finish their handshake, or never call the health port, are closed; callers' are not", async (t) => {
  const server = await startOddsStub({ port: 0, healthPort: 0, handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS });
  const client = oddsStubClient(server.port, { defaultDeadlineMs: 3_000 });
  server.setServing(true);
  const health = healthClient(`127.0.0.1:${server.healthPort}`, credentials.createInsecure());
  const stalled: Stalled[] = [];
  try {
    // The callers' connections are made and used first.
    t.is((await client.deal()).gameId, STUB_GAME_ID);
    t.is(await check(server.healthPort!, health), "SERVING");

    // Any change of the caller's channel from READY (its connection closed) is seen, even if it reconnects.
    const channel = client.raw.getChannel();
    let left: number | undefined;
    channel.watchConnectivityState(connectivityState.READY, Infinity, () => {
      left = channel.getConnectivityState(false);
    });
    stalled.push(
      await stalledConnection(server.port),
      await stalledConnection(server.port, PART_OF_A_CLIENT_HELLO),
      await stalledConnection(server.healthPort!),
      await stalledConnection(server.healthPort!, PART_OF_THE_PREFACE),
    );
    const stillOpen = sleep(10 * HANDSHAKE_TIMEOUT_MS).then(() => undefined);
    const closed = await Promise.all(stalled.map(({ closedAfter }) => Promise.race([closedAfter, stillOpen])));
    const [idleTls, begunTls, idleHealth, begunHealth] = closed;
    for (const [what, after] of Object.entries({ idleTls, begunTls, idleHealth, begunHealth })) {
      t.not(after, undefined, `${what}: closed`);
      t.true(after! >= HANDSHAKE_TIMEOUT_MS * 0.9, `${what}: not before its time (${after} ms)`);
    }

    // Past that time, the connection that handshook never left READY and answers on, and a probe's
    // new connection is served.
    t.is(left, undefined, "the caller's channel stayed READY");
    t.is((await client.deal()).gameId, STUB_GAME_ID);
    t.is(await check(server.healthPort!), "SERVING");
  } finally {
    for (const { socket } of stalled) socket.destroy();
    health.close();
    client.raw.close();
    await server.shutdown(1_000);
  }
});
