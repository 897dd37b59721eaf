// How snapshots are stored: as their JSON text (FerretDB converts every nested value it reads, so a
// sub-document snapshot costs several times more to read), while tables written as sub-documents by
// earlier versions keep being read and played on.
import { GameState } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import anyTest, { type TestFn } from "ava";
import { admin, moneyCheck, newPlayer, startTableCluster, type TableCluster } from "./helpers/table-cluster.js";

const test = anyTest as TestFn<TableCluster>;

test.before(async (t) => {
  t.context = await startTableCluster({ tables: 2 });
});
test.after.always(async (t) => {
  await t.context.stop?.();
});

interface StoredHead {
  _id: number;
  snapshot: unknown;
}

test("the head and the archive hold the snapshot as JSON text; an older sub-document head plays on", async (t) => {
  const cluster = t.context;
  const table = cluster.table();
  const caller = await newPlayer(cluster, "stored-format");
  t.like(await table.sit({ caller, tableId: 2, buyInCents: 5_000, idempotencyKey: "sit" }), { acknowledged: true });
  const hole = (await table.advance({ caller, tableId: 2 })).state!;
  const handIndex = hole.handOdds.find((p) => p.oddsTenths > 0)!.handIndex;
  const bet = { caller, tableId: 2, seatIndex: 1, handIndex, betAmountCents: 100, idempotencyKey: "b1" };
  t.like(await table.bet(bet), { acknowledged: true, updatedSeatBalanceCents: 4_900 });

  const heads = cluster.db.collection<StoredHead>("head_2");
  const [head] = await heads.find({}).toArray();
  t.is(typeof head!.snapshot, "string");
  const snapshot = JSON.parse(head!.snapshot as string) as { version: number; bets: { amountCents: number }[] };
  t.deepEqual(
    snapshot.bets.map((b) => b.amountCents),
    [100],
  );
  const archived = await cluster.db.collection("snapshots").findOne({ _id: `2:${snapshot.version}` as never });
  t.is(archived?.snapshot, head!.snapshot, "the archive holds the same text");

  // The head as an earlier version wrote it: the snapshot as a sub-document.
  await heads.deleteMany({});
  await heads.insertOne({ _id: snapshot.version, snapshot });
  const state = (await table.getState({ caller, tableId: 2 })).state!;
  t.is(state.gameState, GameState.GAME_STATE_STATUS_HOLE);
  t.is(state.seats[0]!.seatBalanceCents, 4_900);
  t.like(await table.bet({ ...bet, betAmountCents: 200, idempotencyKey: "b2" }), {
    acknowledged: true,
    updatedSeatBalanceCents: 4_700,
  });
  t.like(await table.bet(bet), { acknowledged: true, updatedSeatBalanceCents: 4_700 }, "the first bet replays");
  t.like(await table.leave({ caller, tableId: 2, idempotencyKey: "leave" }), { acknowledged: true });
  const check = await moneyCheck(cluster);
  t.true(check.conserved, JSON.stringify(check.detail));
  t.is((await table.audit({ caller: admin() })).openTransfers.length, 0);
});
