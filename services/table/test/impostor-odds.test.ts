// An odds service that lies about the prices or the river's winners (a fault, an outdated release, or
// anyone holding the odds certificate) cannot make the table pay what the cards do not say: the table
// prices every stage itself and refuses the advance. Nothing is stored, no money moves, and the game
// goes on once the answers are true again. Nor can it learn a card before the table reveals it: the
// table deals itself and sends the hole cards and the board shown, never the seed.
import {
  Server,
  status,
  type sendUnaryData,
  type ServiceError,
  type ServerUnaryCall,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { madeFromDomainError, serverCredentials } from "@pokerodds/common";
import {
  HandStatus,
  OddsServiceService,
  type EquityRequest,
  type EquityResponse,
  type HandOdds,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { GameState, type Caller, type TableState } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { handOddsToProto } from "@pokerodds/common/hand-odds";
import { DEFAULT_TARGET_RTP } from "@pokerodds/common/limits";
import { parseCard, parseHand } from "@pokerodds/common/poker/cards";
import { priceHands } from "@pokerodds/common/poker/stage-odds";
import { freePort } from "@pokerodds/launcher/ports";
import test from "ava";
import { statusOf } from "../../../test/helpers/grpc-services.js";
import { tlsAs } from "../../../test/helpers/pki.js";
import { admin, balanceOf, moneyCheck, newPlayer, startTableCluster, type Table } from "./helpers/table-cluster.js";

/** What the impostor does to the true panels it computes: nothing, or one lie; or it is away. */
type Lie = "none" | "overprice the favourite" | "a loser wins at the river" | "away";

function truePanels(hands: readonly string[], board: readonly string[], targetRtp: number): HandOdds[] {
  return priceHands(hands.map(parseHand), board.map(parseCard), targetRtp).map(handOddsToProto);
}

function told(panels: HandOdds[], lie: Lie): HandOdds[] {
  // Each lie changes a panel whatever the cards: the test knows it was told one.
  if (lie === "overprice the favourite" && panels[0]!.bettingStage !== -1) {
    const favourite = panels.find((p) => p.handStatus === HandStatus.HAND_STATUS_IN_PLAY_FAVOURITE)?.handIndex ?? 0;
    return panels.map((p) => (p.handIndex === favourite ? { ...p, oddsTenths: p.oddsTenths + 1000 } : p));
  }
  if (lie === "a loser wins at the river" && panels[0]!.bettingStage === -1) {
    // A losing hand named the sole winner; when every hand ties, hand 0 (a tied hand is no sole winner).
    const loser = panels.find((p) => p.handStatus === HandStatus.HAND_STATUS_LOSER)?.handIndex ?? 0;
    return panels.map((p) =>
      p.handIndex === loser
        ? { ...p, handStatus: HandStatus.HAND_STATUS_WINNER, winPercentage: 100, drawPercentage: 0, oddsTenths: 10 }
        : { ...p, handStatus: HandStatus.HAND_STATUS_LOSER, winPercentage: 0, drawPercentage: 0, oddsTenths: 0 },
    );
  }
  return panels;
}

/**
 * An odds service with the odds identity's certificate that tells `lie.now` (a reveal's answer once
 * `lie.revealHeld` resolves, if given), and keeps every request it is sent (`seen`): all it could learn of a game.
 */
async function startImpostor(
  lie: { now: Lie; revealHeld?: Promise<void> },
  seen: EquityRequest[],
): Promise<{ address: string; stop(): void }> {
  const server = new Server();
  const implementation = {
    equity: (call: ServerUnaryCall<EquityRequest, EquityResponse>, done: sendUnaryData<EquityResponse>) => {
      if (lie.now === "away") return done({ code: status.UNAVAILABLE, details: "draining" });
      seen.push(call.request);
      const { hands, board, targetRtp = 0 } = call.request;
      const answer = () => done(null, { handOdds: told(truePanels(hands, board, targetRtp), lie.now) });
      if (board.length > 0 && lie.revealHeld) void lie.revealHeld.then(answer);
      else answer();
    },
  };
  server.addService(OddsServiceService, implementation as unknown as UntypedServiceImplementation);
  const port = await freePort();
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, serverCredentials(tlsAs("odds")), (error) =>
      error ? reject(error) : resolve(),
    ),
  );
  return { address: `127.0.0.1:${port}`, stop: () => server.forceShutdown() };
}

test("an odds service that overprices a hand or names a losing hand the winner is refused; nothing is stored or paid", async (t) => {
  const cluster = await startTableCluster({ tables: 0 });
  const lie: { now: Lie } = { now: "none" };
  const seen: EquityRequest[] = [];
  const impostor = await startImpostor(lie, seen);
  try {
    // LOG_LEVEL fatal: each refusal is logged as an error, on purpose here.
    const metricsPort = await freePort();
    const table: Table = (
      await cluster.startTable({ ODDS_ADDR: impostor.address, LOG_LEVEL: "fatal", METRICS_PORT: String(metricsPort) })
    ).client;
    const state = async (): Promise<TableState> => (await table.getState({ caller: admin(), tableId: 1 })).state!;
    const advance = (caller: Caller) => table.advance({ caller, tableId: 1 });
    const player = await newPlayer(cluster, "mark");
    const sit = await table.sit({ caller: player, tableId: 1, buyInCents: 10_000, idempotencyKey: "sit" });
    t.true(sit.acknowledged);

    // Away: the advance is refused as the odds service's outage, named for the client.
    lie.now = "away";
    const away = await advance(player).then(
      () => null,
      (error: ServiceError) => error,
    );
    t.deepEqual([away?.code, away?.details], [status.UNAVAILABLE, "odds service unavailable"]);
    t.true(away !== null && madeFromDomainError(away), "a message the gateway shows");
    t.is((await state()).gameState, GameState.GAME_STATE_STATUS_START, "no deal stored");

    // The deal's hole prices: the favourite paying 100.0 more than its chances.
    lie.now = "overprice the favourite";
    t.is(await statusOf(advance(player)), status.INTERNAL);
    t.is((await state()).gameState, GameState.GAME_STATE_STATUS_START, "no deal stored");

    // True answers: the deal and the flop go through, and the player backs every live hand at the flop.
    lie.now = "none";
    await advance(player);
    const flop = (await advance(player)).state!;
    const live = flop.handOdds.filter((p) => p.bettingStage === 1 && p.oddsTenths > 0);
    for (const panel of live) {
      const bet = { caller: player, tableId: 1, seatIndex: sit.seatId, handIndex: panel.handIndex };
      t.true((await table.bet({ ...bet, betAmountCents: 100, idempotencyKey: `bet-${panel.handIndex}` })).acknowledged);
    }

    // The turn's prices overstated, then the river's winner forged: each refused, the state unchanged.
    lie.now = "overprice the favourite";
    t.is(await statusOf(advance(player)), status.INTERNAL);
    t.is((await state()).gameState, GameState.GAME_STATE_STATUS_FLOP);
    lie.now = "none";
    await advance(player);
    lie.now = "a loser wins at the river";
    const seatBefore = (await state()).seats.find((seat) => seat.playerId === "mark")!.seatBalanceCents;
    t.is(await statusOf(advance(player)), status.INTERNAL);
    const stillTurn = await state();
    t.is(stillTurn.gameState, GameState.GAME_STATE_STATUS_TURN, "no river stored");
    t.is(stillTurn.seats.find((seat) => seat.playerId === "mark")!.seatBalanceCents, seatBefore, "nothing paid");
    // The river's card has reached the odds service, so the turn takes no more bets, the advance failed or not.
    const liveAtTurn = stillTurn.handOdds.find((p) => p.bettingStage === 2 && p.oddsTenths > 0)!;
    const seatIndex = stillTurn.seats.find((seat) => seat.playerId === "mark")!.seatId;
    const late = { caller: player, tableId: 1, seatIndex, handIndex: liveAtTurn.handIndex, betAmountCents: 100 };
    t.is(await statusOf(table.bet({ ...late, idempotencyKey: "late" })), status.FAILED_PRECONDITION);

    // The true river settles as the cards say.
    lie.now = "none";
    const river = (await advance(player)).state!;
    t.is(river.gameState, GameState.GAME_STATE_STATUS_RIVER);
    const truth = truePanels(river.hands, river.board, DEFAULT_TARGET_RTP).map((p) => p.handStatus);
    t.deepEqual(
      river.handOdds.filter((p) => p.bettingStage === -1).map((p) => p.handStatus),
      truth,
    );
    // All the odds service was sent: this game's hole cards and a board the table was revealing, never
    // the deck (a deal is priced as Equity of the hole cards on no board).
    t.deepEqual([...new Set(seen.map((request) => request.board.length))].sort(), [0, 3, 4, 5]);
    for (const request of seen) {
      t.deepEqual(request.hands, river.hands);
      t.deepEqual(request.board, river.board.slice(0, request.board.length));
    }
    t.true((await balanceOf(cluster, "mark")) < 100_000, "the sit is still on the table");
    // Each refusal counted, for operators to alert on.
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    t.regex(metrics, /^table_odds_answers_refused_total 3$/m);
    const check = await moneyCheck(cluster);
    t.true(check.conserved, JSON.stringify(check.detail));
  } finally {
    impostor.stop();
    await cluster.stop();
  }
});

// The caller's call ends (its client gave up, its deadline passed) while the odds service prices the
// next card: the stage's betting is already closed, so the reveal is made all the same. Before, the
// odds call ended with the caller's and the stage stayed closed, its bets waiting, until someone
// advanced again.
test("a reveal whose caller has gone once its stage's betting closed is still made", async (t) => {
  const cluster = await startTableCluster({ tables: 0 });
  const lie: { now: Lie; revealHeld?: Promise<void> } = { now: "none" };
  const impostor = await startImpostor(lie, []);
  try {
    const table = (await cluster.startTable({ ODDS_ADDR: impostor.address })).client;
    const player = await newPlayer(cluster, "gone");
    t.true((await table.sit({ caller: player, tableId: 1, buyInCents: 10_000, idempotencyKey: "sit" })).acknowledged);
    await table.advance({ caller: player, tableId: 1 }); // the deal: STATUS_HOLE

    // The odds service answers the flop only once the test lets it, after the caller's call has ended.
    let answerReveal = () => {};
    lie.revealHeld = new Promise<void>((resolve) => (answerReveal = resolve));
    t.is(
      await statusOf(table.advance({ caller: player, tableId: 1 }, { deadlineMs: 2_000 })),
      status.DEADLINE_EXCEEDED,
    );
    const state = async () => (await table.getState({ caller: admin(), tableId: 1 })).state!;
    t.like(
      await state(),
      { gameState: GameState.GAME_STATE_STATUS_HOLE, bettingOpen: false },
      "closed, then the call ended",
    );
    answerReveal();
    let reached = await state();
    for (let waited = 0; reached.gameState === GameState.GAME_STATE_STATUS_HOLE && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reached = await state();
    }
    t.like(reached, { gameState: GameState.GAME_STATE_STATUS_FLOP, bettingOpen: true });
  } finally {
    impostor.stop();
    await cluster.stop();
  }
});
