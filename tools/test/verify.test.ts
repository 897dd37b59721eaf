// `npm run verify`: a derived game verifies from flags or from the API's JSON; a changed card, a
// wrong commitment, a missing or other client seed, or bad usage does not, with the exit codes the
// command documents. A game record or a river state whose outcome (winners, a bet's payout, paidTo,
// the totals) the cards do not give does not verify either.
import { formatCard, parseCard, parseHand } from "@pokerodds/common/poker/cards";
import { evaluateCards } from "@pokerodds/common/poker/evaluator";
import { priceHands } from "@pokerodds/common/poker/stage-odds";
import { deriveDeck } from "@pokerodds/common/deck-derivation";
import { commitDeck, derivedCards, newServerSeed, seedCommitment } from "@pokerodds/odds/domain/provably-fair";
import test from "ava";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const VERIFY_CLI = fileURLToPath(new URL("../src/verify.ts", import.meta.url));

/** Runs the command as `npm run verify` would (tsx loading the source), with optional standard input. */
function verify(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ["--import=tsx/esm", VERIFY_CLI, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
    child.stdin!.end(input ?? "");
  });
}

function game(gameId = "T3-17") {
  const seed = newServerSeed();
  return { seed, commitment: seedCommitment(seed), gameId, ...derivedCards(seed, gameId, 4) };
}

/** A table game dealt with a client seed, as the table deals it: its hands and board from commitDeck's deck. */
function clientSeededGame(clientSeed: string, gameId = "T5-3", n = 3) {
  const { serverSeed, seedCommitment: commitment, deck } = commitDeck(gameId, newServerSeed(), clientSeed);
  const cards = deck.map(formatCard);
  const hands = Array.from({ length: n }, (_, h) => `${cards[h]}${cards[n + h]}`);
  return { seed: serverSeed, commitment, gameId, clientSeed, hands, board: cards.slice(2 * n, 2 * n + 5) };
}

/** The tables' default target RTP, which the records here name. */
const RTP = 0.97;

/** Every stage's panels the game reached (by its board), priced as the house prices them, as the API shows them. */
function handOddsOf(hands: readonly string[], board: readonly string[], rtp = RTP) {
  return [0, 3, 4, 5]
    .filter((cards) => cards <= board.length)
    .flatMap((cards) => priceHands(hands.map(parseHand), board.slice(0, cards).map(parseCard), rtp))
    .map(({ oddsTenths, ...panel }) => ({ ...panel, odds: oddsTenths / 10 }));
}

/** The odds a hand was offered at a betting stage, in tenths. */
function oddsTenthsAt(hands: readonly string[], board: readonly string[], hand: number, stage: number): number {
  const panel = handOddsOf(hands, board).find((p) => p.handIndex === hand && p.bettingStage === stage)!;
  return Math.round(panel.odds * 10);
}

/** Hands tied for the best seven cards, by the evaluator alone (higher value wins). */
function winnersOf(hands: readonly string[], board: readonly string[]): number[] {
  const values = hands.map((hand) => evaluateCards([...parseHand(hand), ...board.map(parseCard)]));
  const best = Math.max(...values);
  return values.flatMap((v, h) => (v === best ? [h] : []));
}

test("flags: a dealt game verifies, a changed card or commitment does not", async (t) => {
  const g = game();
  const flags = ["--seed", g.seed, "--commitment", g.commitment, "--game-id", g.gameId, "--hands", g.hands.join(",")];
  t.deepEqual(await verify([...flags, "--board", g.board.join("")]), { code: 0, stdout: "verified\n", stderr: "" });
  t.deepEqual(await verify([...flags, "--board", g.board.slice(0, 3).join(" ")]), {
    code: 0,
    stdout: "verified\n",
    stderr: "",
  });
  const swapped = [g.board[0], g.board[1], g.board[2], g.board[4], g.board[3]].join("");
  const changed = await verify([...flags, "--board", swapped]);
  t.is(changed.code, 1);
  t.regex(changed.stderr, /^NOT verified: the turn is /);
  const other = await verify([...flags.slice(0, 3), seedCommitment(newServerSeed()), ...flags.slice(4)]);
  t.is(other.code, 1);
  t.regex(other.stderr, /commitment/);
});

test("JSON: a table state on standard input, and a bulk response game by game", async (t) => {
  const g = game();
  const state = {
    gameId: g.gameId,
    serverSeed: g.seed,
    seedCommitment: g.commitment,
    hands: g.hands,
    flopCard1: g.board[0],
    flopCard2: g.board[1],
    flopCard3: g.board[2],
    turnCard: g.board[3],
    riverCard: null,
  };
  t.deepEqual(await verify(["--json", "-"], JSON.stringify(state)), { code: 0, stdout: "verified\n", stderr: "" });
  // A state whose shown turn card is not the deck's, with the true cards beside it under another name.
  const other = g.board[4]!;
  const twoBoards = await verify(
    ["--json", "-"],
    JSON.stringify({ ...state, turnCard: other, board: g.board.slice(0, 4) }),
  );
  t.is(twoBoards.code, 1);
  t.regex(twoBoards.stderr, /^NOT verified: the JSON shows two boards: board \[.*\] and flopCard1\.\.riverCard \[/);
  const twoSeeds = await verify(["--json", "-"], JSON.stringify({ ...state, seed: "00".repeat(32) }));
  t.is(twoSeeds.code, 1);
  t.regex(twoSeeds.stderr, /^NOT verified: the JSON shows serverSeed and seed, and they differ/);

  const bulkGame = (x: ReturnType<typeof game>) => ({
    gameId: x.gameId,
    serverSeed: x.seed,
    seedCommitment: x.commitment,
    hands: x.hands,
    ...Object.fromEntries(x.board.map((card, i) => [`bc${i + 1}`, card])),
  });
  const good = game("BULK-0001");
  const bad = game("BULK-0002");
  const games = [bulkGame(good), { ...bulkGame(bad), hands: [...bad.hands].reverse() }];
  const result = await verify(["--json", "-"], JSON.stringify({ games }));
  t.is(result.code, 1);
  t.is(result.stdout, "BULK-0001: verified\n");
  t.regex(result.stderr, /^BULK-0002: NOT verified: hand 0 is /);
});

test("JSON: a deal result's remaining deck is checked too, so a changed flop card does not verify", async (t) => {
  const g = game("DEAL-1");
  const remainingDeck = deriveDeck(g.seed, g.gameId)
    .slice(2 * g.hands.length)
    .map(formatCard);
  const deal = { gameId: g.gameId, serverSeed: g.seed, seedCommitment: g.commitment, hands: g.hands, remainingDeck };
  t.deepEqual(await verify(["--json", "-"], JSON.stringify(deal)), { code: 0, stdout: "verified\n", stderr: "" });
  const tampered = [remainingDeck[43]!, ...remainingDeck.slice(1, 43), remainingDeck[0]!];
  const result = await verify(["--json", "-"], JSON.stringify({ ...deal, remainingDeck: tampered }));
  t.is(result.code, 1);
  t.regex(result.stderr, /^NOT verified: card 1 of the remaining deck is /);
});

test("flags: a game dealt with a client seed verifies with it only, not without it or with another", async (t) => {
  const g = clientSeededGame("player-chosen_42");
  t.not(g.hands.join(), derivedCards(g.seed, g.gameId, 3).hands.join(), "the client seed changes the deck");
  const flags = ["--seed", g.seed, "--commitment", g.commitment, "--game-id", g.gameId, "--hands", g.hands.join(",")];
  const withBoard = [...flags, "--board", g.board.join("")];
  t.deepEqual(await verify([...withBoard, "--client-seed", g.clientSeed]), {
    code: 0,
    stdout: "verified\n",
    stderr: "",
  });
  const without = await verify(withBoard);
  t.is(without.code, 1);
  t.regex(without.stderr, /^NOT verified: hand 0 is /);
  const other = await verify([...withBoard, "--client-seed", "player-chosen_43"]);
  t.is(other.code, 1);
  t.regex(other.stderr, /^NOT verified: hand 0 is /);
  const malformed = await verify([...withBoard, "--client-seed", "not allowed!"]);
  t.is(malformed.code, 1);
  t.regex(malformed.stderr, /^NOT verified: the client seed must be 1 to 64 letters, digits, - or _/);
});

test("JSON: a table state and a game record carry the client seed; null or another one does not verify", async (t) => {
  const g = clientSeededGame("aB3-_x", "T2-9", 4);
  const state = {
    gameId: g.gameId,
    gameState: "STATUS_RIVER",
    serverSeed: g.seed,
    seedCommitment: g.commitment,
    clientSeed: g.clientSeed,
    hands: g.hands,
    flopCard1: g.board[0],
    flopCard2: g.board[1],
    flopCard3: g.board[2],
    turnCard: g.board[3],
    riverCard: g.board[4],
  };
  t.deepEqual(await verify(["--json", "-"], JSON.stringify(state)), { code: 0, stdout: "verified\n", stderr: "" });
  for (const clientSeed of [null, "aB3-_y"]) {
    const result = await verify(["--json", "-"], JSON.stringify({ ...state, clientSeed }));
    t.is(result.code, 1, String(clientSeed));
    t.regex(result.stderr, /^NOT verified: hand 0 is /);
  }
  const { clientSeed: _omitted, ...withoutField } = state;
  t.is((await verify(["--json", "-"], JSON.stringify(withoutField))).code, 1, "no clientSeed field: none");

  // A line of GET /api/admin/games: the board as a list, clientSeed null when the deal named none.
  const plain = game("T2-10");
  const record = (x: { seed: string; commitment: string; gameId: string; hands: string[]; board: string[] }) => ({
    gameId: x.gameId,
    outcome: "SETTLED",
    serverSeed: x.seed,
    seedCommitment: x.commitment,
    hands: x.hands,
    board: x.board,
    winningHands: winnersOf(x.hands, x.board),
    handOdds: handOddsOf(x.hands, x.board),
    bets: [],
    ...{ stakes: 0, payouts: 0, refunds: 0, houseResult: 0 },
    ...{ targetRtp: RTP, dealtBy: "alice" },
    ...{ ...TIMES, firstBetAt: null },
  });
  for (const line of [
    { ...record(g), clientSeed: g.clientSeed },
    { ...record(plain), clientSeed: null },
  ]) {
    t.deepEqual(await verify(["--json", "-"], JSON.stringify(line)), {
      code: 0,
      stdout: "verified (cards and outcome)\n",
      stderr: "",
    });
  }
  const swapped = { ...record(plain), clientSeed: g.clientSeed };
  t.is((await verify(["--json", "-"], JSON.stringify(swapped))).code, 1, "a client seed the deal did not use");

  // Held to what the player kept: the commitment shown at the start, the client seed sent.
  const kept = (line: object, ...flags: string[]) => verify(["--json", "-", ...flags], JSON.stringify(line));
  const withSeed = { ...record(g), clientSeed: g.clientSeed };
  const keptFlags = ["--commitment", g.commitment, "--client-seed", g.clientSeed];
  t.is((await kept(withSeed, ...keptFlags)).code, 0, "the JSON's commitment and client seed are the ones kept");
  t.regex(
    (await kept(withSeed, "--commitment", plain.commitment)).stderr,
    new RegExp(`^NOT verified: the JSON's commitment is "${g.commitment}", not the ${plain.commitment} you kept`),
  );
  t.regex(
    (await kept({ ...record(plain), clientSeed: null }, "--client-seed", g.clientSeed)).stderr,
    new RegExp(`^NOT verified: the JSON's client seed is null, not the ${g.clientSeed} you sent`),
  );
});

test("usage errors exit 2", async (t) => {
  t.is((await verify([])).code, 2);
  t.is((await verify(["--seed", "00"])).code, 2);
  t.is((await verify(["--json", "-"], "not json")).code, 2);
  t.is((await verify(["--json", "-", "--seed", "00"], "{}")).code, 2);
  t.is((await verify(["--json", "-", "--hands", "AhKd,QsQc"], "{}")).code, 2);
  t.regex((await verify(["--json", "-", "--game-id", "T1-1"], "{}")).stderr, /--json takes the game from the JSON/);
  for (const rtp of ["1.5", "1", "0", "0.9x", "9e-1"]) {
    t.regex((await verify(["--json", "-", "--rtp", rtp], "{}")).stderr, /--rtp must be a number between 0 and 1/, rtp);
  }
  t.regex((await verify(["--rtp", "0.9", "--seed", "00"])).stderr, /--rtp is for game records, with --json/);
  const twice = await verify(["--json", "-", "--commitment", "00", "--commitment", "11"], "{}");
  t.is(twice.code, 2);
  t.regex(twice.stderr, /--commitment was given more than once/);
  // Well-formed usage, hostile content: refused by the verifier, exit 1.
  const hostile = await verify(["--seed", "zz", "--commitment", "00", "--game-id", "T1-1", "--hands", "AhKd,QsQc"]);
  t.is(hostile.code, 1);
  t.regex(hostile.stderr, /seed must be 64 hexadecimal digits/);
});

// docs/provably-fair.md's first vector, dealt from its seed: hand 2 (KhTs, Kings full of Tens) wins alone.
const VECTOR_SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

function vectorGame(gameId = "T1-1") {
  const dealt = commitDeck(gameId, VECTOR_SEED);
  return { ...dealt, ...derivedCards(VECTOR_SEED, gameId, 4) };
}

/** What the winning bet of exportLine (3.33 at the hole) pays, in units: floor(333 x odds tenths / (10 x k)) cents. */
function winnerPays(x: ReturnType<typeof vectorGame>, winningHands: readonly number[]): number {
  const tenths = oddsTenthsAt(x.hands, x.board, winningHands[0]!, 0);
  return Math.floor((333 * tenths) / (10 * winningHands.length)) / 100;
}

/** What rounding exportLine's winning bet down left, when it paid by the rules (else any: it fails before). */
function remainderOf(x: ReturnType<typeof vectorGame>, winningHands: readonly number[], pays: number) {
  const k = winningHands.length;
  const exact = 333 * oddsTenthsAt(x.hands, x.board, winningHands[0]!, 0);
  return { numerator: pays === winnerPays(x, winningHands) ? exact % (10 * k) : 0, denominator: 10 * k };
}

/** A settled game's stages: each bet of exportLine (at the hole, 12:00:04.120) within the hole's. */
const STAGES = [
  { bettingStage: 0, openedAt: "2026-11-23T12:00:01.000Z", closedAt: "2026-11-23T12:00:05.000Z" },
  { bettingStage: 1, openedAt: "2026-11-23T12:00:05.050Z", closedAt: "2026-11-23T12:00:07.000Z" },
  { bettingStage: 2, openedAt: "2026-11-23T12:00:07.050Z", closedAt: "2026-11-23T12:00:09.000Z" },
];

/** A settled game's times: dealt, its stages, its first bet (exportLine's) and its end. */
const TIMES = {
  stages: STAGES,
  dealtAt: STAGES[0]!.openedAt,
  firstBetAt: "2026-11-23T12:00:04.120Z",
  finishedAt: "2026-11-23T12:00:09.050Z",
};

/**
 * A line of GET /api/admin/games: at the hole, a losing bet of 5.00 and a winning one of 3.33, each
 * at the odds its hand was offered; `pays` what the winning one returned (by default the rules').
 */
function exportLine(x: ReturnType<typeof vectorGame>, winningHands: number[], pays = winnerPays(x, winningHands)) {
  const loser = [0, 1, 2, 3].find((h) => !winningHands.includes(h))!;
  const bet = (handIndex: number, betAmount: number, returned: number) => ({
    ...{ playerId: "alice", seatIndex: 1, handIndex, bettingStage: 0, betAmount },
    recordedOdds: oddsTenthsAt(x.hands, x.board, handIndex, 0) / 10,
    ...{ placedAt: "2026-11-23T12:00:04.120Z", returned, paidTo: returned === 0 ? "NONE" : "SEAT" },
  });
  const tableId = Number(/^T(\d+)-/.exec(x.gameId)![1]);
  return {
    ...{ tableId, gameId: x.gameId, version: 9, cursor: `${tableId}:9`, outcome: "SETTLED", numberOfHands: 4 },
    ...{ hands: x.hands, board: x.board, handOdds: handOddsOf(x.hands, x.board), winningHands },
    bets: [bet(loser, 5, 0), bet(winningHands[0]!, 3.33, pays)],
    ...{ stakes: 8.33, payouts: pays, refunds: 0, houseResult: Math.round(833 - pays * 100) / 100 },
    roundingRemainderCents: remainderOf(x, winningHands, pays),
    ...{ seedCommitment: x.seedCommitment, serverSeed: x.serverSeed, clientSeed: null },
    ...{ targetRtp: RTP, dealtBy: "alice" },
    ...TIMES,
  };
}

const json = (value: unknown) => verify(["--json", "-"], JSON.stringify(value));

test("outcome: a game record's winners, payouts, paidTo and totals are checked against the cards", async (t) => {
  const x = vectorGame();
  t.deepEqual(x.hands, ["3d9s", "5c4d", "KhTs", "2c3c"]);
  t.deepEqual(winnersOf(x.hands, x.board), [2]);
  const line = exportLine(x, [2]);
  t.deepEqual(await json(line), { code: 0, stdout: "verified (cards and outcome)\n", stderr: "" });
  const pays = line.payouts;
  const [losing, winning] = line.bets as [(typeof line.bets)[number], (typeof line.bets)[number]];
  const raised = { ...winning, recordedOdds: winning.recordedOdds + 1 };
  const raisedPays = Math.floor((333 * Math.round(raised.recordedOdds * 10)) / 10) / 100;
  const flopPanel = line.handOdds.findIndex((p) => p.bettingStage === 1);
  const riverWinner = line.handOdds.findIndex((p) => p.bettingStage === -1 && p.handIndex === 2);
  const riverLoser = line.handOdds.findIndex((p) => p.bettingStage === -1 && p.handIndex === 0);

  const cases: [string, unknown, RegExp][] = [
    [
      "winners",
      { ...line, winningHands: [0] },
      /^NOT verified: winningHands is \[0\], but the cards make it \[2\]: hand 2 \(KhTs: Full House/,
    ],
    [
      "a cent more",
      { ...line, bets: [losing, { ...winning, returned: (pays * 100 + 1) / 100 }], payouts: (pays * 100 + 1) / 100 },
      /^NOT verified: bets\[1\] \(hand 2, 3\.33 at [\d.]+\) returned [\d.]+, but the rules pay \(hand 2 .* wins\) /,
    ],
    [
      "paid to nobody",
      { ...line, bets: [losing, { ...winning, paidTo: "NONE" }] },
      /^NOT verified: bets\[1\]\.paidTo is NONE, but a bet that returned [\d.]+ is paid to SEAT or ACCOUNT/,
    ],
    [
      "house result",
      { ...line, houseResult: (line.houseResult * 100 + 1) / 100 },
      /^NOT verified: houseResult is -?[\d.]+, but the bets make it /,
    ],
    ["stakes", { ...line, stakes: 8.34 }, /^NOT verified: stakes is 8\.34, but the bets make it 8\.33/],
    [
      "a losing bet paid",
      { ...line, bets: [{ ...losing, returned: 21, paidTo: "ACCOUNT" }, winning] },
      /^NOT verified: bets\[0\] \(hand \d, 5\.00 at [\d.]+\) returned 21\.00, but the rules pay .* 0\.00/,
    ],
    [
      "odds raised, paid and totalled to match",
      {
        ...line,
        bets: [losing, { ...raised, returned: raisedPays }],
        payouts: raisedPays,
        houseResult: (833 - raisedPays * 100) / 100,
      },
      /^NOT verified: bets\[1\] records odds [\d.]+, but its stage offered hand 2 at [\d.]+$/m,
    ],
    [
      "a flop panel",
      { ...line, handOdds: line.handOdds.map((p, i) => (i === flopPanel ? { ...p, odds: 99.9 } : p)) },
      /^NOT verified: the flop panel of hand 0 shows odds 99\.9, but the cards make it [\d.]+ \(at a target RTP of 0\.97/,
    ],
    [
      "a river winner's odds",
      { ...line, handOdds: line.handOdds.map((p, i) => (i === riverWinner ? { ...p, odds: 9.9 } : p)) },
      /^NOT verified: the river panel of hand 2 shows odds 9\.9, but the cards make it 1 \(at a target RTP of 0\.97/,
    ],
    [
      "a river loser's percentage",
      { ...line, handOdds: line.handOdds.map((p, i) => (i === riverLoser ? { ...p, winPercentage: 40 } : p)) },
      /^NOT verified: the river panel of hand 0 shows winPercentage 40, but the cards make it 0 /,
    ],
    [
      "a bet's stage as a string",
      { ...line, bets: [{ ...losing, bettingStage: "0" }, winning] },
      /^NOT verified: bets\[0\]\.bettingStage is "0", but a bet is taken at stage 0, 1 or 2/,
    ],
    [
      "a settled game relabelled void, refunded to match",
      {
        ...line,
        ...{ outcome: "VOID", winningHands: [], payouts: 0, refunds: 8.33, houseResult: 0 },
        bets: line.bets.map((b) => ({ ...b, returned: b.betAmount, paidTo: "ACCOUNT" })),
      },
      /^NOT verified: outcome is VOID, but the board shows the river/,
    ],
    [
      "without its outcome fields",
      { ...line, outcome: undefined, winningHands: undefined },
      /^NOT verified: outcome is absent, but a game ends SETTLED or VOID/,
    ],
    [
      "without any total, a payout forged",
      {
        ...line,
        ...{ outcome: undefined, winningHands: undefined, stakes: undefined, payouts: undefined },
        ...{ refunds: undefined, houseResult: undefined, cursor: undefined },
        bets: [losing, { ...winning, returned: 9999.99 }],
      },
      /^NOT verified: outcome is absent, but a game ends SETTLED or VOID/,
    ],
    [
      "the rounding's remainder",
      { ...line, roundingRemainderCents: { numerator: 999, denominator: 10 } },
      /^NOT verified: roundingRemainderCents is \{"numerator":999,"denominator":10\}, but rounding the payouts down leaves \d+\/10 of a cent/,
    ],
    ["hands counted", { ...line, numberOfHands: 5 }, /^NOT verified: numberOfHands is 5, but the game has 4 hands/],
    [
      "without its river",
      { ...line, board: line.board.slice(0, 4) },
      /^NOT verified: outcome is SETTLED, but the board shows 4 cards, not the river's 5/,
    ],
    [
      "river panel",
      { ...line, handOdds: line.handOdds.map((p) => ({ ...p, handStatus: "LOSER" })) },
      /^NOT verified: the river shows hand 2 as LOSER, but the cards make it a WINNER/,
    ],
    ["outcome", { ...line, outcome: "WON" }, /^NOT verified: outcome is "WON", but a game ends SETTLED or VOID/],
  ];
  for (const [what, tampered, reason] of cases) {
    const result = await json(tampered);
    t.is(result.code, 1, what);
    t.is(result.stdout, "", what);
    t.regex(result.stderr, reason, what);
  }
});

test("outcome: a bet recorded at odds 0, on a hand its stage offered no odds on (it could not win), does not verify", async (t) => {
  const x = vectorGame();
  const line = exportLine(x, [2]);
  const dead = [0, 1, 2, 3].find((h) => oddsTenthsAt(x.hands, x.board, h, 2) === 0);
  if (dead === undefined) return t.fail("the vector's turn has a hand without odds");
  const deadBet = {
    ...line.bets[0]!,
    ...{ handIndex: dead, bettingStage: 2, betAmount: 1, recordedOdds: 0 },
    ...{ placedAt: "2026-11-23T12:00:08.000Z", returned: 0, paidTo: "NONE" },
  };
  const taken = {
    ...line,
    bets: [...line.bets, deadBet],
    stakes: 9.33,
    houseResult: Math.round(line.houseResult * 100 + 100) / 100,
  };
  const result = await json(taken);
  t.is(result.code, 1);
  t.regex(result.stderr, /^NOT verified: bets\[2\] was taken on hand \d at stage 2, where no odds were offered on it/);
});

test("outcome: a record's prices are checked at the target RTP it names, which --rtp may not contradict", async (t) => {
  const x = vectorGame("T1-7");
  const line = { ...exportLine(x, winnersOf(x.hands, x.board)), handOdds: handOddsOf(x.hands, x.board, 0.9), bets: [] };
  const noBets = { stakes: 0, payouts: 0, houseResult: 0, roundingRemainderCents: { numerator: 0, denominator: 10 } };
  const times = {
    stages: STAGES,
    dealtAt: STAGES[0]!.openedAt,
    firstBetAt: null,
    finishedAt: "2026-11-23T12:00:09.050Z",
  };
  const named = { ...line, ...noBets, ...times, targetRtp: 0.9 };
  const json = (record: object, ...flags: string[]) => verify(["--json", "-", ...flags], JSON.stringify(record));
  t.is(
    (await json(named)).stdout,
    "verified (cards and outcome, its odds at the target RTP of 0.9 it names)\n",
    "at the RTP it names, without --rtp, which it says",
  );
  t.is((await json(named, "--rtp", "0.9")).code, 0, "and with the same --rtp");
  t.regex(
    (await json(named, "--rtp", "0.97")).stderr,
    /^NOT verified: the game was priced at a target RTP of 0\.9, not 0\.97/,
  );
  t.regex(
    (await json({ ...named, targetRtp: 0.97 })).stderr,
    /^NOT verified: the hole panel of hand 0 shows odds [\d.]+, but the cards make it [\d.]+ \(at a target RTP of 0\.97/,
    "priced at 0.9, named 0.97",
  );
  for (const targetRtp of [1, 0, "0.9", -0.5, null, undefined]) {
    t.regex(
      (await json({ ...named, targetRtp })).stderr,
      /^NOT verified: targetRtp is .+, but a target RTP is a number between 0 and 1/,
      String(targetRtp),
    );
  }
});

test("JSON Lines: an export verifies line by line, each named by its game", async (t) => {
  const first = exportLine(vectorGame("T1-1"), winnersOf(vectorGame("T1-1").hands, vectorGame("T1-1").board));
  const second = { ...first, gameId: "T1-2", payouts: 0 };
  const result = await verify(["--json", "-"], `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
  t.is(result.code, 1);
  t.is(result.stdout, "T1-1: verified (cards and outcome)\n");
  t.regex(result.stderr, /^T1-2: NOT verified: /);
  const broken = await verify(["--json", "-"], `${JSON.stringify(first)}\n{"gameId":\n`);
  t.is(broken.code, 2);
  t.regex(broken.stderr, /line 2/);
  const pretty = await verify(["--json", "-"], JSON.stringify(first, null, 2));
  t.deepEqual(
    pretty,
    { code: 0, stdout: "verified (cards and outcome)\n", stderr: "" },
    "a document over several lines",
  );
});

test("outcome: a dead heat pays each tied winner's bet stake x odds / k, rounded down", async (t) => {
  const tied = Array.from({ length: 3000 }, (_, i) => vectorGame(`T9-${i + 1}`)).find(
    (x) => winnersOf(x.hands, x.board).length === 2,
  );
  if (tied === undefined) return t.fail("no two-way tie in 3000 derived games");
  const winners = winnersOf(tied.hands, tied.board);
  t.deepEqual(await json(exportLine(tied, winners)), {
    code: 0,
    stdout: "verified (cards and outcome)\n",
    stderr: "",
  });
  const undivided = await json(exportLine(tied, winners, winnerPays(tied, [winners[0]!])));
  t.is(undivided.code, 1);
  t.regex(undivided.stderr, /^NOT verified: bets\[1\] .* returned [\d.]+, but the rules pay \(.* tie\) /);
});

test("outcome: a river table state's panels, every stage's, and its bets' odds are checked against the cards", async (t) => {
  const x = vectorGame();
  const earlier = handOddsOf(x.hands, x.board).filter((p) => p.bettingStage !== -1);
  const river = (winner: number) =>
    [0, 1, 2, 3].map((handIndex) =>
      handIndex === winner
        ? { handIndex, bettingStage: -1, handStatus: "WINNER", winPercentage: 100, drawPercentage: 0, odds: 1 }
        : { handIndex, bettingStage: -1, handStatus: "LOSER", winPercentage: 0, drawPercentage: 0, odds: 0 },
    );
  const panels = (winner: number) => [...earlier, ...river(winner)];
  // As the API shows a bet in a state: its stake and odds, no return.
  const bet = (handIndex: number, bettingStage: number) => ({
    ...{ playerId: "alice", seatIndex: 1, handIndex, bettingStage, betAmount: 5 },
    recordedOdds: oddsTenthsAt(x.hands, x.board, handIndex, bettingStage) / 10,
  });
  const state = {
    ...{ gameId: x.gameId, gameState: "STATUS_RIVER", serverSeed: x.serverSeed, seedCommitment: x.seedCommitment },
    ...{ clientSeed: null, targetRtp: RTP, hands: x.hands, bets: [bet(2, 0), bet(0, 1)] },
    ...Object.fromEntries(
      ["flopCard1", "flopCard2", "flopCard3", "turnCard", "riverCard"].map((f, i) => [f, x.board[i]]),
    ),
  };
  const ok = { code: 0, stdout: "verified (cards, prices and bets' odds)\n", stderr: "" };
  t.deepEqual(await json({ ...state, handOdds: panels(2) }), ok);
  t.regex(
    (await json({ ...state, handOdds: panels(2), targetRtp: undefined })).stderr,
    /^NOT verified: targetRtp is absent, but a target RTP is a number between 0 and 1/,
  );
  const wrong = await json({ ...state, handOdds: panels(0) });
  t.is(wrong.code, 1);
  t.regex(
    wrong.stderr,
    /^NOT verified: the river shows hand 0 as WINNER, but the cards make it a LOSER: hand 2 \(KhTs/,
  );
  const missing = await json({ ...state, handOdds: [...earlier, ...river(2).slice(0, 3)] });
  t.regex(missing.stderr, /^NOT verified: the river panels do not show hand 3/);
  const unearned = await json({
    ...state,
    handOdds: [...earlier, ...river(2).map((p) => ({ ...p, drawPercentage: 0.5 }))],
  });
  t.regex(
    unearned.stderr,
    /^NOT verified: the river panel of hand 0 shows drawPercentage 0\.5, but the cards make it 0 /,
  );
  // The earlier stages' panels and each bet's odds, which a state shows too.
  const flopPanel = earlier.findIndex((p) => p.bettingStage === 1 && p.handIndex === 0);
  const mispriced = panels(2).map((p, i) => (i === flopPanel ? { ...p, odds: 99.9 } : p));
  t.regex(
    (await json({ ...state, handOdds: mispriced })).stderr,
    /^NOT verified: the flop panel of hand 0 shows odds 99\.9, but the cards make it [\d.]+ /,
  );
  const offered = bet(0, 1).recordedOdds;
  const betOdds = { ...state, handOdds: panels(2), bets: [bet(2, 0), { ...bet(0, 1), recordedOdds: offered + 1 }] };
  t.regex(
    (await json(betOdds)).stderr,
    new RegExp(`^NOT verified: bets\\[1\\] records odds ${offered + 1}, but its stage offered hand 0 at ${offered}`),
  );
  // A state before the river shows no river panels: its cards only.
  t.deepEqual(await json({ ...state, gameState: "STATUS_TURN", riverCard: null, handOdds: [] }), {
    code: 0,
    stdout: "verified\n",
    stderr: "",
  });
});

test("outcome: a void game refunds every stake to the account, whatever its board", async (t) => {
  const x = vectorGame();
  const line = exportLine(x, [2]);
  const refund = (b: (typeof line.bets)[number]) => ({ ...b, returned: b.betAmount, paidTo: "ACCOUNT" });
  const voided = {
    ...line,
    outcome: "VOID",
    board: x.board.slice(0, 3),
    handOdds: handOddsOf(x.hands, x.board.slice(0, 3)),
    winningHands: [],
    bets: line.bets.map(refund),
    ...{ stakes: 8.33, payouts: 0, refunds: 8.33, houseResult: 0 },
    roundingRemainderCents: { numerator: 0, denominator: 1 },
    stages: [STAGES[0], { ...STAGES[1], closedAt: null }],
    finishedAt: "2026-11-23T12:00:06.000Z",
  };
  t.deepEqual(await json(voided), { code: 0, stdout: "verified (cards and outcome)\n", stderr: "" });
  // Voided after the flop's betting closed, its turn never shown (the last leave, or a stalled reveal):
  // verified, and the verdict says what the seed's cards would have made of the bets.
  t.deepEqual(winnersOf(x.hands, x.board), [2]);
  const stalledRecord = { ...voided, stages: [STAGES[0], STAGES[1]], finishedAt: "2026-11-23T12:00:08.000Z" };
  // Its board as a list, or as the one string verify also reads.
  for (const board of [stalledRecord.board, stalledRecord.board.join("")]) {
    const stalled = await json({ ...stalledRecord, board });
    t.is(stalled.code, 0);
    t.is(
      stalled.stdout.replace(/\(\w{4}: [^)]*\)/, "(…)"),
      `verified (cards and outcome; voided after betting closed, before the turn was shown: the seed deals ` +
        `${x.board[3]} ${x.board[4]} next, on which hand 2 (…) wins; its bets would have returned ` +
        `${winnerPays(x, [2]).toFixed(2)} against the 8.33 refunded)\n`,
    );
  }
  const cases: [string, unknown, RegExp][] = [
    [
      "kept a stake",
      { ...voided, bets: [voided.bets[0], { ...voided.bets[1], returned: 0, paidTo: "NONE" }] },
      /^NOT verified: bets\[1\] \(hand 2, 3\.33 at [\d.]+\) returned 0\.00, but a void refunds the stake, 3\.33/,
    ],
    ["refunds", { ...voided, refunds: 5 }, /^NOT verified: refunds is 5\.00, but the bets make it 8\.33/],
    [
      "winners",
      { ...voided, winningHands: [2] },
      /^NOT verified: winningHands is \[2\], but a void game has no winners/,
    ],
    [
      "to the seat",
      { ...voided, bets: [{ ...voided.bets[0], paidTo: "SEAT" }, voided.bets[1]] },
      /^NOT verified: bets\[0\]\.paidTo is SEAT, but a bet that returned 5\.00 is paid to ACCOUNT/,
    ],
    // The stages its board shows were priced: a void game's panels are checked as a settled one's.
    [
      "flop panels dropped",
      { ...voided, handOdds: voided.handOdds.filter((p) => p.bettingStage !== 1) },
      /^NOT verified: the flop shows 0 panels, but the game has 4 hands/,
    ],
    [
      "every panel dropped",
      { ...voided, handOdds: [] },
      /^NOT verified: the hole shows 0 panels, but the game has 4 hands/,
    ],
    [
      "a panel at no stage",
      { ...voided, handOdds: [...voided.handOdds, { ...voided.handOdds[0]!, bettingStage: 7 }] },
      /^NOT verified: the record shows a panel at bettingStage 7, no stage/,
    ],
  ];
  for (const [what, tampered, reason] of cases) {
    const result = await json(tampered);
    t.is(result.code, 1, what);
    t.regex(result.stderr, reason, what);
  }
});

test("times: every bet within its stage's time, from its cards to its close; only a void's last stage stays open", async (t) => {
  const x = vectorGame();
  const line = {
    ...exportLine(x, [2]),
    ...TIMES,
  };
  t.deepEqual(await json(line), { code: 0, stdout: "verified (cards and outcome)\n", stderr: "" });
  const placed = (placedAt: string) => ({ ...line, bets: [line.bets[0], { ...line.bets[1]!, placedAt }] });
  const cases: [string, unknown, RegExp][] = [
    [
      "a bet after its stage closed",
      placed("2026-11-23T12:00:05.001Z"),
      /^NOT verified: bets\[1\] was placed at 2026-11-23T12:00:05\.001Z, after its stage 0 closed/,
    ],
    [
      "a bet before its stage opened",
      placed("2026-11-23T12:00:00.999Z"),
      /^NOT verified: bets\[1\] .*before its stage opened/,
    ],
    [
      "a stage left out",
      { ...line, stages: STAGES.slice(0, 2) },
      /^NOT verified: stages lists 2, but a game that showed 5 board cards reached 3/,
    ],
    [
      "out of order",
      { ...line, stages: [STAGES[1], STAGES[0], STAGES[2]] },
      /^NOT verified: stages\[0\]\.bettingStage is 1, not 0/,
    ],
    [
      "a settled game's stage left open",
      { ...line, stages: [STAGES[0], STAGES[1], { ...STAGES[2], closedAt: null }] },
      /^NOT verified: stage 2 never closed, but only the last stage of a void game may be left open/,
    ],
    [
      "overlapping",
      { ...line, stages: [STAGES[0], { ...STAGES[1], openedAt: "2026-11-23T12:00:04.000Z" }, STAGES[2]] },
      /^NOT verified: stage 1 opened before stage 0 closed/,
    ],
    [
      "not a time",
      { ...line, stages: [{ ...STAGES[0], closedAt: "yesterday" }, STAGES[1], STAGES[2]] },
      /^NOT verified: stages\[0\] must have openedAt and closedAt times/,
    ],
    ["a list", { ...line, stages: "all of them" }, /^NOT verified: stages must be a list/],
    [
      "dealt at another time",
      { ...line, dealtAt: "2026-11-23T12:00:00.500Z" },
      /^NOT verified: dealtAt is "2026-11-23T12:00:00\.500Z", but the hole's stage opened with the deal, at 2026-11-23T12:00:01\.000Z/,
    ],
    [
      "stages dropped",
      { ...line, stages: [] },
      /^NOT verified: stages lists 0, but a game that showed 5 board cards reached 3/,
    ],
    ["stages left out", { ...line, stages: undefined }, /^NOT verified: stages must be a list/],
    [
      "the first bet's time changed",
      { ...line, firstBetAt: "2026-11-23T12:00:04.000Z" },
      /^NOT verified: firstBetAt is "2026-11-23T12:00:04\.000Z", but the first bet was placed at 2026-11-23T12:00:04\.120Z/,
    ],
    [
      "no first bet named",
      { ...line, firstBetAt: null },
      /^NOT verified: firstBetAt is null, but the first bet was placed at 2026-11-23T12:00:04\.120Z/,
    ],
    [
      "finished before its last close",
      { ...line, finishedAt: "2026-11-23T12:00:08.000Z" },
      /^NOT verified: finishedAt is "2026-11-23T12:00:08\.000Z", but the game ended after its last stage/,
    ],
  ];
  for (const [what, tampered, reason] of cases) {
    const result = await json(tampered);
    t.is(result.code, 1, what);
    t.regex(result.stderr, reason, what);
  }

  // Voided at the flop while it took bets: its stage is open to the end, and no bet comes after that.
  const flop = x.board.slice(0, 3);
  const refund = (b: (typeof line.bets)[number]) => ({ ...b, returned: b.betAmount, paidTo: "ACCOUNT" });
  const voided = {
    ...line,
    ...{ outcome: "VOID", board: flop, handOdds: handOddsOf(x.hands, flop), winningHands: [] },
    ...{ bets: line.bets.map(refund), payouts: 0, refunds: 8.33, houseResult: 0 },
    roundingRemainderCents: { numerator: 0, denominator: 1 },
    stages: [STAGES[0], { ...STAGES[1], closedAt: null }],
    finishedAt: "2026-11-23T12:00:06.000Z",
  };
  t.is((await json(voided)).code, 0, "a void's last stage open");
  const late = {
    ...voided,
    bets: [
      voided.bets[0],
      {
        ...voided.bets[1]!,
        bettingStage: 1,
        recordedOdds: oddsTenthsAt(x.hands, x.board, 2, 1) / 10,
        placedAt: "2026-11-23T12:00:06.500Z",
      },
    ],
  };
  t.regex(
    (await json(late)).stderr,
    /^NOT verified: bets\[1\] was placed at 2026-11-23T12:00:06\.500Z, after the game was voided/,
  );
});
