// The web client's provably fair verifier (web/src/fairness/verify.ts), run under Node, whose
// globalThis.crypto.subtle is the same WebCrypto API as the browser's. It is written from
// docs/provably-fair.md alone, so it is checked against that page's test vectors (without and with a
// client seed) and then against the server's reference implementation on random seeds, client
// seeds, game ids and tampered games.
import test from "ava";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { formatCard } from "@pokerodds/common/poker/cards";
import * as derivation from "../../common/src/deck-derivation.js";
import * as server from "../../services/odds/src/domain/provably-fair.js";
import {
  clientSeedVerdict,
  dealClientSeeds,
  isDealingState,
  newClientSeed,
} from "../../web/src/fairness/client-seed.js";
import {
  holdCommitment,
  holdCommitments,
  type HeldCommitment,
  type HeldCommitments,
} from "../../web/src/fairness/commitment.js";
import {
  commitmentOf,
  deriveDeck,
  effectiveSeedOf,
  type GameReveal,
  verifyAgainstHeld,
  verifyGame,
} from "../../web/src/fairness/verify.js";

// The test vector of docs/provably-fair.md, section 9, copied from the page.
const VECTOR = {
  seed: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
  commitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
  gameId: "T1-1",
  deck:
    "3d 5c Kh 2c 9s 4d Ts 3c Kc 5h Td Ks Tc As Jh 6c 5d 7c 4c 9c 2d Qc 9d Ac Ad 6d " +
    "4h Qh Qs 7s Ah Qd 3h 4s 2h Jc 7d 2s 6h 7h 8s 6s 8h Js 9h 3s Jd 5s Kd Th 8d 8c",
  hands: ["3d9s", "5c4d", "KhTs", "2c3c"],
  board: ["Kc", "5h", "Td", "Ks", "Tc"],
};

// Its second vector: the same game dealt with a client seed, copied from the page.
const CLIENT_VECTOR = {
  seed: VECTOR.seed,
  commitment: VECTOR.commitment,
  gameId: "T1-1",
  clientSeed: "player-chosen_42",
  effective: "fd11d8191daf22ba139ca7a690f00fca9ab17183245b849833fb8558bd51f96c",
  deck:
    "Qd 8c 5d Td 4d Qc 8d Tc Js 5c Kd 6d 6c 9h 8s 6h Qs Kh 9c 4s Kc Ks 3c 3d 5s 4c " +
    "2s 4h Jc Jh 7d 8h 2d 7s 3s As 6s 7h Ac Ah Jd 5h Ts 2c 9s Th 3h Qh 7c 2h Ad 9d",
  hands: ["Qd4d", "8cQc", "5d8d", "TdTc"],
  board: ["Js", "5c", "Kd", "6d", "6c"],
};

const hex32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString("hex"));
// Every admissible character, lengths up to the 128 limit: ":" and digits too, which also separate the counter.
const gameIdArb = fc.stringMatching(/^[\x21-\x7e]{1,128}$/);
// Every admissible client seed (section 1), up to the 64 limit.
const clientSeedArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);

/**
 * A game as the server deals it from a committed deck, mixed with a client seed or not, shown with a
 * board prefix of 0..5 cards.
 */
const dealtGame = fc
  .record({
    seed: hex32,
    gameId: gameIdArb,
    clientSeed: fc.option(clientSeedArb, { nil: null }),
    n: fc.integer({ min: 1, max: 23 }),
    boardLength: fc.nat({ max: 5 }),
  })
  .map(({ seed, gameId, clientSeed, n, boardLength }): GameReveal => {
    const { hands, board } = server.derivedCards(derivation.effectiveSeed(seed, clientSeed), gameId, n);
    const commitment = server.seedCommitment(seed);
    return { seed, commitment, gameId, clientSeed, hands, board: board.slice(0, boardLength) };
  });

test.serial("without WebCrypto (an insecure context) the verdict says so instead of throwing", async (t) => {
  const real = Object.getOwnPropertyDescriptor(globalThis, "crypto")!;
  Object.defineProperty(globalThis, "crypto", { value: {}, configurable: true });
  try {
    const result = await verifyGame({ ...VECTOR });
    t.false(result.ok);
    t.regex(result.ok ? "" : result.reason, /no WebCrypto .* https or on localhost/);
  } finally {
    Object.defineProperty(globalThis, "crypto", real);
  }
});

test("the documented test vector: commitment, deck order, and the dealt cards verify", async (t) => {
  t.is(await commitmentOf(VECTOR.seed), VECTOR.commitment);
  t.is((await deriveDeck(VECTOR.seed, VECTOR.gameId)).join(" "), VECTOR.deck);
  const result = await verifyGame({ ...VECTOR });
  t.true(result.ok);
  t.is(result.ok ? result.deck.join(" ") : "", VECTOR.deck);
  // Either case of hex names the same bytes.
  const upper = { ...VECTOR, seed: VECTOR.seed.toUpperCase(), commitment: VECTOR.commitment.toUpperCase() };
  t.true((await verifyGame(upper)).ok);
  t.true((await verifyGame({ ...VECTOR, board: VECTOR.board.slice(0, 3) })).ok, "a board prefix (the flop)");
});

test("the documented client seed vector: effective seed, deck order; only that client seed verifies", async (t) => {
  const { effective, deck, ...game } = CLIENT_VECTOR;
  t.is(await effectiveSeedOf(game.seed, game.clientSeed), effective);
  t.is(await effectiveSeedOf(game.seed.toUpperCase(), game.clientSeed), effective, "either case of the seed");
  t.is(await effectiveSeedOf(game.seed, null), game.seed, "without a client seed, the server seed itself");
  t.is(await commitmentOf(game.seed), game.commitment, "the commitment is of the server seed, not the effective one");
  t.is((await deriveDeck(effective, game.gameId)).join(" "), deck);
  const result = await verifyGame(game);
  t.true(result.ok, result.ok ? "" : result.reason);
  t.is(result.ok ? result.deck.join(" ") : "", deck);
  t.true((await verifyGame({ ...game, board: game.board.slice(0, 4) })).ok, "a board prefix (the turn)");
  // Not without it, not with another (section 8).
  const without = await verifyGame({ ...game, clientSeed: null });
  t.is(without.ok ? "verified" : without.reason, "hand 1 is Qd4d, but the deck deals it 3d9s");
  const altered = await verifyGame({ ...game, clientSeed: "player-chosen_43" });
  t.false(altered.ok);
  t.regex(
    altered.ok ? "" : altered.reason,
    /^hand 1 is Qd4d, but the deck deals it \w{4} \(mixed with the client seed "player-chosen_43"\)$/,
  );
  t.false(
    (await verifyGame({ ...VECTOR, clientSeed: game.clientSeed })).ok,
    "the first vector's cards with a client seed",
  );
  t.true((await verifyGame({ ...VECTOR, clientSeed: null })).ok, "a null client seed is none");
});

test("the same deck as the server's reference implementation, on random seeds and game ids", async (t) => {
  await fc.assert(
    fc.asyncProperty(hex32, gameIdArb, async (seed, gameId) => {
      t.is(await commitmentOf(seed), server.seedCommitment(seed));
      t.is(await commitmentOf(seed), createHash("sha256").update(Buffer.from(seed, "hex")).digest("hex"));
      t.deepEqual(await deriveDeck(seed, gameId), derivation.deriveDeck(seed, gameId).map(formatCard));
    }),
    { numRuns: 200 },
  );
});

test("the same effective seed as the server's, on random seeds and client seeds", async (t) => {
  await fc.assert(
    fc.asyncProperty(hex32, clientSeedArb, async (seed, clientSeed) => {
      t.is(await effectiveSeedOf(seed, clientSeed), derivation.effectiveSeed(seed, clientSeed));
    }),
    { numRuns: 200 },
  );
});

test("the page's client seeds are fresh, random and admissible, and sent with the deal only", (t) => {
  const seeds = Array.from({ length: 50 }, newClientSeed);
  for (const seed of seeds) t.regex(seed, /^[0-9a-f]{32}$/);
  t.is(new Set(seeds).size, seeds.length);
  t.true(isDealingState("STATUS_SETUP") && isDealingState("STATUS_START"));
  for (const state of ["STATUS_HOLE", "STATUS_FLOP", "STATUS_TURN", "STATUS_RIVER"]) t.false(isDealingState(state));
  // Every deal of one game sends the seed of its first, whatever answered that one; another game, a fresh one.
  const deals = dealClientSeeds("ann 1");
  const [c1, c2, c3] = ["c1", "c2", "c3"].map((c) => c.repeat(32));
  t.is(deals.sentFor("T1-1"), null);
  const first = deals.forDeal("T1-1", c1!);
  t.is(deals.sentFor("T1-1"), first);
  t.is(
    deals.forDeal("T1-1", c1!),
    first,
    "a second deal of the game (after a 409, a 429, a 503 or no answer): the same",
  );
  const next = deals.forDeal("T1-2", c2!);
  t.not(next, first, "another game's deal: a fresh one");
  t.is(deals.sentFor("T1-1"), first, "the game before is remembered, for its record's check");
  t.is(deals.sentFor("T1-2"), next);
  t.is(deals.forDeal("T1-1", c1!), first, "still the first, after another game's deal");
  const third = deals.forDeal("T1-3", c3!);
  t.is(deals.sentFor("T1-2"), null, "two games are remembered, not more: the two dealt last");
  t.is(deals.sentFor("T1-1"), first);
  t.is(deals.sentFor("T1-3"), third);
});

test("a game id shown again under another commitment is dealt with a fresh client seed: the house saw the first", (t) => {
  // A table restored from a backup deals its game ids again on new seeds: the seed this page sent
  // for T1-1 before is known to the house, which now commits after it.
  const deals = dealClientSeeds("bob 1");
  const first = deals.forDeal("T1-1", "c1".repeat(32));
  const again = deals.forDeal("T1-1", "d2".repeat(32));
  t.not(again, first);
  t.is(deals.sentFor("T1-1"), again, "the check judges the deck against the seed sent last");
  t.is(deals.forDeal("T1-1", "d2".repeat(32)), again, "and every deal under that commitment sends it");
});

test("a player's seed for a game outlives the table's screen; another player's or table's is its own", (t) => {
  const commitment = "c1".repeat(32);
  const first = dealClientSeeds("cat 1").forDeal("T1-1", commitment);
  // The screen left after a deal with no answer, and made again: the deal of the same game.
  const again = dealClientSeeds("cat 1");
  t.is(again.sentFor("T1-1"), first);
  t.is(again.forDeal("T1-1", commitment), first, "the same seed: the house never sees two");
  t.is(dealClientSeeds("dan 1").sentFor("T1-1"), null, "another player at the table sent none");
  t.is(dealClientSeeds("cat 2").sentFor("T1-1"), null, "nor did this player at another table");
});

test("a verified game vouches for its client seed only when it is the one this page sent, or the page did not deal", (t) => {
  t.is(
    clientSeedVerdict("c0ffee", "c0ffee", true),
    "The house committed to its seed before the client seed c0ffee was chosen, and the deck comes from both.",
  );
  t.is(
    clientSeedVerdict("c0ffee", null, false),
    "The deck comes from the server seed mixed with the client seed c0ffee.",
  );
  t.is(clientSeedVerdict(null, null, true), "No client seed was used: the deck comes from the server seed alone.");
  // Another seed than the one sent (or none) is what a house that dropped the player's seed would show.
  t.regex(
    clientSeedVerdict("house1", "c0ffee", true),
    /client seed house1, not the seed this page sent \(c0ffee\).*may have chosen/,
  );
  t.regex(clientSeedVerdict(null, "c0ffee", true), /server seed and no client seed, not the seed this page sent/);
});

test("every game the server deals verifies in the browser's verifier too", async (t) => {
  await fc.assert(
    fc.asyncProperty(dealtGame, async (game) => {
      t.deepEqual(server.verifyGame(game), { ok: true });
      t.true((await verifyGame(game)).ok);
    }),
    { numRuns: 150 },
  );
});

/** One thing changed in a dealt game, as a dishonest or broken server might. */
const tampered = fc
  .tuple(
    dealtGame,
    hex32,
    fc.nat(),
    fc.nat({ max: 51 }),
    fc.constantFrom("card", "seed", "commitment", "gameId", "clientSeed"),
    clientSeedArb,
  )
  .map(([game, otherSeed, where, card, what, otherClientSeed]): GameReveal => {
    const code = formatCard(card);
    const slots = [...game.hands.map((_, h) => `h${h}`), ...game.board.map((_, k) => `b${k}`)];
    const slot = slots[where % slots.length]!;
    if (what === "seed") return { ...game, seed: otherSeed, commitment: server.seedCommitment(otherSeed) };
    if (what === "commitment") return { ...game, commitment: server.seedCommitment(otherSeed) };
    if (what === "gameId") return { ...game, gameId: `${game.gameId.slice(0, 127)}x` };
    // Another client seed, or none in place of one, or one in place of none (may rarely be the same).
    if (what === "clientSeed")
      return { ...game, clientSeed: game.clientSeed === otherClientSeed ? null : otherClientSeed };
    const hands = [...game.hands];
    const board = [...game.board];
    if (slot.startsWith("h")) hands[Number(slot.slice(1))] = `${code}${hands[Number(slot.slice(1))]!.slice(2)}`;
    else board[Number(slot.slice(1))] = code;
    return { ...game, hands, board };
  });

test("on tampered games the browser's verdict is the server's", async (t) => {
  await fc.assert(
    fc.asyncProperty(tampered, async (game) => {
      const theirs = server.verifyGame(game).ok;
      const ours = await verifyGame(game);
      t.is(ours.ok, theirs, ours.ok ? "verified" : ours.reason);
    }),
    { numRuns: 300 },
  );
});

test("a failing check names the precise reason", async (t) => {
  const reason = async (game: GameReveal) => {
    const result = await verifyGame(game);
    return result.ok ? "verified" : result.reason;
  };
  const otherSeed = "ff".repeat(32);
  t.regex(
    await reason({ ...VECTOR, commitment: server.seedCommitment(otherSeed) }),
    /^SHA-256 of the revealed seed is 630dcd296.*not the commitment .*not the seed that was committed to$/,
  );
  t.is(
    await reason({ ...VECTOR, hands: ["3d9s", "5c4c", "KhTs", "2c3c"] }),
    "hand 2 is 5c4c, but the deck deals it 5c4d",
  );
  t.is(await reason({ ...VECTOR, board: ["Kc", "5h", "Td", "Ks", "Ts"] }), "the river is Ts, but the deck deals Tc");
  t.is(await reason({ ...VECTOR, board: ["Kc", "5h", "Td", "Kd"] }), "the turn is Kd, but the deck deals Ks");
  const otherGame = server.derivedCards(VECTOR.seed, "T1-2", 4).hands[0];
  t.is(
    await reason({ ...VECTOR, gameId: "T1-2" }),
    `hand 1 is 3d9s, but the deck deals it ${otherGame}`,
    "another game id",
  );
  t.regex(await reason({ ...VECTOR, seed: "00".repeat(31) }), /^the server seed must be 64 hexadecimal digits/);
  t.regex(await reason({ ...VECTOR, commitment: "xyz" }), /^the commitment must be 64 hexadecimal digits/);
  t.regex(await reason({ ...VECTOR, gameId: "T1 1" }), /^the game id must be 1 to 128 printable ASCII/);
  t.regex(await reason({ ...VECTOR, gameId: "T".repeat(129) }), /^the game id must be/);
  t.regex(await reason({ ...VECTOR, hands: ["3d9", "5c4d"] }), /^hand 1 is "3d9", not two card codes/);
  t.regex(await reason({ ...VECTOR, board: ["Kc", "5h", "1d"] }), /^the third flop card is "1d", not a card code/);
  t.regex(await reason({ ...VECTOR, hands: [] }), /^there must be 1 to 23 hands/);
  t.regex(
    await reason({ ...VECTOR, clientSeed: "not ok" }),
    /^the client seed must be 1 to 64 letters, digits, - or _/,
  );
  t.regex(await reason({ ...VECTOR, clientSeed: "" }), /^the client seed must be/);
  t.regex(await reason({ ...VECTOR, clientSeed: "x".repeat(65) }), /^the client seed must be/);
});

test("a game that reached the river is verified only with its whole board, and a record only with all its hands", async (t) => {
  const reason = async (game: GameReveal) => {
    const result = await verifyGame(game);
    return result.ok ? "verified" : result.reason;
  };
  const turn = VECTOR.board.slice(0, 4);
  t.is(await reason({ ...VECTOR, reachedRiver: true }), "verified");
  t.is(
    await reason({ ...VECTOR, board: VECTOR.board.slice(0, 3), reachedRiver: true }),
    "the game reached the river, but its board shows 3 of the 5 cards that decided its bets",
  );
  t.is(await reason({ ...VECTOR, board: turn, reachedRiver: false }), "verified", "a game voided at the turn");
  t.is(
    await reason({ ...VECTOR, reachedRiver: false }),
    "the game was voided before the river, but its board shows all 5 cards",
  );
  t.is(
    await reason({ ...VECTOR, hands: VECTOR.hands.slice(0, 3), numberOfHands: 4 }),
    "the game dealt 4 hands, but 3 are shown",
  );
});

test("a stand-alone deal checks the rest of the deck in order too", async (t) => {
  const seed = server.newServerSeed();
  const gameId = "DEAL-6f1c2a0e-8a54-4d7e-9a3b-2f7c1d9e0b11";
  const deck = derivation.deriveDeck(seed, gameId).map(formatCard);
  const n = 6;
  const hands = Array.from({ length: n }, (_, h) => `${deck[h]}${deck[n + h]}`);
  const game = {
    seed,
    commitment: server.seedCommitment(seed),
    gameId,
    hands,
    board: [],
    remainingDeck: deck.slice(2 * n),
  };
  t.true((await verifyGame(game)).ok);
  const swapped = [...game.remainingDeck];
  [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
  const result = await verifyGame({ ...game, remainingDeck: swapped });
  t.is(
    result.ok ? "" : result.reason,
    `card 1 of the remaining deck is "${deck[2 * n + 1]}", but the deck has ${deck[2 * n]}`,
  );
  t.false((await verifyGame({ ...game, remainingDeck: swapped.slice(1) })).ok);
});

test("at a table the seed is checked against the commitment held since the hole, not the river's", async (t) => {
  // The river state alone checks out: a new seed, its own commitment, and the cards it deals.
  const heldSeed = server.newServerSeed();
  const riverSeed = server.newServerSeed();
  const dealt = server.derivedCards(riverSeed, "T1-1", 4);
  const river = { seed: riverSeed, commitment: server.seedCommitment(riverSeed), gameId: "T1-1", ...dealt };
  t.true((await verifyGame(river)).ok);
  const result = await verifyAgainstHeld(river, server.seedCommitment(heldSeed));
  t.false(result.ok);
  t.regex(result.ok ? "" : result.reason, /^the commitment changed during the game: it was \w{12}… before the bets/);
  t.true((await verifyAgainstHeld(river, river.commitment.toUpperCase())).ok, "the same commitment in either case");
});

/** A table state as the commitment tracker sees it. */
const shown = (gameId: string, gameState: string, seedCommitment: string | null, bets: unknown[] = []) => ({
  gameId,
  gameState,
  seedCommitment,
  bets,
});

test("the page keeps the first commitment of each game and notices a different one", (t) => {
  const a = "aa".repeat(32);
  const b = "bb".repeat(32);
  let held: HeldCommitment | null = null;
  held = holdCommitment(held, shown("T1-1", "STATUS_START", null));
  t.is(held, null, "nothing before the deal");
  held = holdCommitment(held, shown("T1-1", "STATUS_HOLE", a));
  t.deepEqual(held, { gameId: "T1-1", commitment: a, seenAt: "STATUS_HOLE", betsBefore: 0, changedTo: null });
  t.is(holdCommitment(held, shown("T1-1", "STATUS_FLOP", a.toUpperCase())), held, "the same value in another case");
  t.is(holdCommitment(held, shown("T1-1", "STATUS_FLOP", null)), held, "a missing value proves nothing");
  const changed = holdCommitment(held, shown("T1-1", "STATUS_RIVER", b));
  t.deepEqual(changed, { gameId: "T1-1", commitment: a, seenAt: "STATUS_HOLE", betsBefore: 0, changedTo: b });
  t.is(holdCommitment(changed, shown("T1-1", "STATUS_RIVER", a)), changed, "going back does not undo the change");
  t.deepEqual(holdCommitment(changed, shown("T1-2", "STATUS_FLOP", b)), {
    gameId: "T1-2",
    commitment: b,
    seenAt: "STATUS_FLOP",
    betsBefore: 0,
    changedTo: null,
  });
  // A page opened at the hole after bets were placed did not see the commitment before them.
  t.like(holdCommitment(null, shown("T1-3", "STATUS_HOLE", a, [{}, {}])), { seenAt: "STATUS_HOLE", betsBefore: 2 });
  t.is(holdCommitment(changed, shown("T1-2", "STATUS_SETUP", null)), null, "the next game starts empty");

  // A table shows the commitment from the game's start, before the deal and its client seed: kept
  // from there, it must be the river's.
  let early: HeldCommitment | null = holdCommitment(null, shown("T1-4", "STATUS_START", a));
  t.deepEqual(early, { gameId: "T1-4", commitment: a, seenAt: "STATUS_START", betsBefore: 0, changedTo: null });
  for (const state of ["STATUS_HOLE", "STATUS_FLOP", "STATUS_TURN", "STATUS_RIVER"]) {
    t.is(holdCommitment(early, shown("T1-4", state, a)), early, `the same at the ${state}`);
  }
  early = holdCommitment(early, shown("T1-4", "STATUS_HOLE", b));
  t.like(early, { seenAt: "STATUS_START", commitment: a, changedTo: b }, "changed at the deal: flagged");
  t.like(holdCommitment(held, shown("T1-5", "STATUS_SETUP", b)), { gameId: "T1-5", seenAt: "STATUS_SETUP" });
});

test("when the table moves on, the game the page followed becomes the previous one, with what it kept", (t) => {
  const a = "aa".repeat(32);
  const b = "bb".repeat(32);
  let held: HeldCommitments = { current: null, previous: null };
  held = holdCommitments(held, shown("T1-1", "STATUS_START", a));
  held = holdCommitments(held, shown("T1-1", "STATUS_FLOP", b));
  t.deepEqual(held.previous, null, "no previous game yet");
  const followed = held.current;
  t.like(followed, { gameId: "T1-1", commitment: a, seenAt: "STATUS_START", changedTo: b });
  held = holdCommitments(held, shown("T1-2", "STATUS_START", b));
  t.is(held.previous, followed, "kept as it was, the change it saw included");
  t.like(held.current, { gameId: "T1-2", commitment: b });
  t.is(holdCommitments(held, shown("T1-2", "STATUS_HOLE", b)).previous, followed, "until the next game");
  held = holdCommitments(held, shown("T1-3", "STATUS_SETUP", null));
  t.like(held, { current: null, previous: { gameId: "T1-2" } });
  t.like(
    holdCommitments(held, shown("T1-4", "STATUS_SETUP", a)),
    { previous: { gameId: "T1-2" } },
    "a game never held is no previous one",
  );
});

test("a late state of an earlier game neither replaces the game held nor lets it be held afresh", (t) => {
  const [a, b, c] = ["aa", "bb", "cc"].map((byte) => byte.repeat(32)) as [string, string, string];
  let held: HeldCommitments = { current: null, previous: null };
  held = holdCommitments(held, shown("T1-7", "STATUS_START", b));
  held = holdCommitments(held, shown("T1-8", "STATUS_FLOP", a, [{}, {}, {}]));
  // An older game between two states of the one held: the game held keeps what this page saw first.
  held = holdCommitments(held, shown("T1-6", "STATUS_RIVER", c));
  held = holdCommitments(held, shown("T1-8", "STATUS_START", c));
  t.like(held.current, { gameId: "T1-8", commitment: a, seenAt: "STATUS_FLOP", betsBefore: 3, changedTo: c });
  // The game before, shown again (a replay), is checked against what was kept for it.
  held = holdCommitments(held, shown("T1-7", "STATUS_RIVER", c));
  t.like(held, {
    current: { gameId: "T1-8", commitment: a },
    previous: { gameId: "T1-7", commitment: b, changedTo: c },
  });
});
