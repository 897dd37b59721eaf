// Every game the odds service deals is dealt from a committed deck: the deal and each bulk game
// carry their seed and commitment, and the verifier accepts exactly the cards they show.
import test from "ava";
import { committedBulkGame } from "../src/domain/bulk.js";
import { committedDeal } from "../src/domain/deal.js";
import { InvalidOddsRequestError } from "@pokerodds/common/poker/errors";
import { commitDeck, seedCommitment, verifyGame } from "../src/domain/provably-fair.js";

test("a committed deal verifies from its seed, and its remaining deck is the derived one", (t) => {
  for (const n of [2, 4, 6]) {
    const result = committedDeal(n, 0.97, `T1-${n}`);
    t.is(result.gameId, `T1-${n}`);
    t.is(result.seedCommitment, seedCommitment(result.serverSeed));
    const board = result.remainingDeck.slice(0, 5);
    t.deepEqual(
      verifyGame({
        seed: result.serverSeed,
        commitment: result.seedCommitment,
        gameId: result.gameId,
        hands: result.hands,
        board,
      }),
      { ok: true },
    );
    // Another game id with the same seed gives another deck: the id is part of the derivation.
    t.false(
      verifyGame({
        seed: result.serverSeed,
        commitment: result.seedCommitment,
        gameId: "T1-0",
        hands: result.hands,
        board,
      }).ok,
    );
  }
});

test("every deal has a fresh seed", (t) => {
  const seeds = new Set(Array.from({ length: 50 }, () => committedDeal(2, 0.97, "DEAL-x").serverSeed));
  t.is(seeds.size, 50);
});

test("a committed bulk game verifies from its seed with its whole board", (t) => {
  const game = committedBulkGame(3, 4, 0.97);
  t.is(game.gameId, "BULK-0003");
  t.deepEqual(
    verifyGame({
      seed: game.serverSeed,
      commitment: game.seedCommitment,
      gameId: game.gameId,
      hands: game.hands,
      board: game.board,
    }),
    { ok: true },
  );
});

test("a game id outside the procedure's alphabet is a request error, not a crash", (t) => {
  for (const gameId of ["", "has space", "x".repeat(129), "é"]) {
    t.throws(() => commitDeck(gameId), { instanceOf: InvalidOddsRequestError });
  }
});
