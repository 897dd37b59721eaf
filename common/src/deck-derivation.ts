// The deck of a provably fair game (docs/provably-fair.md): a deterministic function of its seeds and
// its game id. Here in common because two services run it: the table service deals its games from
// it (holding the seed alone), and the odds service its stand-alone and bulk deals.
// The procedure is specified byte for byte in that document, with a test vector: any change here
// must change both. Pure apart from hashing.

import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { DECK_SIZE } from "./card-codes.js";
import { formatCard } from "./poker/cards.js";
import { CLIENT_SEED_PATTERN, CLIENT_SEED_RULE, GAME_ID_PATTERN, GAME_ID_RULE } from "./limits.js";

/** A card as the derivation numbers it: rank * 4 + suit (2c = 0, 2d, 2h, 2s, 3c, ..., As = 51). */
type DeckCard = number;

const HEX_64 = /^[0-9a-f]{64}$/i;

/** A short, printable rendering of hostile input for a reason message. */
export function shownInput(value: string): string {
  const shown = JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value);
  return `${shown} (${value.length} characters)`;
}

/** The reason a seed is not acceptable, or null. */
export function seedProblem(seed: unknown, name: string): string | null {
  if (typeof seed !== "string") return `${name} must be a string of 64 hexadecimal digits`;
  return HEX_64.test(seed) ? null : `${name} must be 64 hexadecimal digits (32 bytes), got ${shownInput(seed)}`;
}

export function gameIdProblem(gameId: unknown): string | null {
  if (typeof gameId !== "string") return "gameId must be a string";
  if (!GAME_ID_PATTERN.test(gameId)) {
    return `gameId must be ${GAME_ID_RULE}, got ${shownInput(gameId)}`;
  }
  return null;
}

/** The reason a client seed is not acceptable, or null; none (undefined or null) is acceptable. */
export function clientSeedProblem(clientSeed: unknown): string | null {
  if (clientSeed === undefined || clientSeed === null) return null;
  if (typeof clientSeed === "string" && CLIENT_SEED_PATTERN.test(clientSeed)) return null;
  const shown = typeof clientSeed === "string" ? shownInput(clientSeed) : typeof clientSeed;
  return `the client seed must be ${CLIENT_SEED_RULE}, got ${shown}`;
}

/** Throws RangeError with the problem, if any. */
export function assertNoProblem(problem: string | null): void {
  if (problem !== null) throw new RangeError(problem);
}

/**
 * The seed a deck is derived from: the server seed itself, or, with a client seed, HMAC-SHA256(key =
 * the server seed's 32 bytes, message = the client seed's characters), 64 lowercase hex digits. The
 * house commits to its seed before the player picks the client seed, so neither alone chooses the deck.
 */
export function effectiveSeed(serverSeedHex: string, clientSeed: string | null = null): string {
  assertNoProblem(seedProblem(serverSeedHex, "seed"));
  assertNoProblem(clientSeedProblem(clientSeed));
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
    assertNoProblem(seedProblem(seedHex, "seed"));
    assertNoProblem(gameIdProblem(gameId));
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
 * The deck order of a game: the 52 cards numbered as DeckCard says, shuffled by Fisher-Yates from the
 * last position down with each index drawn from the seed's byte stream: for i = 51 down to 1,
 * j = below(i + 1), swap positions i and j. Throws RangeError on a malformed seed or game id.
 */
export function deriveDeck(seedHex: string, gameId: string): DeckCard[] {
  const stream = new DeckByteStream(seedHex, gameId);
  const deck = Array.from({ length: DECK_SIZE }, (_, card) => card);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = stream.below(i + 1);
    const card = deck[i]!;
    deck[i] = deck[j]!;
    deck[j] = card;
  }
  return deck;
}

/**
 * Deals hole cards as at a real table: one card to each hand in turn, then a second round, so hand h
 * gets deck[h] and deck[n + h]. The rest stays in deck order for the board. Every deal of the
 * product (the table's games, the odds service's deals and bulk games) and every verifier deals so.
 */
export function dealHoleCards<C>(deck: readonly C[], numberOfHands: number): { hands: C[][]; rest: C[] } {
  const hands = Array.from({ length: numberOfHands }, (_, h) => [deck[h]!, deck[numberOfHands + h]!]);
  return { hands, rest: deck.slice(2 * numberOfHands) };
}

/**
 * A table game's deal as its seeds derive it, in card codes (dealHoleCards: each hand's two codes
 * joined, the rest in deck order). RangeError on malformed seeds or game id.
 */
export function derivedDeal(
  seeds: { serverSeed: string; clientSeed: string | null },
  gameId: string,
  numberOfHands: number,
): { hands: string[]; remainingDeck: string[] } {
  const deck = deriveDeck(effectiveSeed(seeds.serverSeed, seeds.clientSeed), gameId).map(formatCard);
  const { hands, rest } = dealHoleCards(deck, numberOfHands);
  return { hands: hands.map((cards) => cards.join("")), remainingDeck: rest };
}
