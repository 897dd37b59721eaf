// Provably fair decks (commit and reveal). Before any bet, the house publishes SHA-256 of a fresh
// secret seed; the deck order is a deterministic function of that seed and the game id; after the
// river the seed is revealed, and anyone can recompute the deck and check the cards dealt. The
// procedure is specified byte for byte in docs/provably-fair.md, so that a third party can write
// an independent verifier: any change here must change that document and its test vector too.
//
// Pure apart from hashing (and commitDeck without a seed, which draws one from the CSPRNG).

import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { InvalidOddsRequestError } from "./errors.js";
import { DECK_SIZE } from "@pokerodds/common/card-codes";
import {
  CLIENT_SEED_MAX_LENGTH,
  CLIENT_SEED_PATTERN,
  GAME_ID_MAX_LENGTH,
  GAME_ID_PATTERN,
} from "@pokerodds/common/limits";
import { commitmentOf, newServerSeed } from "@pokerodds/common/server-seed";
import { type Card, formatCard, formatHand, fullDeck, parseCard, parseHand } from "./cards.js";

// Part of the procedure's surface: the fairness report and the tests draw their seeds with it here.
export { newServerSeed };
/** A board is dealt in up to five cards: flop (3), turn, river. */
export const BOARD_CARDS = 5;

const HEX_64 = /^[0-9a-f]{64}$/i;

/** What a player needs to check one game: the revealed seed, the commitment shown before the bets, the cards. */
export interface GameReveal {
  /** The server seed revealed after the game, 64 hex digits. */
  seed: string;
  /** SHA-256 of the seed's 32 bytes, 64 hex digits, published before any bet. */
  commitment: string;
  gameId: string;
  /** The client seed the deck was mixed with (a table game's dealing advance), or none. */
  clientSeed?: string | null;
  /** Hole cards as the API shows them, in hand order: "AhKd" (first card dealt, then second). */
  hands: readonly string[];
  /** Board cards dealt so far, in order (flop 1-3, turn, river): any prefix of the five. */
  board: readonly string[];
  /** A deal's undealt cards in deck order (after the hole cards), when shown: checked in full. */
  remainingDeck?: readonly string[];
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/** The reason a seed is not acceptable, or null. */
function seedProblem(seed: unknown, name: string): string | null {
  if (typeof seed !== "string") return `${name} must be a string of 64 hexadecimal digits`;
  return HEX_64.test(seed) ? null : `${name} must be 64 hexadecimal digits (32 bytes), got ${describe(seed)}`;
}

function gameIdProblem(gameId: unknown): string | null {
  if (typeof gameId !== "string") return "gameId must be a string";
  if (!GAME_ID_PATTERN.test(gameId)) {
    return `gameId must be 1 to ${GAME_ID_MAX_LENGTH} printable ASCII characters without spaces, got ${describe(gameId)}`;
  }
  return null;
}

/** A short, printable rendering of hostile input for a reason message. */
function describe(value: string): string {
  const shown = JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value);
  return `${shown} (${value.length} characters)`;
}

function assertValid(problem: string | null): void {
  if (problem !== null) throw new RangeError(problem);
}

/** The commitment to a seed: SHA-256 of its 32 bytes (not of its hex text), 64 lowercase hex digits. */
export function seedCommitment(seedHex: string): string {
  assertValid(seedProblem(seedHex, "seed"));
  return commitmentOf(seedHex);
}

/** The reason a client seed is not acceptable, or null; none (undefined or null) is acceptable. */
function clientSeedProblem(clientSeed: unknown): string | null {
  if (clientSeed === undefined || clientSeed === null) return null;
  if (typeof clientSeed === "string" && CLIENT_SEED_PATTERN.test(clientSeed)) return null;
  const shown = typeof clientSeed === "string" ? describe(clientSeed) : typeof clientSeed;
  return `the client seed must be 1 to ${CLIENT_SEED_MAX_LENGTH} letters, digits, - or _, got ${shown}`;
}

/**
 * The seed a deck is derived from: the server seed itself, or, with a client seed, HMAC-SHA256(key =
 * the server seed's 32 bytes, message = the client seed's characters), 64 lowercase hex digits. The
 * house commits to its seed before the player picks the client seed, so neither alone chooses the deck.
 */
export function effectiveSeed(serverSeedHex: string, clientSeed: string | null = null): string {
  assertValid(seedProblem(serverSeedHex, "seed"));
  assertValid(clientSeedProblem(clientSeed));
  if (clientSeed === null) return serverSeedHex.toLowerCase();
  return createHmac("sha256", Buffer.from(serverSeedHex, "hex")).update(clientSeed, "ascii").digest("hex");
}

/**
 * The deterministic random bit generator: the bytes of HMAC-SHA256(key = seed, message =
 * gameId ":" counter) for counter = 0, 1, 2, ... (decimal ASCII, no leading zeros), concatenated.
 * HMAC-SHA256 with a secret 256-bit key is a pseudorandom function, so the stream is
 * indistinguishable from uniform bytes to anyone who does not know the seed.
 */
export class DeckByteStream {
  // A KeyObject, not a Buffer: OpenSSL 3.5 (Node 24) imports a raw key for every HMAC (4.7x slower).
  private readonly key: KeyObject;
  private block: Buffer = Buffer.alloc(0);
  private position = 0;
  private counter = 0;

  constructor(
    seedHex: string,
    private readonly gameId: string,
  ) {
    assertValid(seedProblem(seedHex, "seed"));
    assertValid(gameIdProblem(gameId));
    this.key = createSecretKey(Buffer.from(seedHex, "hex"));
  }

  /** The next byte of the stream, 0..255. */
  nextByte(): number {
    if (this.position === this.block.length) {
      this.block = createHmac("sha256", this.key).update(`${this.gameId}:${this.counter}`, "ascii").digest();
      this.counter++;
      this.position = 0;
    }
    return this.block[this.position++]!;
  }

  /** A uniform integer in [0, bound), 1 <= bound <= 256: bytes are read until byteBelow accepts one. */
  below(bound: number): number {
    for (;;) {
      const value = byteBelow(this.nextByte(), bound);
      if (value !== undefined) return value;
    }
  }
}

/**
 * The rejection rule: a byte b gives b mod bound when b < 256 - (256 mod bound), the largest
 * multiple of bound that fits in a byte; any other byte is rejected (undefined), and the caller
 * reads the next one. Each result 0..bound-1 is then backed by exactly (256 - 256 mod bound) /
 * bound byte values, so uniform bytes give uniform results: no modulo bias.
 */
export function byteBelow(byte: number, bound: number): number | undefined {
  if (!Number.isInteger(bound) || bound < 1 || bound > 256) throw new RangeError(`bound must be 1..256: ${bound}`);
  return byte < 256 - (256 % bound) ? byte % bound : undefined;
}

/**
 * The deck order of a game: the 52 cards in the numbering of cards.ts (2c = 0, 2d, 2h, 2s, 3c,
 * ..., As = 51), shuffled by Fisher-Yates from the last position down, exactly as shuffle.ts does
 * with crypto.randomInt, but with each index drawn from the seed's byte stream: for i = 51 down
 * to 1, j = below(i + 1), swap positions i and j. Throws RangeError on a malformed seed or game id.
 */
export function deriveDeck(seedHex: string, gameId: string): Card[] {
  const stream = new DeckByteStream(seedHex, gameId);
  const deck = fullDeck();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = stream.below(i + 1);
    const card = deck[i]!;
    deck[i] = deck[j]!;
    deck[j] = card;
  }
  return deck;
}

/** The cards a derived deck deals to numberOfHands hands (as deal.ts's dealHoleCards does) and the five-card board. */
export function derivedCards(
  seedHex: string,
  gameId: string,
  numberOfHands: number,
): { hands: string[]; board: string[] } {
  if (!Number.isInteger(numberOfHands) || numberOfHands < 1 || 2 * numberOfHands + BOARD_CARDS > DECK_SIZE) {
    throw new RangeError(`numberOfHands must be 1..${(DECK_SIZE - BOARD_CARDS - 1) / 2}: ${numberOfHands}`);
  }
  return dealtFrom(deriveDeck(seedHex, gameId), numberOfHands);
}

function dealtFrom(deck: readonly Card[], n: number): { hands: string[]; board: string[] } {
  const hands = Array.from({ length: n }, (_, h) => formatHand([deck[h]!, deck[n + h]!]));
  return { hands, board: deck.slice(2 * n, 2 * n + BOARD_CARDS).map(formatCard) };
}

/** The first problem with the shape of the dealt cards (codes, counts, repeats), or null. */
function cardsProblem(hands: unknown, board: unknown): string | null {
  if (!Array.isArray(hands) || hands.length < 1 || !hands.every((h) => typeof h === "string")) {
    return "hands must be a non-empty list of hole-card codes such as AhKd";
  }
  if (2 * hands.length + BOARD_CARDS > DECK_SIZE) return `at most ${(DECK_SIZE - BOARD_CARDS - 1) / 2} hands`;
  if (!Array.isArray(board) || board.length > BOARD_CARDS || !board.every((c) => typeof c === "string")) {
    return `board must be a list of at most ${BOARD_CARDS} card codes such as Qs`;
  }
  const seen = new Set<Card>();
  const take = (code: string, cards: () => Card[]): string | null => {
    let parsed: Card[];
    try {
      parsed = cards();
    } catch {
      return `invalid card code ${describe(code)}`;
    }
    for (const card of parsed) {
      if (seen.has(card)) return `card ${formatCard(card)} appears twice`;
      seen.add(card);
    }
    return null;
  };
  for (const hand of hands as string[]) {
    const problem = take(hand, () => parseHand(hand));
    if (problem) return problem;
  }
  for (const code of board as string[]) {
    const problem = take(code, () => [parseCard(code)]);
    if (problem) return problem;
  }
  return null;
}

const BOARD_NAMES = ["flop card 1", "flop card 2", "flop card 3", "turn", "river"];

/**
 * Checks a finished (or running) game: the seed matches the commitment, and the deck derived
 * from the seed and game id deals exactly these hole cards (hand h: deck[h], then deck[n + h])
 * and this board prefix (deck[2n], deck[2n + 1], ...). Never throws: any malformed or hostile
 * input is answered with ok: false and the reason.
 */
export function verifyGame(game: GameReveal): VerifyResult {
  const input = (typeof game === "object" && game !== null ? game : {}) as Partial<Record<keyof GameReveal, unknown>>;
  const problem =
    seedProblem(input.seed, "seed") ??
    seedProblem(input.commitment, "commitment") ??
    gameIdProblem(input.gameId) ??
    clientSeedProblem(input.clientSeed) ??
    cardsProblem(input.hands, input.board);
  if (problem !== null) return { ok: false, reason: problem };
  const { seed, commitment, gameId, clientSeed, hands, board, remainingDeck } = game;
  if (seedCommitment(seed) !== commitment.toLowerCase()) {
    return { ok: false, reason: "the commitment is not SHA-256 of the seed: the seed is not the one committed to" };
  }
  const deck = deriveDeck(effectiveSeed(seed, clientSeed ?? null), gameId);
  const dealt = dealtFrom(deck, hands.length);
  for (let h = 0; h < hands.length; h++) {
    if (hands[h] !== dealt.hands[h]) {
      return { ok: false, reason: `hand ${h} is ${hands[h]}, but the deck deals it ${dealt.hands[h]}` };
    }
  }
  for (let k = 0; k < board.length; k++) {
    if (board[k] !== dealt.board[k]) {
      return { ok: false, reason: `the ${BOARD_NAMES[k]} is ${board[k]}, but the deck deals ${dealt.board[k]}` };
    }
  }
  const restProblem = remainingDeck === undefined ? null : remainingDeckProblem(deck, hands.length, remainingDeck);
  return restProblem === null ? { ok: true } : { ok: false, reason: restProblem };
}

/** A shown remaining deck against the deck's cards after the hole cards, every one in order. */
function remainingDeckProblem(deck: readonly Card[], n: number, shown: unknown): string | null {
  const rest = deck.slice(2 * n).map(formatCard);
  if (!Array.isArray(shown) || shown.length !== rest.length) {
    return `the remaining deck must list the ${rest.length} cards not dealt to the hands`;
  }
  const off = rest.findIndex((card, i) => shown[i] !== card);
  if (off < 0) return null;
  const card: unknown = shown[off];
  const what = typeof card === "string" ? describe(card) : `not a card code (${typeof card})`;
  return `card ${off + 1} of the remaining deck is ${what}, but the deck has ${rest[off]}`;
}

/** A game's deck fixed before any bet: its seed (fresh, or committed to earlier), the client seed, the deck. */
export interface CommittedDeck {
  gameId: string;
  serverSeed: string;
  seedCommitment: string;
  clientSeed: string | null;
  deck: Card[];
}

/**
 * The deck of gameId from serverSeed (by default a fresh one) mixed with clientSeed, if any;
 * InvalidOddsRequestError for a game id, seed or client seed the procedure does not admit.
 */
export function commitDeck(
  gameId: string,
  serverSeed: string = newServerSeed(),
  clientSeed: string | null = null,
): CommittedDeck {
  const problem = gameIdProblem(gameId) ?? seedProblem(serverSeed, "server seed") ?? clientSeedProblem(clientSeed);
  if (problem) throw new InvalidOddsRequestError(problem);
  const seed = serverSeed.toLowerCase();
  const deck = deriveDeck(effectiveSeed(seed, clientSeed), gameId);
  return { gameId, serverSeed: seed, seedCommitment: seedCommitment(seed), clientSeed, deck };
}
