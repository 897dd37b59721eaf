// Provably fair decks (commit and reveal). Before any bet, the house publishes SHA-256 of a fresh
// secret seed; the deck order is a deterministic function of that seed and the game id
// (common/src/deck-derivation.ts, which the table also deals its games with); after the river the
// seed is revealed, and anyone can recompute the deck and check the cards dealt. The procedure is
// specified byte for byte in docs/provably-fair.md, so that a third party can write an independent
// verifier: any change here must change that document and its test vector too.
//
// Pure apart from hashing (and commitDeck without a seed, which draws one from the CSPRNG).

import { InvalidOddsRequestError } from "@pokerodds/common/poker/errors";
import { DECK_SIZE } from "@pokerodds/common/card-codes";
import {
  assertNoProblem,
  clientSeedProblem,
  dealHoleCards,
  deriveDeck,
  effectiveSeed,
  gameIdProblem,
  seedProblem,
  shownInput,
} from "@pokerodds/common/deck-derivation";
import { commitmentOf, newServerSeed } from "@pokerodds/common/server-seed";
import { type Card, formatCard, formatHand, parseCard, parseHand } from "@pokerodds/common/poker/cards";

// Part of the procedure's surface: the fairness report and the tests draw their seeds with it here.
export { newServerSeed };
/** A board is dealt in up to five cards: flop (3), turn, river. */
const BOARD_CARDS = 5;

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

type VerifyResult = { ok: true } | { ok: false; reason: string };

/** The commitment to a seed: SHA-256 of its 32 bytes (not of its hex text), 64 lowercase hex digits. */
export function seedCommitment(seedHex: string): string {
  assertNoProblem(seedProblem(seedHex, "seed"));
  return commitmentOf(seedHex);
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
  const { hands, rest } = dealHoleCards(deck, n);
  return { hands: hands.map(formatHand), board: rest.slice(0, BOARD_CARDS).map(formatCard) };
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
      return `invalid card code ${shownInput(code)}`;
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
  const what = typeof card === "string" ? shownInput(card) : `not a card code (${typeof card})`;
  return `card ${off + 1} of the remaining deck is ${what}, but the deck has ${rest[off]}`;
}

/** A game's deck fixed before any bet: its seed (fresh, or committed to earlier), the client seed, the deck. */
interface CommittedDeck {
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
