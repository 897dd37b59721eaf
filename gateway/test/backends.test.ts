// The real clients against a stub table service that is UNAVAILABLE on each RPC's first call: calls
// that are safe to repeat are retried by the channel, Advance never is.
import { status } from "@grpc/grpc-js";
import { startGrpcServer, unary, UnavailableError } from "@pokerodds/common";
import {
  GameState,
  TableServiceService,
  type AdvanceResponse,
  type SitResponse,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import test from "ava";
import { connectBackends } from "../src/backends.js";
import { silentLogger } from "./helpers/app.js";
import { sitResponse, tableState } from "./helpers/fixtures.js";

test("sit is retried after UNAVAILABLE; advance is not", async (t) => {
  const logger = silentLogger();
  const attempts = { Sit: 0, Advance: 0 };
  const flaky = <Res>(rpc: keyof typeof attempts, answer: Res) =>
    unary<unknown, Res>(logger, rpc, async () => {
      attempts[rpc] += 1;
      if (attempts[rpc] === 1) throw new UnavailableError("database unreachable");
      return answer;
    });
  const server = await startGrpcServer(
    {
      name: "pokerodds.table.v1.TableService",
      protoFile: "pokerodds/table/v1/table.proto",
      definition: TableServiceService,
      implementation: {
        sit: flaky<SitResponse>("Sit", sitResponse()),
        advance: flaky<AdvanceResponse>("Advance", { state: tableState(), version: 1 }),
      },
    },
    { host: "127.0.0.1", port: 0, logger },
  );
  const backends = connectBackends({
    oddsAddress: "127.0.0.1:1",
    walletAddress: "127.0.0.1:1",
    tableAddress: `127.0.0.1:${server.port}`,
  });
  t.teardown(async () => {
    backends.close();
    await server.shutdown(100);
  });

  const caller = { playerId: "player-1", role: 1 };
  const sat = await backends.table.sit({ caller, tableId: 7, buyInCents: 5025, idempotencyKey: "k-1" });
  t.deepEqual(sat, sitResponse());
  t.is(attempts.Sit, 2, "the channel repeated the keyed call");

  const error = await t.throwsAsync(backends.table.advance({ caller, tableId: 7 }));
  t.is((error as { code?: number }).code, status.UNAVAILABLE);
  t.is(attempts.Advance, 1, "advance went out once");
  const second = await backends.table.advance({ caller, tableId: 7 });
  t.is(second.state?.gameState, GameState.GAME_STATE_STATUS_FLOP);
  t.is(attempts.Advance, 2);
});
