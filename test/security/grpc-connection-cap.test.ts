// A gRPC server caps the connections one client address holds open, counted as they arrive, before
// any TLS handshake (common/src/grpc/listener.ts): 10,000 connections that never began the
// handshake held 146 MB of a service for Node's 120 s handshake timeout (now 10 s). Other addresses, and the
// same address once it closes some, are served as before. Linux answers on all of 127.0.0.0/8,
// which gives this test a second client address; CI runs there.
import { status } from "@grpc/grpc-js";
import test from "ava";
import type { Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { statusOf } from "../helpers/grpc-services.js";
import { closedWithin, rawConnection } from "../helpers/raw-socket.js";
import { oddsStubClient, startOddsStub, STUB_GAME_ID } from "../helpers/odds-stub.js";

const CAP = 5;

test("one address's connections beyond the cap are closed on arrival; another address's are not", async (t) => {
  const server = await startOddsStub({ port: 0, connectionsPerAddress: CAP });
  const client = oddsStubClient(server.port, { defaultDeadlineMs: 2_000 });
  const sockets: Socket[] = [];
  try {
    // The client's one connection and CAP - 1 that never handshake: the address is at its cap.
    t.is((await client.deal()).gameId, STUB_GAME_ID);
    for (let n = 1; n < CAP; n++) sockets.push(await rawConnection(server.port));
    for (const socket of sockets) t.false(await closedWithin(socket, 200), "connections within the cap stay open");

    const beyond = await rawConnection(server.port);
    sockets.push(beyond);
    // Closed at once, where without a cap it would wait out the 10 s handshake timeout.
    t.true(await closedWithin(beyond, 5_000), "the connection beyond the cap is closed");
    const elsewhere = await rawConnection(server.port, { from: "127.0.0.2" });
    sockets.push(elsewhere);
    t.false(await closedWithin(elsewhere, 500), "another address has its own cap");

    // The calls on the connection already open go on.
    t.is((await client.deal()).gameId, STUB_GAME_ID);
    // A new channel from the full address cannot connect...
    const second = oddsStubClient(server.port, {
      defaultDeadlineMs: 1_000,
      // Its own connection, not the first client's (grpc-js shares one between channels of equal options).
      maxReceiveBytes: 1024 * 1024,
    });
    try {
      t.is(await statusOf(second.deal()), status.UNAVAILABLE);
      // ...until the address closes some of its connections.
      for (const socket of sockets.splice(0)) socket.destroy();
      let answered = false;
      for (const deadline = Date.now() + 10_000; !answered && Date.now() < deadline; await sleep(200)) {
        answered = await second.deal().then(
          () => true,
          () => false,
        );
      }
      t.true(answered, "a connection is taken again once the address is below its cap");
    } finally {
      second.raw.close();
    }
  } finally {
    for (const socket of sockets) socket.destroy();
    client.raw.close();
    await server.shutdown(0);
  }
});
