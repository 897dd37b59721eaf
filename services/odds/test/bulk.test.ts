import test from "ava";
import { InvalidArgumentError } from "@pokerodds/common/errors";
import { type Card, fullDeck, parseCard, parseHand } from "@pokerodds/common/poker/cards";
import { type BulkGame, bulkGameId, generateBulkGame, validateBulkRequest } from "../src/domain/bulk.js";
import { InvalidOddsRequestError } from "@pokerodds/common/poker/errors";
import { evaluateCards } from "@pokerodds/common/poker/evaluator";
import { favouriteIndex, roundPercent } from "@pokerodds/common/poker/pricing";
import { randomDeck } from "./helpers/random-deck.js";

const STAGES = [0, 1, 2, -1];
const BOARD_SHOWN: Record<number, number> = { 0: 0, 1: 3, 2: 4, [-1]: 5 };

/** Every structural and consistency rule a bulk game must satisfy, checked independently. */
function checkGame(t: import("ava").ExecutionContext, game: BulkGame, n: number, rtp: number): void {
  t.is(game.hands.length, n);
  t.is(game.board.length, 5);
  const hands = game.hands.map((h) => [...parseHand(h)]);
  const board = game.board.map(parseCard);
  const dealt = [...hands.flat(), ...board];
  t.is(new Set(dealt).size, 2 * n + 5, "no card appears twice");

  const infos = game.handStageInfoList;
  t.is(infos.length, 4 * n);
  t.deepEqual(
    infos.map((i) => [i.bettingStage, i.handIndex]),
    STAGES.flatMap((s) => Array.from({ length: n }, (_, h) => [s, h])),
  );

  for (const stage of STAGES) {
    const row = infos.filter((i) => i.bettingStage === stage);
    const shown = board.slice(0, BOARD_SHOWN[stage]);
    // One favourite per stage, by the documented rule.
    const fav = favouriteIndex(row.map((i) => ({ winPercent: i.percentWin, drawPercent: i.percentDraw })));
    t.deepEqual(
      row.map((i) => i.statusIsFavourite),
      row.map((_, h) => h === fav),
    );
    t.true(fav >= 0);
    for (const info of row) {
      for (const v of Object.values(info)) if (typeof v === "number") t.true(Number.isFinite(v));
      t.true(info.percentWin >= 0 && info.percentWin <= 100 && info.percentDraw >= 0 && info.percentDraw <= 100);
      t.is(info.statusIsWinner, stage === -1 && (info.percentWin > 0 || info.percentDraw > 0));
      if (info.percentWin > 0) {
        // oddsActual is 1 / the dead-heat share, which lies between the win alone and the win
        // plus half the draws (the percentages are rounded to 4 decimals).
        const sharePercent = 100 / info.oddsActual;
        t.true(sharePercent >= info.percentWin - 0.00005 - 1e-9, `${sharePercent} < ${info.percentWin}`);
        t.true(sharePercent <= info.percentWin + info.percentDraw / 2 + 0.0001 + 1e-9);
        // The displayed odds return the target within the rounding: |odds x share - rtp| <= 0.05 x share.
        t.true(Math.abs(info.actualRtp - rtp) <= 0.05 / info.oddsActual + 1e-12, `actualRtp ${info.actualRtp}`);
        t.true(Math.abs(info.oddsRounded - info.oddsMargin) <= 0.05 + 1e-9);
      } else t.is(info.oddsRounded, 0);
      if (stage === 0) {
        t.is(info.bestFiveCards, null);
        t.is(info.handDescShort, null);
        t.is(info.handDescLong, null);
        continue;
      }
      const available = [...hands[info.handIndex]!, ...shown];
      t.regex(info.bestFiveCards ?? "", /^[2-9TJQKA][cdhs]( [2-9TJQKA][cdhs]){4}$/);
      const five = info.bestFiveCards!.split(" ").map(parseCard);
      t.is(new Set(five).size, 5);
      t.true(
        five.every((c) => available.includes(c)),
        "best five come from hole + board so far",
      );
      t.is(evaluateCards(five), evaluateCards(available), "and are the best five");
      t.truthy(info.handDescShort);
      t.truthy(info.handDescLong);
    }
    // Equities are a partition of the boards: outright wins never exceed 100 %.
    t.true(row.reduce((sum, i) => sum + i.percentWin, 0) <= 100.001);
  }

  // River: flags and percentages agree with an evaluation of the seven-card hands.
  const values = hands.map((h) => evaluateCards([...h, ...board]));
  const top = Math.max(...values);
  const winners = values.filter((v) => v === top).length;
  infos
    .filter((i) => i.bettingStage === -1)
    .forEach((info, h) => {
      const wins = values[h] === top;
      t.is(info.statusIsWinner, wins);
      t.is(info.percentWin, wins && winners === 1 ? 100 : 0);
      t.is(info.percentDraw, wins && winners > 1 ? 100 : 0);
      t.is(info.statusCantLose, wins);
      t.is(info.statusBestRtp, wins && winners === 1);
      t.is(info.oddsRounded, wins && winners === 1 ? Math.floor(rtp * 10 + 0.5) / 10 : 0);
    });

  // Turn: percentages agree with an independent enumeration of the rivers.
  const used = new Set(dealt.slice(0, 2 * n + 4));
  const turn = board.slice(0, 4);
  const win = hands.map(() => 0);
  const draw = hands.map(() => 0);
  const share = hands.map(() => 0);
  let rivers = 0;
  for (let river: Card = 0; river < 52; river++) {
    if (used.has(river)) continue;
    rivers++;
    const v = hands.map((hand) => evaluateCards([...hand, ...turn, river]));
    const best = Math.max(...v);
    const at = v.flatMap((x, i) => (x === best ? [i] : []));
    if (at.length === 1) win[at[0]!]!++;
    else for (const i of at) draw[i]!++;
    for (const i of at) share[i]! += 1 / at.length;
  }
  infos
    .filter((i) => i.bettingStage === 2)
    .forEach((info, h) => {
      t.is(info.percentWin, roundPercent((100 * win[h]!) / rivers));
      t.is(info.percentDraw, roundPercent((100 * draw[h]!) / rivers));
      if (info.percentWin > 0) t.true(Math.abs(info.oddsActual * (share[h]! / rivers) - 1) < 1e-12);
    });
}

test("shuffled bulk games of 3 and 4 hands satisfy every rule", (t) => {
  for (const [index, n] of [
    [1, 3],
    [2, 3],
    [3, 4],
  ] as const) {
    const game = generateBulkGame(index, n, 0.97, randomDeck());
    t.is(game.gameId, bulkGameId(index));
    checkGame(t, game, n, 0.97);
  }
});

test("a fixed deck: deal order, board order and a three-way tie of full houses", (t) => {
  // Unshuffled deck 2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h ...: round-robin hole cards, then the board.
  const game = generateBulkGame(7, 3, 0.95, fullDeck());
  t.is(game.gameId, "BULK-0007");
  t.deepEqual(game.hands, ["2c2s", "2d3c", "2h3d"]);
  t.deepEqual(game.board, ["3h", "3s", "4c", "4d", "4h"]);
  checkGame(t, game, 3, 0.95);
  // Every hand plays fours full of threes from the board: all tie, all WINNERs, nobody priced.
  const river = game.handStageInfoList.slice(9);
  t.deepEqual(
    river.map((i) => [i.percentWin, i.percentDraw, i.oddsRounded, i.statusIsWinner, i.statusBestRtp]),
    Array.from({ length: 3 }, () => [0, 100, 0, true, false]),
  );
  t.deepEqual(
    river.map((i) => i.statusIsFavourite),
    [true, false, false],
  );
  t.true(river.every((i) => i.handDescShort === "Full House"));
  t.true(river.every((i) => i.bestFiveCards!.startsWith("4")));
});

test("a fixed deck with a sole river winner", (t) => {
  // Round-robin for 3 hands: hand h gets positions h and 3 + h; the board is positions 6..10.
  const top = "As Ks 2d Ah Kh 2h Ad 2c 7h 9c 2s".split(" ").map(parseCard);
  const game = generateBulkGame(12, 3, 0.97, [...top, ...fullDeck().filter((c) => !top.includes(c))]);
  t.deepEqual(game.hands, ["AsAh", "KsKh", "2d2h"]);
  t.deepEqual(game.board, ["Ad", "2c", "7h", "9c", "2s"]);
  checkGame(t, game, 3, 0.97);
  const river = game.handStageInfoList.slice(9);
  t.deepEqual(
    river.map((i) => [i.percentWin, i.statusIsWinner, i.oddsActual, i.oddsRounded, i.handDescShort]),
    [
      [0, false, 0, 0, "Full House"],
      [0, false, 0, 0, "Two Pair"],
      [100, true, 1, 1, "Four of a Kind"],
    ],
  );
  t.is(river[2]!.bestFiveCards, "2s 2h 2d 2c Ad");
});

test("bulkGameId is zero padded to four digits", (t) => {
  t.is(bulkGameId(1), "BULK-0001");
  t.is(bulkGameId(42), "BULK-0042");
  t.is(bulkGameId(200), "BULK-0200");
});

test("validateBulkRequest accepts the documented ranges and rejects the rest", (t) => {
  t.deepEqual(validateBulkRequest({ numberOfGames: 50, numberOfHands: 3, targetRtp: 0.97 }), {
    numberOfGames: 50,
    numberOfHands: 3,
    targetRtp: 0.97,
  });
  t.notThrows(() => validateBulkRequest({ numberOfGames: 1, numberOfHands: 4, targetRtp: 1e-9 }));
  t.notThrows(() => validateBulkRequest({ numberOfGames: 200, numberOfHands: 4, targetRtp: 0.999999 }));
  const bad = [
    { numberOfGames: 0, numberOfHands: 3, targetRtp: 0.97 },
    { numberOfGames: 201, numberOfHands: 3, targetRtp: 0.97 },
    { numberOfGames: 1.5, numberOfHands: 3, targetRtp: 0.97 },
    { numberOfGames: Number.NaN, numberOfHands: 3, targetRtp: 0.97 },
    { numberOfGames: 5, numberOfHands: 2, targetRtp: 0.97 },
    { numberOfGames: 5, numberOfHands: 5, targetRtp: 0.97 },
    { numberOfGames: 5, numberOfHands: 3.5, targetRtp: 0.97 },
    { numberOfGames: 5, numberOfHands: 3, targetRtp: 0 },
    { numberOfGames: 5, numberOfHands: 3, targetRtp: 1 },
    { numberOfGames: 5, numberOfHands: 3, targetRtp: Number.POSITIVE_INFINITY },
  ];
  for (const request of bad) {
    const error = t.throws(() => validateBulkRequest(request), { instanceOf: InvalidOddsRequestError });
    t.true(error instanceof InvalidArgumentError);
  }
});

test("generateBulkGame rejects bad arguments", (t) => {
  t.throws(() => generateBulkGame(0, 3, 0.97, fullDeck()), { instanceOf: InvalidOddsRequestError });
  t.throws(() => generateBulkGame(1, 5 as 3, 0.97, fullDeck()), { instanceOf: InvalidOddsRequestError });
  t.throws(() => generateBulkGame(1, 3, 1, fullDeck()), { instanceOf: InvalidOddsRequestError });
  t.throws(() => generateBulkGame(1, 3, 0.97, fullDeck().slice(2)), { instanceOf: RangeError });
});
