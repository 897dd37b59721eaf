// A restore from a backup, as README "Backup and restore" tells an operator to make one, on the whole
// stack: the database copied while the stack was stopped, play going on, then the copy put back and
// the stack started with TABLE_RESTORED_FROM. The players have seen what the restore took back: the
// cards of the game in play, and the server seed of the game not dealt yet, revealed when it ended.
// After the restore neither is of use to them: the game in play is void with every stake back in its
// player's account, the undealt game has a new seed, the audit is clean, and a second start with the
// same name seals nothing again.
import test from "ava";
import { createHash } from "node:crypto";
import { cp, rm } from "node:fs/promises";
import { join } from "node:path";
import { Api, cents, show, type Player, type TableState } from "../helpers/api.js";
import { expectAck } from "../helpers/expect.js";
import { settledAudit } from "../helpers/money.js";
import { startTestStack, type TestStack } from "../helpers/stack.js";

const RESTORE = "drill-2026-12-05";
/** Owed credits (the void's refunds) are delivered by the first recovery pass, not 15 s later. */
const ENV = { TABLE_COUNT: "2", TABLE_RECOVERY_GRACE_MS: "0" };

const commitmentOf = (serverSeed: string) => createHash("sha256").update(Buffer.from(serverSeed, "hex")).digest("hex");

async function advanceTo(player: Player, tableId: number, gameState: string): Promise<TableState> {
  for (let i = 0; i < 6; i++) {
    const reply = await player.advance(tableId);
    if (reply.status !== 200) throw new Error(`advance of table ${tableId}: ${show(reply)}`);
    if (reply.body.gameState === gameState) return reply.body;
  }
  throw new Error(`table ${tableId} never reached ${gameState}`);
}

test("a restored stack voids the game in play, reseeds the undealt one, and stays clean", async (t) => {
  let stack: TestStack = await startTestStack({ env: ENV });
  const { dataDir } = stack;
  t.teardown(() => stack.stop());
  const backup = `${dataDir}-backup`;
  t.teardown(() => rm(backup, { recursive: true, force: true }));

  // Before the backup: table 1 at the flop with two bets, table 2 seated, its first game undealt.
  let api = new Api(stack.url, dataDir);
  const [alice, bob, carol] = await Promise.all(["alice", "bob", "carol"].map((id) => api.player(`restore-${id}`)));
  const admin = await api.player("restore-admin", "ADMIN");
  // The first profile read opens the account with its welcome credit.
  for (const player of [alice!, bob!, carol!]) await player.balance();
  for (const [player, tableId] of [
    [alice!, 1],
    [bob!, 1],
    [carol!, 2],
  ] as const) {
    expectAck(t, await player.sit(tableId, 100));
  }
  const hole = await advanceTo(alice!, 1, "STATUS_HOLE");
  const seatOf = (state: TableState, player: Player) => state.seats.find((s) => s.playerId === player.id)!.seatId;
  expectAck(t, await alice!.bet(1, { seatIndex: seatOf(hole, alice!), handIndex: 0, betAmount: 5 }));
  expectAck(t, await bob!.bet(1, { seatIndex: seatOf(hole, bob!), handIndex: 1, betAmount: 7 }));
  const flop = await advanceTo(alice!, 1, "STATUS_FLOP");
  const undealt = await carol!.readState(2);
  t.truthy(undealt.seedCommitment, "an undealt game is committed to its seed from its first stored version");
  const accountsAtBackup = await Promise.all([alice!, bob!, carol!].map((p) => p.balance()));

  await stack.stop({ keepData: true });
  await cp(join(dataDir, "db"), backup, { recursive: true });

  // After the backup: both games played to the river, so their cards and seeds are known.
  stack = await startTestStack({ env: ENV, dataDir });
  api = new Api(stack.url, dataDir);
  const played = await advanceTo(await api.player(alice!.id), 1, "STATUS_RIVER");
  t.is(played.gameId, flop.gameId);
  const dealtLater = await advanceTo(await api.player(carol!.id), 2, "STATUS_RIVER");
  t.is(dealtLater.gameId, undealt.gameId);
  t.is(undealt.seedCommitment, commitmentOf(dealtLater.serverSeed!), "table 2's seed, now known to its players");
  await stack.stop({ keepData: true });

  // The restore, and the start that seals every table.
  await rm(join(dataDir, "db"), { recursive: true });
  await cp(backup, join(dataDir, "db"), { recursive: true });
  stack = await startTestStack({ env: { ...ENV, TABLE_RESTORED_FROM: RESTORE }, dataDir });
  api = new Api(stack.url, dataDir);
  const reader = await api.player(admin.id, "ADMIN");

  const table1 = await reader.readState(1);
  t.like(table1, { gameState: "STATUS_SETUP", bets: [] }, "the game in play is void");
  t.not(table1.gameId, flop.gameId, "the next game waits to be dealt");
  t.deepEqual(
    table1.seats.map((s) => [s.playerId, cents(s.seatBalance)]),
    flop.seats.map((s) => [s.playerId, cents(s.seatBalance)]),
    "the seats are as at the backup",
  );
  const table2 = await reader.readState(2);
  t.is(table2.gameId, undealt.gameId, "the undealt game keeps its id");
  t.truthy(table2.seedCommitment);
  t.not(table2.seedCommitment, undealt.seedCommitment, "and is committed to a new seed, not the one revealed");

  const audit = await settledAudit(reader, 60_000);
  t.is(audit?.body.status, "clean", JSON.stringify(audit?.body));
  const accounts = await Promise.all([alice!, bob!, carol!].map(async (p) => (await api.player(p.id)).balance()));
  t.deepEqual(accounts, [accountsAtBackup[0]! + 500, accountsAtBackup[1]! + 700, accountsAtBackup[2]!], "stakes back");

  // Sealed once: a game dealt after the seal survives a restart under the same name.
  const dealt = await advanceTo(await api.player(alice!.id), 1, "STATUS_HOLE");
  await stack.stop({ keepData: true });
  stack = await startTestStack({ env: { ...ENV, TABLE_RESTORED_FROM: RESTORE }, dataDir });
  api = new Api(stack.url, dataDir);
  t.like(await (await api.player(admin.id, "ADMIN")).readState(1), { gameId: dealt.gameId, gameState: "STATUS_HOLE" });
});
