// A call made for a server call ends before that call's deadline, so that the server answers with
// what failed. When both ended together, a leave whose wallet credit hung reached the player as
// "table service unavailable", though the table knew it was the wallet.
import { Server, ServerCredentials, status, type ServerUnaryCall } from "@grpc/grpc-js";
import test from "ava";
import { TableServiceClient, TableServiceService } from "../src/generated/pokerodds/table/v1/table.js";
import { UnavailableError } from "../src/errors.js";
import { createClient } from "../src/grpc/client.js";
import { unary } from "../src/grpc/handler.js";
import { isServiceError } from "../src/grpc/status.js";
import { createLogger } from "../src/logger.js";

async function serve(getState: Parameters<typeof unary>[2]) {
  const server = new Server();
  server.addService(TableServiceService, { getState: unary(createLogger("test"), "GetState", getState) });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { address: `127.0.0.1:${port}`, stop: () => server.forceShutdown() };
}

test("a dependency that hangs is named by the server before its caller's deadline passes", async (t) => {
  const hanging = await serve(() => new Promise(() => undefined));
  const dependency = createClient(TableServiceClient, ["getState"], hanging.address, { defaultDeadlineMs: 60_000 });
  const front = await serve(async (request, { call }) => {
    try {
      return await dependency.call.getState(request as { tableId: number }, {
        parent: call as ServerUnaryCall<unknown, unknown>,
      });
    } catch (error) {
      if (isServiceError(error) && error.code === status.DEADLINE_EXCEEDED) {
        throw new UnavailableError("the dependency is unavailable", { cause: error });
      }
      throw error;
    }
  });
  const client = createClient(TableServiceClient, ["getState"], front.address, { defaultDeadlineMs: 2_000 });
  t.teardown(() => {
    for (const c of [client, dependency]) c.raw.close();
    front.stop();
    hanging.stop();
  });
  // The server's own answer, not the client's expired deadline: it came first.
  const error = await t.throwsAsync(client.call.getState({ tableId: 1 }));
  t.like(error, { code: status.UNAVAILABLE, details: "the dependency is unavailable" });
});
