// The odds endpoints through the real stack: gateway -> gRPC -> odds service workers.
import test from "ava";
import { startTestStack, type TestStack } from "../helpers/stack.js";
import { devToken } from "../helpers/tokens.js";

let stack: TestStack;
let token: string;

test.before(async () => {
  stack = await startTestStack();
  token = await devToken(stack.dataDir, "alice");
});
test.after.always(() => stack?.stop());

const post = (path: string, body?: unknown, bearer: string | null = token) =>
  fetch(`${stack.url}${path}`, {
    method: "POST",
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const CARD = /^[2-9TJQKA][cdhs]$/;

interface HandOdds {
  handIndex: number;
  bettingStage: number;
  handStatus: string;
  winPercentage: number;
  drawPercentage: number;
  odds: number;
}

test("health answers 200 with every check ok", async (t) => {
  const response = await fetch(`${stack.url}/api/health`);
  t.is(response.status, 200);
  const body = (await response.json()) as { status: string; checks: Record<string, string> };
  t.is(body.status, "ok");
  t.deepEqual(Object.keys(body.checks).sort(), ["database", "odds", "table", "wallet"]);
  t.true(Object.values(body.checks).every((value) => value === "ok"));
});

test("deal: four hands by default, 44 undealt cards, one favourite, displayed odds at 0.97", async (t) => {
  const response = await post("/api/deal", {});
  t.is(response.status, 200);
  const body = (await response.json()) as { hands: string[]; handOdds: HandOdds[]; remainingDeck: string[] };
  t.is(body.hands.length, 4);
  t.is(body.remainingDeck.length, 44);
  const cards = [...body.hands.flatMap((hand) => [hand.slice(0, 2), hand.slice(2)]), ...body.remainingDeck];
  t.is(new Set(cards).size, 52);
  t.true(cards.every((card) => CARD.test(card)));

  t.deepEqual(
    body.handOdds.map((odds) => odds.handIndex),
    [0, 1, 2, 3],
  );
  const best = Math.max(...body.handOdds.map((odds) => odds.winPercentage));
  const favourite = body.handOdds.findIndex((odds) => odds.winPercentage === best);
  for (const odds of body.handOdds) {
    t.is(odds.bettingStage, 0);
    t.is(odds.handStatus, odds.handIndex === favourite ? "IN_PLAY_FAVOURITE" : "IN_PLAY_BETTING_STAGE_ACTIVE");
    // Priced from the dead-heat share, which the panel does not show: it lies between the win plus
    // the draws split four ways and the win plus half the draws (give or take the rounding of the
    // percentages), so the odds lie between those prices, give or take a tenth.
    const price = (percent: number) => Math.round((100 / percent) * 0.97 * 10) / 10;
    if (odds.winPercentage === 0) t.is(odds.odds, 0);
    else {
      const low = price(odds.winPercentage + odds.drawPercentage / 2 + 0.0001) - 0.1 - 1e-9;
      const high = price(odds.winPercentage + odds.drawPercentage / 4 - 0.0001) + 0.1 + 1e-9;
      t.true(odds.odds >= low && odds.odds <= high, `odds ${odds.odds} vs ${low}..${high}`);
    }
  }
  // Outright wins and shared wins cannot exceed every board once.
  const total = body.handOdds.reduce((sum, odds) => sum + odds.winPercentage, 0);
  t.true(total <= 100.001);
});

test("deal: six hands leave 40 cards; the stray upper bound of 64 is refused", async (t) => {
  const six = (await (await post("/api/deal", { numberOfHands: 6 })).json()) as { remainingDeck: string[] };
  t.is(six.remainingDeck.length, 40);
  const refused = await post("/api/deal", { numberOfHands: 64 });
  t.is(refused.status, 400);
  t.truthy(((await refused.json()) as { error: string }).error);
});

test("deal and bulk need a token", async (t) => {
  t.is((await post("/api/deal", {}, null)).status, 401);
  t.is((await post("/api/games/bulk", {}, null)).status, 401);
});

interface StageInfo {
  handIndex: number;
  bettingStage: number;
  percentWin: number;
  percentDraw: number;
  percentWinOrDraw: number;
  oddsRounded: number;
  statusIsWinner: boolean;
  statusIsFavourite: boolean;
  bestFiveCards: string | null;
  handDescShort: string | null;
}

test("bulk: games with every stage priced, in the spec's order", async (t) => {
  const response = await post("/api/games/bulk", { numberOfGames: 3, numberOfHands: 4, targetRtp: 0.9 });
  t.is(response.status, 200);
  const body = (await response.json()) as {
    games: Array<
      { gameId: string; numberOfHands: number; numberOfBettingStages: number; hands: string[] } & Record<
        string,
        unknown
      >
    >;
    numberOfGames: number;
    numberOfHands: number;
    targetRtp: number;
    generatedAt: string;
  };
  t.is(body.numberOfGames, 3);
  t.is(body.numberOfHands, 4);
  t.is(body.targetRtp, 0.9);
  t.false(Number.isNaN(Date.parse(body.generatedAt)));
  t.deepEqual(
    body.games.map((game) => game.gameId),
    ["BULK-0001", "BULK-0002", "BULK-0003"],
  );
  for (const game of body.games) {
    t.is(game.numberOfBettingStages, 3);
    const board = ["bc1", "bc2", "bc3", "bc4", "bc5"].map((key) => game[key] as string);
    const cards = [...game.hands.flatMap((hand) => [hand.slice(0, 2), hand.slice(2)]), ...board];
    t.is(new Set(cards).size, 13);
    const infos = game.handStageInfoList as StageInfo[];
    t.is(infos.length, 16);
    t.deepEqual(
      infos.map((info) => `${info.bettingStage}:${info.handIndex}`),
      [0, 1, 2, -1].flatMap((stage) => [0, 1, 2, 3].map((hand) => `${stage}:${hand}`)),
    );
    for (const info of infos) {
      t.is(info.percentWinOrDraw, Math.round((info.percentWin + info.percentDraw) * 10) / 10);
      t.is(info.bestFiveCards === null, info.bettingStage === 0);
      t.is(info.handDescShort === null, info.bettingStage === 0);
      if (info.bettingStage !== -1) t.false(info.statusIsWinner);
    }
    const river = infos.filter((info) => info.bettingStage === -1);
    t.true(river.some((info) => info.statusIsWinner));
    t.is(infos.filter((info) => info.bettingStage === 0 && info.statusIsFavourite).length, 1);
  }
});

test("bulk: no body means the defaults (50 games of 3 hands at 0.97)", async (t) => {
  const response = await post("/api/games/bulk");
  t.is(response.status, 200);
  const body = (await response.json()) as { games: unknown[]; numberOfHands: number; targetRtp: number };
  t.is(body.games.length, 50);
  t.is(body.numberOfHands, 3);
  t.is(body.targetRtp, 0.97);
});

test("the API description is public and unknown routes are 404 JSON", async (t) => {
  const openapi = await fetch(`${stack.url}/api/openapi.json`);
  t.is(openapi.status, 200);
  t.regex(((await openapi.json()) as { openapi: string }).openapi, /^3\.1/);
  const missing = await fetch(`${stack.url}/api/nope`);
  t.is(missing.status, 404);
  t.truthy(((await missing.json()) as { error: string }).error);
});
