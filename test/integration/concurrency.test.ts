// Many clients at once on a stack with two wallet and two table processes: racing copies of one
// request, racing advances, then a seeded storm of random sits, top-ups, bets, advances and leaves.
// No answer is a 5xx, no balance is ever negative, every state seen is a valid state, and once
// everyone has left, every cent is accounted for (the books, and the ADMIN audit when it exists).
// Replay a run with TEST_SEED=<the logged seed> (the interleaving still varies).
import test from "ava";
import { Api, cents, errorOf, show, WELCOME_CENTS, type Player, type Reply, type TableState } from "../helpers/api.js";
import { expectAck } from "../helpers/expect.js";
import { expectMoneyConserved } from "../helpers/money.js";
import { seededRandom, seedFromEnv } from "../helpers/random.js";
import { stackPerFile } from "../helpers/stack.js";
import { stateProblems } from "../helpers/state-checks.js";

const file = stackPerFile(test, { replicas: { wallet: 2, table: 2 } });
let api: Api;
let admin: Player;
const everyone: Player[] = [];
const tablesUsed = new Set<number>();

test.before(async () => {
  const stack = await file.ready;
  api = new Api(stack.url, stack.dataDir);
  admin = await api.player("storm-admin", "ADMIN");
});

async function newPlayers(prefix: string, count: number): Promise<Player[]> {
  const players = await Promise.all(Array.from({ length: count }, (_, i) => api.player(`${prefix}-${i}`)));
  for (const player of players) {
    const reply = await player.profile();
    if (reply.status !== 200 || reply.body.accountBalance !== 1000) throw new Error(show(reply));
  }
  everyone.push(...players);
  return players;
}

const seatOf = (state: TableState, player: Player) => state.seats.find((seat) => seat.playerId === player.id);

test.serial(
  "racing copies: one player's concurrent sits seat once; concurrent leaves return the seat once",
  async (t) => {
    const table = 3;
    tablesUsed.add(table);
    const [racer] = await newPlayers("racer", 1);
    const player = racer!;

    // Eight sits with eight keys: one seat, one debit; the rest are NACKs (already seated).
    const sits = await Promise.all(Array.from({ length: 8 }, () => player.sit(table, 100)));
    for (const reply of sits) t.is(reply.status, 200, show(reply));
    t.is(sits.filter((r) => r.body.acknowledgement === "ACK").length, 1, sits.map(show).join("\n"));
    t.is(await player.balance(), WELCOME_CENTS - 10_000);

    // Eight top-ups under one key: one movement, every copy the same answer.
    const topups = await Promise.all(Array.from({ length: 8 }, () => player.topup(table, 5, "one-topup")));
    for (const reply of topups) expectAck(t, reply);
    t.is(new Set(topups.map((r) => JSON.stringify(r.body))).size, 1, topups.map(show).join("\n"));
    t.is(await player.balance(), WELCOME_CENTS - 10_500);
    t.is(cents(seatOf(await admin.readState(table), player)!.seatBalance), 10_500);

    // Eight leaves with eight keys: the seat's 105.00 comes back once.
    const leaves = await Promise.all(Array.from({ length: 8 }, () => player.leave(table)));
    for (const reply of leaves) expectAck(t, reply);
    t.is(
      leaves.reduce((sum, r) => sum + cents(r.body.creditsReturned), 0),
      10_500,
      leaves.map(show).join("\n"),
    );
    t.is(await player.balance(), WELCOME_CENTS);
  },
);

test.serial("racing advances: each move is made once (one deal, one flop...), none is skipped", async (t) => {
  const table = 4;
  tablesUsed.add(table);
  const players = await newPlayers("advancer", 4);
  for (const player of players) expectAck(t, await player.sit(table, 10));
  // An advance names no state: one that reads the table after another's move makes the next move.
  // What must hold: every move's result is answered (by the request that made it), the answers run
  // without a gap from the state raced from, and copies of one state are one state: the same cards.
  const cycle = ["STATUS_SETUP", "STATUS_HOLE", "STATUS_FLOP", "STATUS_TURN", "STATUS_RIVER"];
  // Where a state is in the table's history: games are T<table>-<n>, each SETUP (or START) to RIVER.
  const position = (state: TableState) =>
    5 * Number(/-(\d+)$/.exec(state.gameId)![1]) +
    cycle.indexOf(state.gameState === "STATUS_START" ? "STATUS_SETUP" : state.gameState);
  const visited = new Set<string>();
  let from = await admin.readState(table);
  for (let round = 0; round < 10 && visited.size < cycle.length; round++) {
    const replies = await Promise.all([...players, ...players].map((player) => player.advance(table)));
    for (const reply of replies) {
      t.is(reply.status, 200, show(reply));
      t.deepEqual(stateProblems(reply.body), [], show(reply));
    }
    const states = replies.map((reply) => reply.body);
    const step = (state: TableState) => position(state) - position(from);
    const furthest = Math.max(...states.map(step));
    const answered = new Set(states.map(step));
    t.deepEqual(
      [...answered].sort((a, b) => a - b),
      Array.from({ length: furthest }, (_, i) => i + 1),
      `round ${round} from ${from.gameState}: ${states.map((s) => s.gameState).join()}`,
    );
    for (const state of states) {
      const twin = states.find((other) => position(other) === position(state));
      t.deepEqual(
        [
          state.gameId,
          state.hands,
          state.flopCard1,
          state.flopCard2,
          state.flopCard3,
          state.turnCard,
          state.riverCard,
          state.handOdds,
        ],
        [
          twin!.gameId,
          twin!.hands,
          twin!.flopCard1,
          twin!.flopCard2,
          twin!.flopCard3,
          twin!.turnCard,
          twin!.riverCard,
          twin!.handOdds,
        ],
        `one ${state.gameState}, not two`,
      );
    }
    const after = await admin.readState(table);
    t.is(step(after), furthest, "the table is where the furthest answer says");
    from = after;
    for (const state of states) visited.add(state.gameState);
  }
  t.is(visited.size, cycle.length, `every state was raced through: ${[...visited].join()}`);
  for (const player of players) expectAck(t, await player.leave(table));
});

test.serial("racing spends cannot overdraw: bets against one seat, top-ups and sits against one account", async (t) => {
  const [table, other] = [5, 6];
  tablesUsed.add(table);
  tablesUsed.add(other);
  const [spender, dealer] = await newPlayers("spender", 2);
  const seatId = expectAck(t, await spender!.sit(table, 10)).seatId;
  expectAck(t, await dealer!.sit(table, 1));
  const hole = (await dealer!.advance(table)).body;
  const hand = hole.handOdds.find((p) => p.odds > 0)!.handIndex;

  // Twelve bets of 1.50 against a seat of 10.00: at most six can be covered.
  const bets = await Promise.all(
    Array.from({ length: 12 }, () => spender!.bet(table, { seatIndex: seatId, handIndex: hand, betAmount: 1.5 })),
  );
  for (const reply of bets) t.is(reply.status, 200, show(reply));
  const placed = bets.filter((r) => r.body.acknowledgement === "ACK").length;
  t.is(placed, 6, bets.map(show).join("\n"));
  const state = await admin.readState(table);
  t.is(state.bets.length, placed);
  t.is(cents(state.seats.find((s) => s.playerId === spender!.id)!.seatBalance), 1000 - 150 * placed);

  // The account holds 990.00: twelve top-ups of 100.00 can move at most nine of them.
  const topups = await Promise.all(Array.from({ length: 12 }, () => spender!.topup(table, 100)));
  for (const reply of topups) t.is(reply.status, 200, show(reply));
  const moved = topups.filter((r) => r.body.acknowledgement === "ACK").length;
  t.is(moved, 9, topups.map(show).join("\n"));
  t.is(await spender!.balance(), 99_000 - 10_000 * moved);

  // Two sits at two tables that the account can cover one at a time, at once: one seat.
  expectAck(t, await spender!.leave(table));
  const left = await spender!.balance();
  const sits = await Promise.all([spender!.sit(other, left / 100 - 30), spender!.sit(other + 1, left / 100 - 30)]);
  tablesUsed.add(other + 1);
  t.deepEqual(sits.map((r) => r.body.acknowledgement).sort(), ["ACK", "NACK"], sits.map(show).join("\n"));
  t.is(await spender!.balance(), 3000);
  for (const tableId of [table, other, other + 1]) {
    for (const player of [spender!, dealer!]) expectAck(t, await player.leave(tableId));
  }
});

type Op = "sit" | "topup" | "bet" | "advance" | "leave" | "state";
/** Operation weights for a player seated at the table, and for one who is not (mostly what makes sense). */
const WEIGHTS: Record<"seated" | "away", [Op, number][]> = {
  seated: [
    ["bet", 40],
    ["advance", 22],
    ["topup", 10],
    ["leave", 8],
    ["state", 4],
    ["sit", 2],
  ],
  away: [
    ["sit", 30],
    ["advance", 3],
    ["bet", 3],
    ["topup", 3],
    ["leave", 3],
    ["state", 3],
  ],
};
const weighted = (weights: [Op, number][]) => weights.flatMap(([name, weight]) => Array<Op>(weight).fill(name));
const CHOICES = { seated: weighted(WEIGHTS.seated), away: weighted(WEIGHTS.away) };

/** Statuses each operation may answer in a storm (decisions.md); anything else is a finding. */
const ALLOWED: Record<Op, number[]> = {
  sit: [200],
  topup: [200, 409],
  bet: [200, 409],
  advance: [200, 403],
  leave: [200],
  state: [200],
};

test.serial(
  "a storm: 16 clients, 8 players, 2 tables, random operations; no 5xx, no negative balance, the books balance",
  async (t) => {
    const seed = seedFromEnv();
    t.log(`seed ${seed} (replay with TEST_SEED=${seed})`);
    const random = seededRandom(seed);
    const tables = [1, 2];
    for (const table of tables) tablesUsed.add(table);
    const players = await newPlayers("storm", 8);
    const CLIENTS = 16;
    const OPERATIONS = 600;

    /** The latest state seen of each table, and each player's seat there, to aim bets with. */
    const latest = new Map<number, TableState>();
    const seats = new Map<string, number>();
    const tally = new Map<string, number>();
    const findings: string[] = [];
    const note = (reply: Reply, op: Op, table: number) => {
      const body = reply.body as { acknowledgement?: string; gameState?: string; message?: string } | undefined;
      const why =
        body?.acknowledgement === "NACK" ? ` (${body.message})` : reply.status === 200 ? "" : ` (${errorOf(reply)})`;
      const label = `${op} ${reply.status}${body?.acknowledgement ? ` ${body.acknowledgement}` : ""}${why}`;
      tally.set(label, (tally.get(label) ?? 0) + 1);
      if (!ALLOWED[op].includes(reply.status)) findings.push(`unexpected status: ${show(reply)}`);
      if (reply.status === 200 && body?.gameState) {
        const state = reply.body as TableState;
        for (const problem of stateProblems(state)) findings.push(`${problem}: ${show(reply)}`);
        latest.set(table, state);
      }
    };

    let remaining = OPERATIONS;
    const client = async () => {
      while (remaining-- > 0) {
        const player = random.pick(players);
        const table = random.pick(tables);
        const seatKey = `${player.id}@${table}`;
        let op = random.pick(CHOICES[seats.has(seatKey) ? "seated" : "away"]);
        let reply: Reply;
        switch (op) {
          case "sit": {
            const buyIn = random.int(1, 25_000) / 100;
            reply = await player.sit(table, buyIn);
            const body = (reply as Reply<{ acknowledgement: string; seatId: number; seatBalance: number }>).body;
            if (reply.status === 200 && body.acknowledgement === "ACK") {
              seats.set(seatKey, body.seatId);
              if (body.seatBalance !== buyIn)
                findings.push(`a sit of ${buyIn} left ${body.seatBalance} on the seat: ${show(reply)}`);
            }
            break;
          }
          case "topup": {
            const amount = random.int(1, 10_000) / 100;
            reply = await player.topup(table, amount);
            const body = (reply as Reply<{ acknowledgement: string; newSeatBalance: number }>).body;
            if (reply.status === 200 && body.acknowledgement === "ACK" && body.newSeatBalance < amount) {
              findings.push(`a top-up of ${amount} left less on the seat: ${show(reply)}`);
            }
            break;
          }
          case "bet": {
            const state = latest.get(table);
            const live = state?.handOdds.filter((p) => p.bettingStage === state.bettingStage && p.odds > 0) ?? [];
            // Mostly aimed at a live hand from the player's own seat; now and then at any hand or seat.
            const handIndex = live.length > 0 && random.chance(0.9) ? random.pick(live).handIndex : random.int(0, 3);
            const seatIndex =
              seats.get(seatKey) !== undefined && random.chance(0.95) ? seats.get(seatKey)! : random.int(1, 6);
            reply = await player.bet(table, { seatIndex, handIndex, betAmount: random.int(1, 2_000) / 100 });
            break;
          }
          case "advance":
            reply = await player.advance(table);
            break;
          case "leave":
            reply = await player.leave(table);
            if (reply.status === 200) seats.delete(seatKey);
            break;
          default:
            op = "state";
            reply = await player.state(table);
        }
        note(reply, op, table);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    t.log(
      `outcomes: ${[...tally]
        .sort()
        .map(([label, n]) => `${label} x${n}`)
        .join(", ")}`,
    );
    t.log(`${api.rivers.size} rivers seen`);

    // Everyone leaves everything: every seat comes back to its account, the last leave resets each table.
    for (const player of players) for (const table of tables) expectAck(t, await player.leave(table));
    for (const table of tables) {
      const state = await admin.readState(table);
      t.deepEqual(state.seats, [], `table ${table} is empty`);
      t.is(state.gameState, "STATUS_START", `table ${table} starts afresh`);
    }

    t.deepEqual(findings, [], `seed ${seed}`);
    t.true((tally.get("sit 200 ACK") ?? 0) > 0 && (tally.get("bet 200 ACK") ?? 0) > 0, "the storm sat and bet");
    t.deepEqual(api.serverErrors.map(show), [], "no 5xx");
    t.deepEqual(api.negativeBalances, [], "no negative balance in any reply");
    await expectMoneyConserved(t, api, everyone, [...tablesUsed], admin, { everyone: true });
  },
);
