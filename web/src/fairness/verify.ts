// The provably fair check of docs/provably-fair.md, written again for the browser from that page
// alone. It shares no code with the server on purpose: a verifier that reused the house's own
// implementation would prove nothing about it. It uses only WebCrypto (SHA-256 and HMAC-SHA256) and
// makes no request, so a player's browser reaches its verdict by itself.
//
// No UI and no imports, so it can be unit-tested under Node (which has the same crypto.subtle).

/** What one game's check needs: the revealed seed, the commitment shown before the bets, the cards shown. */
export interface GameReveal {
  /** The server seed, 64 hex digits (either case). */
  seed: string;
  /** SHA-256 of the seed's 32 bytes, 64 hex digits, as shown before any bet. */
  commitment: string;
  gameId: string;
  /**
   * The client seed the dealing player mixed into the deck (a table game), or null/absent when none
   * was: the deck then comes from the effective seed HMAC-SHA256(server seed, ASCII(client seed)).
   */
  clientSeed?: string | null;
  /** Hole cards in the API's hand order, "AhKd": the first card dealt, then the second. */
  hands: readonly string[];
  /** Board cards dealt so far, in order (flop 1-3, turn, river): any prefix of the five. */
  board: readonly string[];
  /**
   * Whether the game reached the river (its board must show all five cards: they decided the bets)
   * or was voided before it (fewer); absent: any prefix.
   */
  reachedRiver?: boolean;
  /** How many hands the game dealt, where the answer says: every one must be shown, and checked. */
  numberOfHands?: number;
  /** The undealt cards in deck order, where the API lists them (a stand-alone deal): checked too. */
  remainingDeck?: readonly string[];
}

/** On success, the whole deck the seed deals (card codes, first dealt first), for the player to see. */
export type VerifyResult = { ok: true; deck: string[] } | { ok: false; reason: string };

const HEX_64 = /^[0-9a-f]{64}$/i;
/** Section 1: 1 to 64 of A-Z a-z 0-9 - _; so its bytes are its ASCII codes. */
const CLIENT_SEED = /^[A-Za-z0-9_-]{1,64}$/;
/** Section 2: 1 to 128 printable ASCII characters, no spaces; so its bytes are its character codes. */
const GAME_ID = /^[\x21-\x7e]{1,128}$/;
const CARD = /^[2-9TJQKA][cdhs]$/;
const HAND = /^[2-9TJQKA][cdhs][2-9TJQKA][cdhs]$/;
const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const DECK_SIZE = 52;
const BOARD_CARDS = 5;
/** 2n + 5 cards must fit in the deck. */
const MAX_HANDS = (DECK_SIZE - BOARD_CARDS - 1) / 2;
const BOARD_NAMES = ["first flop card", "second flop card", "third flop card", "turn", "river"];

type Subtle = typeof crypto.subtle;

/** Thrown when the browser withholds WebCrypto, as it does outside secure contexts (plain http off localhost). */
class NoWebCryptoError extends Error {
  constructor() {
    super(
      "this browser offers no WebCrypto on this page (it does only over https or on localhost); " +
        "verify with docs/provably-fair.md or npm run verify instead",
    );
    this.name = "NoWebCryptoError";
  }
}

function subtle(): Subtle {
  const found = (globalThis.crypto as { subtle?: Subtle } | undefined)?.subtle;
  if (!found) throw new NoWebCryptoError();
  return found;
}

/** A value from the server, quoted and cut short so a hostile one cannot flood the message. */
function quoted(value: unknown): string {
  const text = String(value);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text);
}

/** The first 12 digits of a hash: enough to tell two apart in a message. */
const short = (hex: string): string => `${hex.slice(0, 12)}…`;

function bytesOf(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

const hexOf = (buffer: ArrayBuffer): string =>
  Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

function assertSeed(seedHex: string): void {
  if (!HEX_64.test(seedHex))
    throw new RangeError(`the server seed must be 64 hexadecimal digits, not ${quoted(seedHex)}`);
}

/** Section 1: SHA-256 of the seed's 32 raw bytes (not of its hex text), 64 lowercase hex digits. */
export async function commitmentOf(seedHex: string): Promise<string> {
  assertSeed(seedHex);
  return hexOf(await subtle().digest("SHA-256", bytesOf(seedHex)));
}

/**
 * Section 1: the seed the deck is derived from. With a client seed, HMAC-SHA256 keyed with the
 * server seed's 32 bytes over the client seed's ASCII bytes, as 64 lowercase hex digits; without
 * one, the server seed itself.
 */
export async function effectiveSeedOf(seedHex: string, clientSeed: string | null = null): Promise<string> {
  assertSeed(seedHex);
  if (clientSeed === null) return seedHex.toLowerCase();
  if (!CLIENT_SEED.test(clientSeed)) throw new RangeError(clientSeedProblem(clientSeed));
  const webCrypto = subtle();
  const key = await webCrypto.importKey("raw", bytesOf(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  // Checked above: ASCII only, so its UTF-8 bytes are its ASCII bytes.
  return hexOf(await webCrypto.sign("HMAC", key, new TextEncoder().encode(clientSeed)));
}

/**
 * Section 3: block k = HMAC-SHA256(effective seed, ASCII(gameId ":" k)), the blocks read byte after byte.
 * Section 4: a uniform integer below m takes the next byte b < 256 - (256 mod m), as b mod m.
 */
class DeckBytes {
  private block = new Uint8Array(0);
  private position = 0;
  private counter = 0;

  constructor(
    private readonly sign: (message: Uint8Array<ArrayBuffer>) => Promise<ArrayBuffer>,
    private readonly gameId: string,
  ) {}

  private async nextByte(): Promise<number> {
    if (this.position === this.block.length) {
      // The game id is printable ASCII (checked), so its UTF-8 bytes are its ASCII bytes.
      this.block = new Uint8Array(await this.sign(new TextEncoder().encode(`${this.gameId}:${this.counter}`)));
      this.counter++;
      this.position = 0;
    }
    return this.block[this.position++]!;
  }

  async below(m: number): Promise<number> {
    const limit = 256 - (256 % m);
    for (;;) {
      const byte = await this.nextByte();
      if (byte < limit) return byte % m;
    }
  }
}

/** Section 5: card c is rank c div 4 ("2".."A") then suit c mod 4 ("c", "d", "h", "s"). */
const cardCode = (card: number): string => `${RANKS[Math.floor(card / 4)]}${SUITS[card % 4]}`;

/**
 * Section 6: the deck in numbering order, then for i = 51 down to 1, swap deck[i] with deck[j], j
 * uniform in 0..i. Returns card codes, deck[0] (the first card dealt) first. `seedHex` is the
 * effective seed (effectiveSeedOf): the server seed itself for a game without a client seed.
 */
export async function deriveDeck(seedHex: string, gameId: string): Promise<string[]> {
  assertSeed(seedHex);
  if (!GAME_ID.test(gameId)) throw new RangeError(gameIdProblem(gameId));
  const webCrypto = subtle();
  const key = await webCrypto.importKey("raw", bytesOf(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const stream = new DeckBytes((message) => webCrypto.sign("HMAC", key, message), gameId);
  const deck = Array.from({ length: DECK_SIZE }, (_, card) => card);
  for (let i = DECK_SIZE - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  return deck.map(cardCode);
}

const gameIdProblem = (gameId: unknown): string =>
  `the game id must be 1 to 128 printable ASCII characters without spaces, not ${quoted(gameId)}`;

const clientSeedProblem = (clientSeed: unknown): string =>
  `the client seed must be 1 to 64 letters, digits, - or _, not ${quoted(clientSeed)}`;

/** Section 8 step 1, and the shape of the cards: the first problem found, or null. */
function shapeProblem(game: GameReveal): string | null {
  if (typeof game.seed !== "string" || !HEX_64.test(game.seed)) {
    return `the server seed must be 64 hexadecimal digits, not ${quoted(game.seed)}`;
  }
  if (typeof game.commitment !== "string" || !HEX_64.test(game.commitment)) {
    return `the commitment must be 64 hexadecimal digits, not ${quoted(game.commitment)}`;
  }
  if (typeof game.gameId !== "string" || !GAME_ID.test(game.gameId)) return gameIdProblem(game.gameId);
  const clientSeed = game.clientSeed ?? null;
  if (clientSeed !== null && (typeof clientSeed !== "string" || !CLIENT_SEED.test(clientSeed))) {
    return clientSeedProblem(clientSeed);
  }
  if (!Array.isArray(game.hands) || game.hands.length < 1 || game.hands.length > MAX_HANDS) {
    return `there must be 1 to ${MAX_HANDS} hands to check`;
  }
  const badHand = game.hands.findIndex((hand) => typeof hand !== "string" || !HAND.test(hand));
  if (badHand >= 0) return `hand ${badHand + 1} is ${quoted(game.hands[badHand])}, not two card codes such as AhKd`;
  if (game.numberOfHands !== undefined && game.hands.length !== game.numberOfHands) {
    return `the game dealt ${game.numberOfHands} hands, but ${game.hands.length} are shown`;
  }
  if (!Array.isArray(game.board) || game.board.length > BOARD_CARDS) return "the board must have at most 5 cards";
  if (game.reachedRiver === true && game.board.length !== BOARD_CARDS) {
    return `the game reached the river, but its board shows ${game.board.length} of the 5 cards that decided its bets`;
  }
  if (game.reachedRiver === false && game.board.length === BOARD_CARDS) {
    return "the game was voided before the river, but its board shows all 5 cards";
  }
  const badCard = game.board.findIndex((card) => typeof card !== "string" || !CARD.test(card));
  if (badCard >= 0) return `the ${BOARD_NAMES[badCard]} is ${quoted(game.board[badCard])}, not a card code such as Qs`;
  return null;
}

/** Section 7 and section 8 step 4: every card shown against the card the deck deals there. */
function dealtProblem(deck: readonly string[], game: GameReveal): string | null {
  const n = game.hands.length;
  for (let h = 0; h < n; h++) {
    const dealt = `${deck[h]}${deck[n + h]}`;
    if (game.hands[h] !== dealt) return `hand ${h + 1} is ${game.hands[h]}, but the deck deals it ${dealt}`;
  }
  for (let k = 0; k < game.board.length; k++) {
    const dealt = deck[2 * n + k];
    if (game.board[k] !== dealt) return `the ${BOARD_NAMES[k]} is ${game.board[k]}, but the deck deals ${dealt}`;
  }
  if (game.remainingDeck === undefined) return null;
  const rest = deck.slice(2 * n);
  if (!Array.isArray(game.remainingDeck) || game.remainingDeck.length !== rest.length) {
    return `the remaining deck should hold the ${rest.length} cards not dealt to the hands`;
  }
  const off = rest.findIndex((card, i) => game.remainingDeck![i] !== card);
  if (off >= 0)
    return `card ${off + 1} of the remaining deck is ${quoted(game.remainingDeck[off])}, but the deck has ${rest[off]}`;
  return null;
}

const failed = (reason: string): VerifyResult => ({ ok: false, reason });

/**
 * Section 8: the seed and commitment are well formed, SHA-256 of the seed is the commitment, and the
 * deck derived from the effective seed (the server seed mixed with the client seed, if any) and the
 * game id deals exactly the hands and board shown. Never throws: every
 * malformed or hostile input, and a browser without WebCrypto, is answered with the reason.
 */
export async function verifyGame(game: GameReveal): Promise<VerifyResult> {
  const problem = shapeProblem(game);
  if (problem !== null) return failed(problem);
  try {
    const committed = await commitmentOf(game.seed);
    if (committed !== game.commitment.toLowerCase()) {
      return failed(
        `SHA-256 of the revealed seed is ${short(committed)}, not the commitment ${short(game.commitment.toLowerCase())}: ` +
          "this is not the seed that was committed to",
      );
    }
    const deck = await deriveDeck(await effectiveSeedOf(game.seed, game.clientSeed ?? null), game.gameId);
    const mismatch = dealtProblem(deck, game);
    if (mismatch === null) return { ok: true, deck };
    // With a client seed, the deck is the server seed's mixed with it: say so, since a client seed
    // other than the one dealt with deals other cards.
    return failed(game.clientSeed ? `${mismatch} (mixed with the client seed ${quoted(game.clientSeed)})` : mismatch);
  } catch (error) {
    return failed(
      error instanceof NoWebCryptoError ? error.message : `the browser's cryptography failed: ${String(error)}`,
    );
  }
}

/**
 * Commit and reveal protect only a player who holds on to the commitment shown before the bets: a
 * house that swapped the deck mid-game would simply show a new commitment with the river, and that
 * state on its own would check out. So a table game is checked against the commitment this page
 * saw first (`held`), and a different one at the river fails before anything else is checked.
 */
export async function verifyAgainstHeld(game: GameReveal, held: string): Promise<VerifyResult> {
  if (typeof game.commitment !== "string" || held.toLowerCase() !== game.commitment.toLowerCase()) {
    return failed(
      `the commitment changed during the game: it was ${short(held.toLowerCase())} before the bets, ` +
        `but the river shows ${short(String(game.commitment).toLowerCase())}`,
    );
  }
  return verifyGame({ ...game, commitment: held });
}
