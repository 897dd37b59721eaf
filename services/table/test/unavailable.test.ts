// The database goes away: health says NOT_SERVING and every RPC answers UNAVAILABLE (a 503 at the
// gateway), never an internal error; when it is back, the service serves again by itself.
import { status } from "@grpc/grpc-js";
import anyTest, { type TestFn } from "ava";
import { statusOf, waitForHealth } from "../../../test/helpers/grpc-services.js";
import { admin, balanceOf, newPlayer, startTableCluster, type TableCluster } from "./helpers/table-cluster.js";

const test = anyTest as TestFn<TableCluster>;

test.before(async (t) => {
  t.context = await startTableCluster();
});
test.after.always(async (t) => {
  await t.context.stop?.();
});

test("UNAVAILABLE while the database is down, serving again once it is back", async (t) => {
  const cluster = t.context;
  const caller = await newPlayer(cluster, "patient");
  const table = cluster.table();
  await table.sit({ caller, tableId: 1, buyInCents: 1_000, idempotencyKey: "s" });

  await cluster.stopDatabase();
  await waitForHealth("table", cluster.replicas[0]!.port, "NOT_SERVING");
  t.is(await statusOf(table.getState({ caller: admin(), tableId: 1 })), status.UNAVAILABLE);
  t.is(await statusOf(table.listTables({})), status.UNAVAILABLE);
  t.is(await statusOf(table.leave({ caller, tableId: 1, idempotencyKey: "l" })), status.UNAVAILABLE);
  t.is(await statusOf(table.audit({ caller: admin() })), status.UNAVAILABLE);

  await cluster.startDatabase();
  await waitForHealth("table", cluster.replicas[0]!.port, "SERVING");
  // The same leave, retried with its key once the database is back, completes once.
  t.like(await table.leave({ caller, tableId: 1, idempotencyKey: "l" }), { creditsReturnedCents: 1_000 });
  t.is(await balanceOf(cluster, "patient"), 100_000);
});
