// The channel repeats a call after UNAVAILABLE only for the methods declared safe to repeat.
import { Server, ServerCredentials, status, type ServerUnaryCall, type sendUnaryData } from "@grpc/grpc-js";
import test from "ava";
import {
  AdvanceResponse,
  GetStateResponse,
  TableServiceClient,
  TableServiceService,
} from "../src/generated/pokerodds/table/v1/table.js";
import { createClient } from "../src/grpc/client.js";

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
