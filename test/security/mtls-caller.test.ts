// The caller of a gRPC call is read from its connection's client certificate once per connection,
// not once per call (common/src/grpc/tls.ts, callerOf), and a connection's verdict never answers for
// another connection. Serial: the first counts every certificate read in this process.
import { status } from "@grpc/grpc-js";
import { createClient } from "@pokerodds/common";
import { DealRequest, OddsServiceClient, OddsServiceService } from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import test from "ava";
import { TLSSocket } from "node:tls";
import { statusOf } from "../helpers/grpc-services.js";
import { startOddsStub, STUB_GAME_ID } from "../helpers/odds-stub.js";
import { tlsAs } from "../helpers/pki.js";

const DEAL = DealRequest.fromPartial({ numberOfHands: 2 });

/** Counts the peer certificates read from any TLS socket of this process while `work` runs. */
async function certificateReads(work: () => Promise<void>): Promise<number> {
  const original = TLSSocket.prototype.getPeerCertificate;
  let reads = 0;
  TLSSocket.prototype.getPeerCertificate = function (this: TLSSocket, ...args: [detailed?: boolean]) {
    reads++;
    return original.apply(this, args as [true]);
  } as typeof original;
  try {
    await work();
  } finally {
    TLSSocket.prototype.getPeerCertificate = original;
  }
  return reads;
}

const clientAs = (identity: "gateway" | "wallet", port: number) =>
  createClient(OddsServiceClient, Object.keys(OddsServiceService), `127.0.0.1:${port}`, {
    defaultDeadlineMs: 5_000,
    tls: tlsAs(identity),
  });

test.serial(
  "one connection's calls read its client certificate once, and each connection keeps its own verdict",
  async (t) => {
    const server = await startOddsStub({ port: 0 });
    const gateway = clientAs("gateway", server.port);
    const wallet = clientAs("wallet", server.port);
    try {
      // Connect both first: the TLS handshakes read certificates too (the client reads the server's).
      await gateway.call.deal(DEAL);
      t.is(await statusOf(wallet.call.deal(DEAL)), status.PERMISSION_DENIED);
      const reads = await certificateReads(async () => {
        for (let round = 0; round < 20; round++) {
          // Interleaved on two connections: an allowed caller and one the policy refuses.
          t.is((await gateway.call.deal(DEAL)).gameId, STUB_GAME_ID);
          t.is(await statusOf(wallet.call.deal(DEAL)), status.PERMISSION_DENIED);
        }
      });
      // Per call it would be 40 (grpc-js reads it anew for every getAuthContext()).
      t.is(reads, 0);
    } finally {
      gateway.raw.close();
      wallet.raw.close();
      await server.shutdown(0);
    }
  },
);

test.serial("a new connection's caller is read from its own certificate", async (t) => {
  const server = await startOddsStub({ port: 0 });
  try {
    for (const [identity, expected] of [
      ["wallet", status.PERMISSION_DENIED],
      ["gateway", undefined],
      ["wallet", status.PERMISSION_DENIED],
    ] as const) {
      const client = clientAs(identity, server.port);
      try {
        t.is(await statusOf(client.call.deal(DEAL).then(() => undefined)), expected, identity);
      } finally {
        client.raw.close();
      }
    }
  } finally {
    await server.shutdown(0);
  }
});
