// The table service caps the WatchTable and ExportGames streams one client address holds open
// (TABLE_MAX_STREAMS_PER_ADDRESS; common/src/grpc/stream.ts): a holder of the gateway's certificate
// opened 5,000 WatchTable streams it never read, and the table service's memory went from 97 to
// 342 MB. Here, with a cap of 2: a third stream from the gateway's address, opened directly with the
// gateway's certificate, is refused RESOURCE_EXHAUSTED before it starts; the gateway, whose table
// feeds are streams from that address too, answers an event stream it cannot follow with a 429.
import { status, type ServiceError } from "@grpc/grpc-js";
import { createClient, openServerStream } from "@pokerodds/common";
import { TableServiceClient, TableServiceService } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { Role } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { ensurePki } from "@pokerodds/launcher/pki";
import test from "ava";
import { join } from "node:path";
import { Api } from "../helpers/api.js";
import { openSse, type SseStream } from "../helpers/sse.js";
import { stackPerFile } from "../helpers/stack.js";

const file = stackPerFile(test, { env: { TABLE_MAX_STREAMS_PER_ADDRESS: "2" } });

test("an address past its cap of table streams is refused, directly and through the gateway's event streams", async (t) => {
  const stack = await file.ready;
  const api = new Api(stack.url, stack.dataDir);
  const player = await api.player("stream-cap");
  await player.balance();
  const events = (tableId: number) => openSse(`${stack.url}/api/tables/${tableId}/events`, player.token);
  const table = createClient(
    TableServiceClient,
    Object.keys(TableServiceService),
    stack.grpcAddresses.table,
    // The gateway's own certificate: the one caller WatchTable admits.
    { defaultDeadlineMs: 5_000, tls: (await ensurePki(join(stack.dataDir, "pki"))).files.gateway },
  );
  const streams: SseStream[] = [];
  const cancel = new AbortController();
  try {
    // The gateway follows tables 1 and 2: the address's two streams.
    for (const tableId of [1, 2]) {
      streams.push(await events(tableId));
      t.is(streams.at(-1)!.status, 200);
    }
    const direct = openServerStream(
      TableServiceClient.service.watchTable.path,
      (metadata) =>
        table.raw.watchTable(
          {
            tableId: 3,
            afterVersion: 0,
            recentVersions: 0,
            caller: { playerId: player.id, role: Role.ROLE_BASIC_USER },
          },
          metadata,
        ),
      { signal: cancel.signal },
    );
    const refused = await t.throwsAsync<ServiceError>(direct.accepted);
    t.is(refused?.code, status.RESOURCE_EXHAUSTED);
    t.regex(refused?.details ?? "", /too many streams open from this address/);

    const third = await events(3);
    streams.push(third);
    t.is(third.status, 429, JSON.stringify(third.body));
    t.truthy(third.headers.get("retry-after"));
    t.deepEqual(Object.keys(third.body as object), ["error"]);
    // The streams already open go on.
    t.false(streams[0]!.endedByServer());
  } finally {
    cancel.abort();
    for (const stream of streams) stream.close();
    table.raw.close();
  }
});
