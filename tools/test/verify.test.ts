// `npm run verify`: a derived game verifies from flags or from the API's JSON; a changed card, a
// wrong commitment, a missing or other client seed, or bad usage does not, with the exit codes the
// command documents.
import { formatCard } from "@pokerodds/odds/domain/cards";
import {
  commitDeck,
  deriveDeck,
  derivedCards,
  newServerSeed,
  seedCommitment,
} from "@pokerodds/odds/domain/provably-fair";
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
  });
  for (const line of [
    { ...record(g), clientSeed: g.clientSeed },
    { ...record(plain), clientSeed: null },
  ]) {
    t.deepEqual(await verify(["--json", "-"], JSON.stringify(line)), { code: 0, stdout: "verified\n", stderr: "" });
  }
  const swapped = { ...record(plain), clientSeed: g.clientSeed };
  t.is((await verify(["--json", "-"], JSON.stringify(swapped))).code, 1, "a client seed the deal did not use");
});

test("usage errors exit 2", async (t) => {
  t.is((await verify([])).code, 2);
  t.is((await verify(["--seed", "00"])).code, 2);
  t.is((await verify(["--json", "-"], "not json")).code, 2);
  t.is((await verify(["--json", "-", "--seed", "00"], "{}")).code, 2);
  t.is((await verify(["--json", "-", "--client-seed", "abc"], "{}")).code, 2);
  t.regex((await verify(["--json", "-", "--client-seed", ""], "{}")).stderr, /--json takes every field from the JSON/);
  // Well-formed usage, hostile content: refused by the verifier, exit 1.
  const hostile = await verify(["--seed", "zz", "--commitment", "00", "--game-id", "T1-1", "--hands", "AhKd,QsQc"]);
  t.is(hostile.code, 1);
  t.regex(hostile.stderr, /seed must be 64 hexadecimal digits/);
});
