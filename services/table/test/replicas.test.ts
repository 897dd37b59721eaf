// Two table service processes on one database, as two replicas would run, with 16 operations at
// a time on one table (sits, top-ups, bets, advances, leaves, and duplicates of them sent to the
// other replica). Nothing a replica keeps in memory decides anything, so every guarantee must hold
// across them: afterwards each player's account holds exactly the welcome credit plus what their
// bets returned minus what they staked, and the books balance to the cent.
import { status } from "@grpc/grpc-js";
import type { Caller } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import anyTest, { type TestFn } from "ava";
import {
  finishedGames,
  admin,
  balanceOf,
  moneyCheck,
  newPlayer,
  startTableCluster,
  type Table,
  type TableCluster,
} from "./helpers/table-cluster.js";

const test = anyTest as TestFn<TableCluster>;

test.before(async (t) => {
  t.context = await startTableCluster({ tables: 2 });
});
test.after.always(async (t) => {
  await t.context.stop?.();
});

const WELCOME = 100_000;
const TABLE_ID = 3;
const PLAYERS = 16;
const ROUNDS = 16;

test("16 concurrent operations per round through two replicas lose and duplicate nothing", async (t) => {
  const cluster = t.context;
  const [one, two] = cluster.replicas.map((r) => r.client) as [Table, Table];
  const replica = (i: number) => (i % 2 === 0 ? one : two);
  const players: Caller[] = [];
  for (let i = 0; i < PLAYERS; i++) players.push(await newPlayer(cluster, `p${i}`));
  const outcomes = new Map<string, number>();
  const count = (what: string) => outcomes.set(what, (outcomes.get(what) ?? 0) + 1);

  /** Runs an operation; a refusal the rules allow is counted, anything else fails the test. */
  const attempt = async (what: string, call: () => Promise<object>) => {
    try {
      const answer = await call();
      count("acknowledged" in answer && answer.acknowledged === false ? `${what}: NACK` : `${what}: ok`);
    } catch (error) {
      const code = (error as { code?: number }).code;
      if (code !== status.FAILED_PRECONDITION && code !== status.PERMISSION_DENIED) throw error;
      count(`${what}: ${code === status.FAILED_PRECONDITION ? "409" : "403"}`);
    }
  };

  let key = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const { state } = await one.getState({ caller: admin(), tableId: TABLE_ID });
    const seated = new Map(state!.seats.map((s) => [s.playerId, s.seatId]));
    const live = state!.handOdds.filter((p) => p.bettingStage === state!.bettingStage && p.oddsTenths > 0);
    const calls = players.map((caller, i) => {
      const seatId = seated.get(caller.playerId);
      const idempotencyKey = `k${key++}`;
      const r = replica(i + round);
      const twice = <A extends object>(call: (table: Table) => Promise<A>) =>
        // Every fourth request is sent to both replicas at once, as a client retry would be. A bet's
        // replay answers the seat's balance as it is then, which a concurrent river payout may change.
        i % 4 === 0
          ? Promise.all([call(r), call(r === one ? two : one)]).then(([a, b]) => {
              const { updatedSeatBalanceCents: _a, ...first } = a as { updatedSeatBalanceCents?: number };
              const { updatedSeatBalanceCents: _b, ...second } = b as { updatedSeatBalanceCents?: number };
              t.deepEqual(first, second);
              return a;
            })
          : call(r);
      if (seatId === undefined) {
        return attempt("sit", () =>
          twice((tb) => tb.sit({ caller, tableId: TABLE_ID, buyInCents: 5_000 + i, idempotencyKey })),
        );
      }
      switch ((i + round) % 7) {
        case 0:
          return attempt("advance", () => r.advance({ caller, tableId: TABLE_ID }));
        case 1:
          return attempt("topup", () =>
            twice((tb) => tb.topUp({ caller, tableId: TABLE_ID, amountCents: 300, idempotencyKey })),
          );
        case 2:
          return attempt("leave", () => twice((tb) => tb.leave({ caller, tableId: TABLE_ID, idempotencyKey })));
        default: {
          const handIndex = live.length > 0 ? live[(i + round) % live.length]!.handIndex : 0;
          const bet = {
            caller,
            tableId: TABLE_ID,
            seatIndex: seatId,
            handIndex,
            betAmountCents: 150 + i,
            idempotencyKey,
          };
          return attempt("bet", () => twice((tb) => tb.bet(bet)));
        }
      }
    });
    await Promise.all(calls);
  }
  // Sits that lost their seat after the debit were refunded (the decision path), not only refused before it.
  const refunds = await cluster.walletDb.collection("ledger").countDocuments({ reason: "sit-refund" });
  t.log({ ...Object.fromEntries([...outcomes].sort()), "sit refunded after its debit": refunds });
  t.true((outcomes.get("bet: ok") ?? 0) > 0);
  t.true((outcomes.get("sit: ok") ?? 0) > 6, "players left and others took their seats");

  // Everyone leaves (twice, through both replicas): the last leave settles or voids the open game.
  await Promise.all(
    players.map((caller, i) =>
      Promise.all([
        one.leave({ caller, tableId: TABLE_ID, idempotencyKey: `end-${i}` }),
        two.leave({ caller, tableId: TABLE_ID, idempotencyKey: `end-${i}` }),
      ]).then(([a, b]) => t.deepEqual(a, b)),
    ),
  );

  // Per player: the account holds the welcome credit plus returns minus stakes, to the cent.
  const records = await finishedGames(cluster);
  const net = new Map<string, number>();
  for (const record of records) {
    for (const bet of record.bets)
      net.set(bet.playerId, (net.get(bet.playerId) ?? 0) + bet.returnedCents - bet.betAmountCents);
  }
  for (const { playerId } of players)
    t.is(await balanceOf(cluster, playerId), WELCOME + (net.get(playerId) ?? 0), playerId);
  const check = await moneyCheck(cluster);
  t.true(check.conserved, JSON.stringify(check.detail));
});
