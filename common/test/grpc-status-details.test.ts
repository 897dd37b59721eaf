// A domain error's message goes to its caller as the status details, cut to a bounded length. Some
// messages quote what the caller sent (a ledger reason they refuse): with a 1 MB quote the status
// never reached its caller, which waited out its deadline, and every other call on the connection
// waited with it (a hunt, against the wallet's Debit).
import { Server, ServerCredentials, status } from "@grpc/grpc-js";
import test from "ava";
import {
  GetStateResponse,
  TableServiceClient,
  TableServiceService,
} from "../src/generated/pokerodds/table/v1/table.js";
import { InvalidArgumentError } from "../src/errors.js";
import { createClient } from "../src/grpc/client.js";
import { unary } from "../src/grpc/handler.js";
import { createLogger } from "../src/logger.js";

const QUOTED = 1024 * 1024;

/** A table service whose GetState refuses table 1 with a message quoting a megabyte, and answers any other. */
async function quotingServer() {
  const server = new Server();
  server.addService(TableServiceService, {
    getState: unary(createLogger("test"), "GetState", async (request: { tableId: number }) => {
      if (request.tableId === 1) throw new InvalidArgumentError(`no such table: ${"x".repeat(QUOTED)}`);
      return GetStateResponse.fromPartial({ version: request.tableId });
    }),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  const client = createClient(TableServiceClient, ["getState"], `127.0.0.1:${port}`, { defaultDeadlineMs: 5_000 });
  return {
    client,
    stop: () => {
      client.raw.close();
      server.forceShutdown();
    },
  };
}

test("a refusal quoting a megabyte reaches its caller at once, its message cut, and other calls go on", async (t) => {
  const { client, stop } = await quotingServer();
  try {
    const [refused, answered] = await Promise.allSettled([
      client.call.getState({ tableId: 1 }),
      client.call.getState({ tableId: 2 }),
    ]);
    t.is(refused.status, "rejected");
    const error = (refused as PromiseRejectedResult).reason as { code: number; details: string };
    t.is(error.code, status.INVALID_ARGUMENT);
    t.true(error.details.startsWith("no such table: xxx"));
    t.true(error.details.endsWith(`(${QUOTED + "no such table: ".length} characters)`), error.details.slice(-60));
    t.true(error.details.length < 1_100);
    t.like(answered, { status: "fulfilled", value: { version: 2 } });
  } finally {
    stop();
  }
});
