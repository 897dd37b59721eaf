// callEnded: a handler learns that its call ended (deadline passed, or the client cancelled it
// through its signal) and can stop.
import { Server, ServerCredentials } from "@grpc/grpc-js";
import test from "ava";
import { setTimeout as sleep } from "node:timers/promises";
import {
  GetStateResponse,
  TableServiceClient,
  TableServiceService,
} from "../src/generated/pokerodds/table/v1/table.js";
import { createClient } from "../src/grpc/client.js";
import { callEnded, unary } from "../src/grpc/handler.js";
import { createLogger } from "../src/logger.js";

/** A table service whose GetState works until its call ends, and reports when it stopped. */
async function patientServer() {
  const stopped: { reason: unknown; afterMs: number }[] = [];
  const server = new Server();
  server.addService(TableServiceService, {
    getState: unary(createLogger("test"), "GetState", async (_request, { call }) => {
      const started = Date.now();
      const signal = callEnded(call);
      // Work in steps, as the audits read: each step looks at the signal.
      for (let step = 0; step < 500; step++) {
        if (signal.aborted) {
          stopped.push({ reason: signal.reason, afterMs: Date.now() - started });
          throw signal.reason;
        }
        await sleep(10);
      }
      return GetStateResponse.fromPartial({});
    }),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  const client = createClient(TableServiceClient, ["getState"], `127.0.0.1:${port}`, { defaultDeadlineMs: 10_000 });
  return {
    client,
    stopped,
    stop: () => {
      client.raw.close();
      server.forceShutdown();
    },
  };
}

test("a handler's work stops soon after its call's deadline passes", async (t) => {
  const server = await patientServer();
  try {
    await t.throwsAsync(server.client.call.getState({ tableId: 1 }, { deadlineMs: 300 }), { message: /DEADLINE/ });
    while (server.stopped.length === 0) await sleep(10);
    // The work takes 5 s at least: stopped in under half of that, with room for a busy machine.
    t.true(server.stopped[0]!.afterMs < 2_500, `stopped after ${server.stopped[0]!.afterMs} ms, not 5 s`);
    t.regex(String(server.stopped[0]!.reason), /call ended/);
  } finally {
    server.stop();
  }
});

test("a call whose signal aborts is cancelled, and its handler's work stops soon after", async (t) => {
  const server = await patientServer();
  try {
    await t.throwsAsync(server.client.call.getState({ tableId: 1 }, { signal: AbortSignal.timeout(200) }), {
      message: /CANCELLED/,
    });
    while (server.stopped.length === 0) await sleep(10);
    t.true(server.stopped[0]!.afterMs < 2_500, `stopped after ${server.stopped[0]!.afterMs} ms, not 5 s`);
  } finally {
    server.stop();
  }
});
