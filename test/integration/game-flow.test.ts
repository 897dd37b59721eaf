// The game and the money through HTTP, on the whole stack (gateway, odds, wallet, table, embedded
// FerretDB): profiles, sitting, topping up, betting at every stage, the river's payouts checked
// against an independent evaluation, leaving, personal tables and the lobby. Every money answer is
// checked against the account (profile) and the seat (state) it claims to have moved.
import test, { type ExecutionContext } from "ava";
import type { GameRecordBody as GameRecord } from "@pokerodds/api/game-records";
import type { AccountStatementBody as AccountStatement } from "@pokerodds/api/players";
import { Api, cents, show, WELCOME_CENTS, type Player, type Role, type TableState } from "../helpers/api.js";
import { expectAck, expectError } from "../helpers/expect.js";
import { expectMoneyConserved, settle } from "../helpers/money.js";
import { eventually } from "../helpers/poll.js";
import { stackPerFile } from "../helpers/stack.js";
import { stateProblems } from "../helpers/state-checks.js";
import { verifyGame } from "../../services/odds/src/domain/provably-fair.js";

const file = stackPerFile(test);
let api: Api;
let admin: Player;
/** Every player welcomed in this file, and every table that held money: for the final books. */
const everyone: Player[] = [];
const tablesUsed = new Set<number>();

test.before(async () => {
  const stack = await file.ready;
  api = new Api(stack.url, stack.dataDir);
  admin = await newPlayer("flow-admin", "ADMIN");
});

/** A player whose profile has been read once: the account exists with the welcome credit. */
async function newPlayer(id: string, role?: Role): Promise<Player> {
  const player = await api.player(id, role);
  const reply = await player.profile();
  if (reply.status !== 200 || reply.body.accountBalance !== 1000) throw new Error(`first profile: ${show(reply)}`);
  everyone.push(player);
  return player;
}

/** The state after checking it against the stage's rules. */
async function checkedState(t: ExecutionContext, reader: Player, tableId: number): Promise<TableState> {
  const state = await reader.readState(tableId);
  t.deepEqual(stateProblems(state), [], `table ${tableId} in ${state.gameState}`);
  return state;
}

async function advance(t: ExecutionContext, player: Player, tableId: number, to: string): Promise<TableState> {
  const reply = await player.advance(tableId);
  t.is(reply.status, 200, show(reply));
  t.is(reply.body.gameState, to, show(reply));
  t.deepEqual(stateProblems(reply.body), [], `advance to ${to}`);
  t.deepEqual(await player.readState(tableId), reply.body, "state reads what advance answered");
  return reply.body;
}

const seatOf = (state: TableState, player: Player) => state.seats.find((seat) => seat.playerId === player.id);

async function seatCents(tableId: number, player: Player): Promise<number | undefined> {
  const seat = seatOf(await admin.readState(tableId), player);
  return seat && cents(seat.seatBalance);
}

test.serial("profile: the welcome 1,000.00 is credited once, however many first reads race", async (t) => {
  const player = await api.player("welcome-racer");
  const first = await Promise.all(Array.from({ length: 6 }, () => player.profile()));
  for (const reply of first) {
    t.is(reply.status, 200, show(reply));
    t.like(reply.body, {
      playerId: "welcome-racer",
      username: "welcome-racer@example.com",
      displayName: "welcome-racer",
      accountBalance: 1000,
      role: "BASIC_USER",
      isActive: true,
    });
    t.is(reply.body.personalTableId, undefined, "a BASIC_USER has no personal table");
  }
  t.is((await player.profile()).body.accountBalance, 1000, "a later read credits nothing more");
  everyone.push(player);

  const nosy = await newPlayer("nosy");
  expectError(t, await nosy.profile("welcome-racer"), 403);
  const seenByAdmin = await admin.profile("welcome-racer");
  t.is(seenByAdmin.status, 200, show(seenByAdmin));
  t.is(seenByAdmin.body.accountBalance, 1000);
  expectError(t, await admin.profile("never-seen-player"), 404);
});

test.serial(
  "sit and top-up move exactly the amount from the account to the seat; leave brings it all back",
  async (t) => {
    const table = 2;
    tablesUsed.add(table);
    const alice = await newPlayer("alice");

    const sat = expectAck(t, await alice.sit(table, 123.45));
    t.true(Number.isInteger(sat.seatId) && sat.seatId >= 0, `seatId ${sat.seatId}`);
    t.is(sat.seatBalance, 123.45);
    t.is(await alice.balance(), WELCOME_CENTS - 12_345, "the account is debited exactly the buy-in");
    const state = await checkedState(t, alice, table);
    t.deepEqual(seatOf(state, alice), {
      seatId: sat.seatId,
      playerId: "alice",
      playerName: "alice",
      seatBalance: 123.45,
      avatarImageUrl: seatOf(state, alice)!.avatarImageUrl,
    });
    // The avatar a seat and a profile name is an image the gateway serves.
    const avatar = await fetch(new URL(seatOf(state, alice)!.avatarImageUrl, (await file.ready).url));
    t.is(avatar.status, 200, seatOf(state, alice)!.avatarImageUrl);
    t.is(avatar.headers.get("content-type"), "image/png");

    const topped = expectAck(t, await alice.topup(table, 0.07));
    t.is(topped.newSeatBalance, 123.52);
    t.is(topped.newAccountBalance, 876.48);
    t.is(await alice.balance(), 87_648);
    t.is(await seatCents(table, alice), 12_352);

    // The rest of the account, to the cent: the account may reach 0, never below.
    const all = expectAck(t, await alice.topup(table, 876.48));
    t.is(all.newSeatBalance, 1000);
    t.is(all.newAccountBalance, 0);
    t.is(await alice.balance(), 0);

    const left = expectAck(t, await alice.leave(table));
    t.deepEqual(left, { acknowledgement: "ACK", creditsReturned: 1000, newAccountBalance: 1000 });
    t.is(await alice.balance(), WELCOME_CENTS);
    t.is(seatOf(await alice.readState(table), alice), undefined, "the seat is freed");

    // Leave is idempotent: not seated, it returns nothing and the current balance.
    const again = expectAck(t, await alice.leave(table));
    t.deepEqual(again, { acknowledgement: "ACK", creditsReturned: 0, newAccountBalance: 1000 });
    // ... also at a table never sat at.
    t.deepEqual(expectAck(t, await alice.leave(9)), again);
    t.is(await alice.balance(), WELCOME_CENTS);

    // The account statement tells the same story, newest first, a page at a time.
    const statement = async (query = "") =>
      (await alice.request<AccountStatement>("GET", `/api/players/alice/ledger${query}`)).body;
    const first = await statement("?limit=3");
    const rest = await statement(`?limit=3&before=${first.nextBefore}`);
    t.is(rest.nextBefore, null, "two pages hold the whole account");
    t.deepEqual(
      [...first.entries, ...rest.entries].map((e) => [e.sequence, e.reason, e.amount, e.balanceAfter, e.tableId]),
      [
        [5, "leave", 1000, 1000, table],
        [4, "topup", -876.48, 0, table],
        [3, "topup", -0.07, 876.48, table],
        [2, "sit", -123.45, 876.55, table],
        [1, "welcome", 1000, 1000, null],
      ],
    );
    t.deepEqual((await statement()).entries, [...first.entries, ...rest.entries], "one page by default");
    expectError(t, await alice.request("GET", "/api/players/bob/ledger"), 403);
  },
);

test.serial("NACKs and refusals move nothing: short account, short seat, second seat, not seated", async (t) => {
  const table = 3;
  tablesUsed.add(table);
  const bob = await newPlayer("bob");

  // More than the account holds, by one cent: NACK, nothing moves, not seated.
  const short = expectAck(t, await bob.sit(table, 1000.01), "NACK");
  t.is(short.seatBalance, 0, "a refused sit has no seat balance");
  t.is(await bob.balance(), WELCOME_CENTS);
  t.is(seatOf(await bob.readState(table), bob), undefined, "a refused sit takes no seat");

  expectAck(t, await bob.sit(table, 600));
  t.is(await bob.balance(), 40_000);

  // Already seated at that table: NACK, whatever the amount.
  expectAck(t, await bob.sit(table, 1), "NACK");
  t.is(await bob.balance(), 40_000);
  t.is(await seatCents(table, bob), 60_000);

  // A top-up the account cannot cover: NACK, with the unchanged balances.
  const topup = expectAck(t, await bob.topup(table, 400.01), "NACK");
  t.is(topup.newAccountBalance, 400);
  t.is(topup.newSeatBalance, 600);
  t.is(await bob.balance(), 40_000);
  t.is(await seatCents(table, bob), 60_000);

  // Sitting at a second table with more than is left: NACK.
  tablesUsed.add(4);
  expectAck(t, await bob.sit(4, 400.01), "NACK");
  t.is(await bob.balance(), 40_000);
  t.is(seatOf(await bob.readState(4), bob), undefined);

  // Top-up and bet where not seated: 409, nothing moves.
  expectError(t, await bob.topup(4, 1), 409);
  expectError(t, await bob.bet(4, { seatIndex: 0, handIndex: 0, betAmount: 1 }), 409);
  t.is(await bob.balance(), 40_000);

  // A bet larger than the seat holds: NACK, the seat unchanged.
  await advance(t, bob, table, "STATUS_HOLE");
  const seatId = seatOf(await bob.readState(table), bob)!.seatId;
  const state = await bob.readState(table);
  const hand = state.handOdds.find((p) => p.odds > 0)!.handIndex;
  const bet = expectAck(t, await bob.bet(table, { seatIndex: seatId, handIndex: hand, betAmount: 600.01 }), "NACK");
  t.is(bet.updatedSeatBalance, 600);
  t.is(await seatCents(table, bob), 60_000);
  t.deepEqual((await bob.readState(table)).bets, [], "a refused bet is not listed");

  // The whole seat can be staked, to the cent.
  const allIn = expectAck(t, await bob.bet(table, { seatIndex: seatId, handIndex: hand, betAmount: 600 }));
  t.is(allIn.updatedSeatBalance, 0);
  expectAck(t, await bob.bet(table, { seatIndex: seatId, handIndex: hand, betAmount: 0.01 }), "NACK");
  t.is(await seatCents(table, bob), 0);
  t.is(await bob.balance(), 40_000);
});

test.serial("a seventh player finds the table full: six seats, one NACK, that account untouched", async (t) => {
  const table = 5;
  tablesUsed.add(table);
  const players = await Promise.all(Array.from({ length: 7 }, (_, i) => newPlayer(`full-${i}`)));
  const replies = await Promise.all(players.map((player) => player.sit(table, 10)));
  for (const reply of replies) t.is(reply.status, 200, show(reply));
  const acked = players.filter((_, i) => replies[i]!.body.acknowledgement === "ACK");
  const nacked = players.filter((_, i) => replies[i]!.body.acknowledgement === "NACK");
  t.is(acked.length, 6, replies.map(show).join("\n"));
  t.is(nacked.length, 1);
  const seatIds = replies.filter((r) => r.body.acknowledgement === "ACK").map((r) => r.body.seatId);
  t.is(new Set(seatIds).size, 6, `distinct seats: ${seatIds.join()}`);

  const state = await checkedState(t, admin, table);
  t.deepEqual(state.seats.map((seat) => seat.playerId).sort(), acked.map((p) => p.id).sort());
  t.deepEqual(state.seats.map((seat) => seat.seatId).sort(), [...seatIds].sort());
  t.true(state.seats.every((seat) => seat.seatBalance === 10));
  for (const player of acked) t.is(await player.balance(), WELCOME_CENTS - 1000);
  t.is(await nacked[0]!.balance(), WELCOME_CENTS, "the refused player's account is untouched");

  // A freed seat can be taken again.
  expectAck(t, await acked[0]!.leave(table));
  const retry = expectAck(t, await nacked[0]!.sit(table, 10));
  t.is(retry.seatBalance, 10);
  t.is(await nacked[0]!.balance(), WELCOME_CENTS - 1000);
  for (const player of players) expectAck(t, await player.leave(table));
  for (const player of players) t.is(await player.balance(), WELCOME_CENTS);
});

test.serial(
  "a whole game: every stage's state, bets at hole, flop and turn, refusals, the river's payouts",
  async (t) => {
    const table = 6;
    tablesUsed.add(table);
    const [ann, ben, cat] = [await newPlayer("ann"), await newPlayer("ben"), await newPlayer("cat")];

    let state = await checkedState(t, ann, table);
    t.is(state.gameState, "STATUS_START");
    t.like(state, {
      tableId: table,
      hands: null,
      flopCard1: null,
      turnCard: null,
      riverCard: null,
      bets: [],
      handOdds: [],
    });

    const annSeat = expectAck(t, await ann.sit(table, 200)).seatId;
    const benSeat = expectAck(t, await ben.sit(table, 100)).seatId;
    t.not(annSeat, benSeat);
    const seat: Record<string, number> = { [ann.id]: 20_000, [ben.id]: 10_000 };
    const account: Record<string, number> = { [ann.id]: 80_000, [ben.id]: 90_000 };

    // Before the hole: no betting; only a seated player (or an ADMIN) moves the game on.
    expectError(t, await ann.bet(table, { seatIndex: annSeat, handIndex: 0, betAmount: 1 }), 409);
    expectError(t, await cat.advance(table), 403);
    t.is((await cat.readState(table)).gameState, "STATUS_START", "a refused advance moves nothing");

    const expectSeats = (s: TableState) =>
      t.deepEqual(
        Object.fromEntries(s.seats.map((x) => [x.playerId, cents(x.seatBalance)])),
        seat,
        `seat balances in ${s.gameState}`,
      );
    const placed: TableState["bets"] = [];
    /** Places a bet and checks its answer, the seat, and the bets listed. */
    const bet = async (
      player: Player,
      seatIndex: number,
      handIndex: number,
      betAmount: number,
      stageState: TableState,
    ) => {
      const reply = expectAck(t, await player.bet(table, { seatIndex, handIndex, betAmount }));
      seat[player.id]! -= cents(betAmount);
      t.is(
        cents(reply.updatedSeatBalance),
        seat[player.id]!,
        show({ method: "bet", path: "", status: 200, body: reply, requestId: null }),
      );
      const odds = stageState.handOdds.find(
        (p) => p.bettingStage === stageState.bettingStage && p.handIndex === handIndex,
      )!.odds;
      placed.push({
        playerId: player.id,
        bettingStage: stageState.bettingStage,
        seatIndex,
        handIndex,
        betAmount,
        recordedOdds: odds,
      });
    };
    const key = (b: TableState["bets"][number]) =>
      JSON.stringify([b.playerId, b.bettingStage, b.seatIndex, b.handIndex, b.betAmount, b.recordedOdds]);

    let previousPanels: TableState["handOdds"] = [];
    for (const [to, stage] of [
      ["STATUS_HOLE", 0],
      ["STATUS_FLOP", 1],
      ["STATUS_TURN", 2],
    ] as const) {
      state = await advance(t, stage === 0 ? ben : ann, table, to);
      t.is(state.bettingStage, stage);
      t.deepEqual(
        state.handOdds.filter((p) => p.bettingStage !== stage),
        previousPanels,
        "earlier stages' odds stay as they were",
      );
      previousPanels = state.handOdds;
      expectSeats(state);

      // ann backs every hand that can win, with an odd stake so that payouts need flooring; ben the favourite.
      const live = state.handOdds.filter((p) => p.bettingStage === stage && p.odds > 0);
      for (const panel of live) await bet(ann, annSeat, panel.handIndex, 1.37 + stage, state);
      // None when every hand still in play can only tie (odds 0; the favourite is one of them): a
      // random deal makes such a stage now and then, and nobody can bet at it.
      const favourite = live.find((p) => p.handStatus === "IN_PLAY_FAVOURITE");
      if (favourite) await bet(ben, benSeat, favourite.handIndex, 2.5, state);

      // Refused: another player's seat, a player not seated, a hand that does not exist.
      expectError(t, await ann.bet(table, { seatIndex: benSeat, handIndex: 0, betAmount: 1 }), 409);
      expectError(t, await cat.bet(table, { seatIndex: annSeat, handIndex: 0, betAmount: 1 }), 409);
      expectError(t, await cat.bet(table, { seatIndex: 5, handIndex: 0, betAmount: 1 }), 409);
      expectError(t, await ann.bet(table, { seatIndex: annSeat, handIndex: 4, betAmount: 1 }), 409);

      const after = await checkedState(t, cat, table);
      t.deepEqual(after.bets.map(key).sort(), placed.map(key).sort(), `the bets listed at ${to}`);
      expectSeats(after);
    }

    const river = await advance(t, ann, table, "STATUS_RIVER");
    t.deepEqual(river.bets.map(key).sort(), placed.map(key).sort(), "the river lists the game's bets");
    const settlement = settle(river);
    t.log(
      `winners ${settlement.winners.join()}; stakes ${settlement.stakesCents}, payouts ${settlement.payoutsCents} cents`,
    );
    // ann backed every hand that could win at every stage: only a tie of hands she never could back pays nothing.
    const backed = settlement.winners.some((hand) => placed.some((bet) => bet.handIndex === hand));
    t.is(settlement.payoutsCents > 0, backed, "a winning hand that was backed pays");
    for (const player of [ann, ben]) seat[player.id]! += settlement.payoutsByPlayer.get(player.id) ?? 0;
    expectSeats(river);
    for (const player of [ann, ben])
      t.is(await player.balance(), account[player.id]!, "payouts go to the seat, not the account");

    expectError(t, await ann.bet(table, { seatIndex: annSeat, handIndex: settlement.winners[0]!, betAmount: 1 }), 409);
    expectError(t, await cat.advance(table), 403);

    const setup = await advance(t, ben, table, "STATUS_SETUP");
    t.not(setup.gameId, river.gameId, "a new game");
    t.like(setup, { hands: null, flopCard1: null, riverCard: null, bets: [], handOdds: [] });
    expectSeats(setup);
    expectError(t, await ann.bet(table, { seatIndex: annSeat, handIndex: 0, betAmount: 1 }), 409);

    // An ADMIN may advance a table without sitting at it.
    const adminHole = await admin.advance(table);
    t.is(adminHole.status, 200, show(adminHole));
    t.is(adminHole.body.gameState, "STATUS_HOLE");

    for (const player of [ann, ben]) {
      const left = expectAck(t, await player.leave(table));
      t.is(cents(left.creditsReturned), seat[player.id]!);
      t.is(cents(left.newAccountBalance), account[player.id]! + seat[player.id]!);
      t.is(await player.balance(), account[player.id]! + seat[player.id]!);
    }
    const empty = await checkedState(t, cat, table);
    t.deepEqual(empty.seats, []);
    t.is(empty.gameState, "STATUS_START", "the last leave resets the table");
  },
);

test.serial("a bet on a hand that cannot win (odds 0) is refused with 409", async (t) => {
  const table = 7;
  tablesUsed.add(table);
  const dee = await newPlayer("dee");
  const seatId = expectAck(t, await dee.sit(table, 50)).seatId;
  const games = 25;
  for (let game = 1; game <= games; game++) {
    for (const to of ["STATUS_HOLE", "STATUS_FLOP", "STATUS_TURN"]) {
      const state = await advance(t, dee, table, to);
      const dead = state.handOdds.find((p) => p.bettingStage === state.bettingStage && p.odds === 0);
      if (dead) {
        t.log(`game ${game}, ${to}: hand ${dead.handIndex} ${JSON.stringify(dead)}`);
        expectError(t, await dee.bet(table, { seatIndex: seatId, handIndex: dead.handIndex, betAmount: 1 }), 409);
        t.is(await seatCents(table, dee), 5000, "the refused bet took nothing");
        t.deepEqual((await dee.readState(table)).bets, []);
        expectAck(t, await dee.leave(table));
        return;
      }
    }
    await advance(t, dee, table, "STATUS_RIVER");
    await advance(t, dee, table, "STATUS_SETUP");
  }
  // A hand priced 0 comes up in most games by the turn (4 hands): 25 games without one would be a
  // pricing fault, not luck, and the refusal would not have been exercised.
  expectAck(t, await dee.leave(table));
  t.fail(`no hand had odds 0 at any betting stage in ${games} games`);
});

test.serial(
  "payouts to a player who left go to the account; the last leave mid-game refunds every open bet",
  async (t) => {
    const table = 8;
    tablesUsed.add(table);
    const [eve, fay] = [await newPlayer("eve"), await newPlayer("fay")];
    const eveSeat = expectAck(t, await eve.sit(table, 100)).seatId;
    expectAck(t, await fay.sit(table, 100));
    await advance(t, eve, table, "STATUS_HOLE");
    await advance(t, eve, table, "STATUS_FLOP");
    const turn = await advance(t, eve, table, "STATUS_TURN");
    for (const panel of turn.handOdds.filter((p) => p.bettingStage === 2 && p.odds > 0)) {
      expectAck(t, await eve.bet(table, { seatIndex: eveSeat, handIndex: panel.handIndex, betAmount: 3.33 }));
    }
    const staked = (await eve.readState(table)).bets.reduce((sum, b) => sum + cents(b.betAmount), 0);
    const left = expectAck(t, await eve.leave(table));
    t.is(cents(left.creditsReturned), 10_000 - staked, "the seat balance comes back; the stakes stay in play");
    t.is(await eve.balance(), WELCOME_CENTS - staked);

    const river = await advance(t, fay, table, "STATUS_RIVER");
    const { winners, payoutsByPlayer } = settle(river);
    const won = payoutsByPlayer.get("eve") ?? 0;
    t.log(`eve staked ${staked} cents and wins ${won}`);
    // eve backed every hand that could still win outright; only a tie of hands that could not is unbacked.
    const backed = winners.some((hand) =>
      turn.handOdds.some((p) => p.bettingStage === 2 && p.handIndex === hand && p.odds > 0),
    );
    t.is(won > 0, backed, `winners ${winners.join()}`);
    t.is(seatOf(river, eve), undefined);
    await eventually("the payout reaches eve's account", async () =>
      (await eve.balance()) === WELCOME_CENTS - staked + won ? true : undefined,
    );

    // A void: fay, alone, bets at the hole and leaves; her stake comes back in full.
    await advance(t, fay, table, "STATUS_SETUP");
    const hole = await advance(t, fay, table, "STATUS_HOLE");
    const fayState = await fay.readState(table);
    const faySeat = seatOf(fayState, fay)!;
    const hand = hole.handOdds.find((p) => p.odds > 0)!.handIndex;
    expectAck(t, await fay.bet(table, { seatIndex: faySeat.seatId, handIndex: hand, betAmount: 12.34 }));
    const fayLeft = expectAck(t, await fay.leave(table));
    t.is(cents(fayLeft.creditsReturned), cents(faySeat.seatBalance) - 1234);
    await eventually("the void refund reaches fay's account", async () =>
      (await fay.balance()) === WELCOME_CENTS ? true : undefined,
    );
    const after = await checkedState(t, admin, table);
    t.like(after, { gameState: "STATUS_START", seats: [], bets: [] });
  },
);

test.serial(
  "idempotency keys: a sit, a top-up, a bet and a leave sent twice move money once; other terms are 422",
  async (t) => {
    const table = 11;
    tablesUsed.add(table);
    const [ivy, jon] = [await newPlayer("ivy"), await newPlayer("jon")];
    expectAck(t, await jon.sit(table, 10));

    const sat = await ivy.sit(table, 50, "ivy-sit");
    const seatId = expectAck(t, sat).seatId;
    t.deepEqual((await ivy.sit(table, 50, "ivy-sit")).body, sat.body, "the replay answers the first answer");
    expectError(t, await ivy.sit(table, 51, "ivy-sit"), 422);
    expectError(t, await ivy.sit(table + 1, 50, "ivy-sit"), 422);
    t.is(await ivy.balance(), WELCOME_CENTS - 5000);

    const topped = await ivy.topup(table, 5, "ivy-topup");
    expectAck(t, topped);
    t.deepEqual((await ivy.topup(table, 5, "ivy-topup")).body, topped.body);
    expectError(t, await ivy.topup(table, 6, "ivy-topup"), 422);
    expectError(t, await ivy.topup(table, 5, "ivy-sit"), 422);
    t.is(await ivy.balance(), WELCOME_CENTS - 5500);
    t.is(await seatCents(table, ivy), 5500);

    // A top-up between stages, then a bet at the hole (where every hand takes bets: at a later
    // stage about one board in 20,000 leaves none), replayed within the game and after it.
    const hole = await advance(t, jon, table, "STATUS_HOLE");
    expectAck(t, await ivy.topup(table, 0.5));
    const hand = hole.handOdds.find((p) => p.bettingStage === 0 && p.odds > 0)!.handIndex;
    const bet = { seatIndex: seatId, handIndex: hand, betAmount: 2 };
    const placed = await ivy.bet(table, bet, "ivy-bet");
    t.is(expectAck(t, placed).updatedSeatBalance, 53.5);
    const replayed = await ivy.bet(table, bet, "ivy-bet");
    t.is(replayed.status, 200, show(replayed));
    t.like(replayed.body, { acknowledgement: "ACK", updatedSeatBalance: 53.5 });
    expectError(t, await ivy.bet(table, { ...bet, betAmount: 3 }, "ivy-bet"), 422);
    t.is((await ivy.readState(table)).bets.length, 1, "one bet, however often it was sent");
    t.is(await seatCents(table, ivy), 5350);
    await advance(t, jon, table, "STATUS_FLOP");
    await advance(t, jon, table, "STATUS_TURN");
    const river = await advance(t, jon, table, "STATUS_RIVER");
    const won = settle(river).payoutsByPlayer.get("ivy") ?? 0;
    t.is(await seatCents(table, ivy), 5350 + won);
    await advance(t, jon, table, "STATUS_SETUP");
    const late = await ivy.bet(table, bet, "ivy-bet");
    t.true(
      late.status === 200 && late.body.acknowledgement === "ACK",
      `a bet replayed after its game answers its first answer: ${show(late)}`,
    );
    t.is(await seatCents(table, ivy), 5350 + won, "and moves nothing");

    // Leave, sit again; the old keys replay their old answers and touch the new seat not at all.
    const left = await ivy.leave(table, "ivy-leave");
    t.is(cents(expectAck(t, left).creditsReturned), 5350 + won);
    expectAck(t, await ivy.sit(table, 20, "ivy-sit-again"));
    const account = await ivy.balance();
    t.deepEqual((await ivy.leave(table, "ivy-leave")).body, left.body, "the old leave's answer");
    t.deepEqual((await ivy.sit(table, 50, "ivy-sit")).body, sat.body, "the old sit's answer");
    t.is(await ivy.balance(), account);
    t.is(await seatCents(table, ivy), 2000, "the new seat is untouched");
    expectError(t, await ivy.leave(table + 1, "ivy-leave"), 422);
    for (const player of [ivy, jon]) expectAck(t, await player.leave(table));
  },
);

test.serial(
  "provably fair with a client seed: the commitment shows before the deal and stays; the deck mixes the dealer's seed",
  async (t) => {
    const table = 12;
    tablesUsed.add(table);
    const dealer = await newPlayer("seed-dealer");
    expectAck(t, await dealer.sit(table, 10), "ACK");
    const start = await checkedState(t, dealer, table);
    t.is(start.gameState, "STATUS_START");
    t.regex(start.seedCommitment ?? "", /^[0-9a-f]{64}$/, "committed before any client seed or bet");
    t.like(start, { serverSeed: null, clientSeed: null });

    const clientSeed = "c1ient-SEED_0123456789abcdef";
    const dealt = await dealer.request<TableState>("POST", `/api/tables/${table}/advance`, { body: { clientSeed } });
    t.is(dealt.status, 200, show(dealt));
    t.like(dealt.body, {
      gameState: "STATUS_HOLE",
      seedCommitment: start.seedCommitment,
      clientSeed,
      serverSeed: null,
    });
    // A client seed on any other advance is ignored: the game keeps the dealer's.
    const flop = await dealer.request<TableState>("POST", `/api/tables/${table}/advance`, {
      body: { clientSeed: "x" },
    });
    t.like(flop.body, { gameState: "STATUS_FLOP", clientSeed });
    await advance(t, dealer, table, "STATUS_TURN");
    const river = await advance(t, dealer, table, "STATUS_RIVER"); // stateProblems verifies it with the client seed
    const game = {
      seed: river.serverSeed!,
      commitment: start.seedCommitment!,
      gameId: river.gameId,
      hands: river.hands!,
      board: [river.flopCard1!, river.flopCard2!, river.flopCard3!, river.turnCard!, river.riverCard!],
    };
    t.deepEqual(verifyGame({ ...game, clientSeed }), { ok: true });
    t.false(verifyGame(game).ok, "the deck is not the server seed's alone");

    // The next game is committed to as soon as it begins, to a new seed.
    const next = await advance(t, dealer, table, "STATUS_SETUP");
    t.regex(next.seedCommitment ?? "", /^[0-9a-f]{64}$/);
    t.not(next.seedCommitment, start.seedCommitment);
    t.is(next.clientSeed, null);
    // An ADMIN is the house, which knows the seed it committed to: its deal takes no client seed.
    const houseSeeded = await admin.request("POST", `/api/tables/${table}/advance`, {
      body: { clientSeed: "house-1" },
    });
    expectError(t, houseSeeded, 403);
    t.regex(JSON.stringify(houseSeeded.body), /the client seed is a player's own/);
    t.is((await checkedState(t, dealer, table)).gameState, "STATUS_SETUP");
    expectError(
      t,
      await dealer.request("POST", `/api/tables/${table}/advance`, { body: { clientSeed: "no spaces" } }),
      400,
    );

    // Once the state has moved on, the finished game's record still reveals its seeds, to anyone who
    // may read the table; the game in play has none yet.
    const watcher = await newPlayer("seed-watcher");
    const record = await watcher.request<GameRecord>("GET", `/api/tables/${table}/games/${river.gameId}`);
    t.is(record.status, 200, show(record));
    t.like(record.body, {
      tableId: table,
      gameId: river.gameId,
      outcome: "SETTLED",
      hands: river.hands,
      board: game.board,
      seedCommitment: start.seedCommitment,
      serverSeed: river.serverSeed,
      clientSeed,
    });
    const { serverSeed, seedCommitment, gameId, hands, board } = record.body;
    t.deepEqual(verifyGame({ seed: serverSeed, commitment: seedCommitment, gameId, hands, board, clientSeed }), {
      ok: true,
    });
    expectError(t, await watcher.request("GET", `/api/tables/${table}/games/${next.gameId}`), 404);
    expectAck(t, await dealer.leave(table), "ACK");
  },
);

test.serial("personal tables: 1001 and up for PAYING_USER and ADMIN, only the owner sits there", async (t) => {
  const payer = await newPlayer("payer", "PAYING_USER");
  const profile = (await payer.profile()).body;
  t.true(Number.isInteger(profile.personalTableId) && profile.personalTableId! >= 1001, JSON.stringify(profile));
  t.is((await payer.profile()).body.personalTableId, profile.personalTableId, "the same table on every read");
  t.true((await admin.profile()).body.personalTableId! >= 1001);
  t.not((await admin.profile()).body.personalTableId, profile.personalTableId);
  const own = profile.personalTableId!;
  tablesUsed.add(own);

  const sat = expectAck(t, await payer.sit(own, 25));
  t.is(sat.seatBalance, 25);
  t.is(await payer.balance(), WELCOME_CENTS - 2500);

  const guest = await newPlayer("guest");
  expectError(t, await guest.sit(own, 10), 403);
  t.is(await guest.balance(), WELCOME_CENTS, "a refused sit moves nothing");
  expectError(t, await admin.sit(own, 10), 403);
  t.is(await admin.balance(), WELCOME_CENTS);
  expectError(t, await guest.advance(own), 403);
  expectError(t, await guest.state(own), 403);
  expectError(t, await guest.request("GET", `/api/tables/${own}/games/T${own}-1`), 403);
  // Not the guest's table and not seated there: decisions.md answers either with 403 or with 409.
  for (const reply of [
    await guest.topup(own, 1),
    await guest.bet(own, { seatIndex: sat.seatId, handIndex: 0, betAmount: 1 }),
  ]) {
    t.true(reply.status === 403 || reply.status === 409, show(reply));
  }
  t.is(await guest.balance(), WELCOME_CENTS);

  const state = await checkedState(t, payer, own);
  t.deepEqual(
    state.seats.map((seat) => seat.playerId),
    ["payer"],
  );

  // A personal table id no one was given is no table.
  expectError(t, await payer.sit(own + 500, 10), 404);
  expectError(t, await payer.state(own + 500), 404);
  t.is(await payer.balance(), WELCOME_CENTS - 2500);
  expectAck(t, await payer.leave(own));
  t.is(await payer.balance(), WELCOME_CENTS);
});

test.serial(
  "lobby: public; lists touched tables with their players and BETTING or WAITING; untouched tables are absent",
  async (t) => {
    const table = 10;
    const untouched = 19;
    tablesUsed.add(table);
    const lobby = async () => {
      const reply = await api.lobby();
      t.is(reply.status, 200, show(reply));
      t.true(Array.isArray(reply.body.tables) && Number.isInteger(reply.body.totalActivePlayers), show(reply));
      return reply.body;
    };
    const entry = async (tableId: number) => (await lobby()).tables.find((x) => x.tableId === tableId);

    // Reading a table's state is not activity.
    await admin.readState(untouched);
    t.is(await entry(untouched), undefined, "a table nobody played at is not listed");
    t.is(await entry(table), undefined);

    const [gus, hal] = [await newPlayer("gus"), await newPlayer("hal")];
    expectAck(t, await gus.sit(table, 10));
    expectAck(t, await hal.sit(table, 10));
    t.deepEqual(await entry(table), { tableId: table, playerCount: 2, gameState: "WAITING" });
    const body = await lobby();
    t.true(body.totalActivePlayers >= 2, JSON.stringify(body));
    t.true(
      body.tables.every((x) => x.playerCount >= 0 && ["BETTING", "WAITING"].includes(x.gameState)),
      JSON.stringify(body),
    );

    for (const [to, lobbyState] of [
      ["STATUS_HOLE", "BETTING"],
      ["STATUS_FLOP", "BETTING"],
      ["STATUS_TURN", "BETTING"],
      ["STATUS_RIVER", "WAITING"],
      ["STATUS_SETUP", "WAITING"],
    ] as const) {
      await advance(t, gus, table, to);
      t.deepEqual(await entry(table), { tableId: table, playerCount: 2, gameState: lobbyState }, to);
    }
    expectAck(t, await hal.leave(table));
    t.deepEqual(await entry(table), { tableId: table, playerCount: 1, gameState: "WAITING" });
    expectAck(t, await gus.leave(table));
    t.deepEqual(
      await entry(table),
      { tableId: table, playerCount: 0, gameState: "WAITING" },
      "still active: touched within 30 minutes",
    );
    t.is(await entry(untouched), undefined);
  },
);

test.serial(
  "the books balance to the cent: accounts + seats + open stakes + the house's result = welcome credits",
  async (t) => {
    t.deepEqual(api.serverErrors.map(show), [], "no 5xx anywhere in this file");
    t.deepEqual(api.negativeBalances, [], "no negative balance in any reply");
    await expectMoneyConserved(t, api, everyone, [...tablesUsed], admin, { everyone: true });
  },
);
