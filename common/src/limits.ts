// Every limit that more than one process checks, defined once: the gateway (its OpenAPI document
// and its validation), the wallet and the table service all read them from here, so an input the
// edge accepts is never refused further in, and one the edge refuses is refused with a 400 that names
// the public field.

import { InvalidArgumentError } from "./errors.js";

/**
 * A playerId (a token's `sub`): 1 to 256 characters (Unicode code points, as JSON Schema's maxLength
 * counts them), not only blanks, no control characters.
 */
export const PLAYER_ID_MAX_LENGTH = 256;

/**
 * The control characters never in a playerId: C0, DEL and C1, and the bidirectional controls (which
 * can make one id display as another, as in "Trojan Source").
 */
const CONTROL_CHARS = "\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";
/**
 * The blanks: what JavaScript's trim() removes, and the characters that show nothing at all (zero
 * widths, joiners, fillers, the blank braille pattern), so that an id or a name made of them alone,
 * which a seat would show as nothing, is as blank as spaces. Listed one by one so that every regex
 * engine (Ajv's, a Python client's) reads the class alike; `\\s` differs between them (U+FEFF, for one).
 */
const BLANK_CHARS =
  "\\u0009-\\u000d\\u0020\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff" +
  "\\u00ad\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200d\\u2060-\\u2064\\u2800\\u3164\\ufe00-\\ufe0f\\uffa0";

/** A playerId's characters as a pattern (the OpenAPI document states it): no control, not only blanks. */
export const PLAYER_ID_PATTERN = `^[^${CONTROL_CHARS}]*[^${CONTROL_CHARS}${BLANK_CHARS}][^${CONTROL_CHARS}]*$`;

/** A client's Idempotency-Key (sit, topup, bet, leave): 1 to 128 visible ASCII characters, no spaces. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 128;
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^[!-~]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/**
 * A game id: 1 to 128 visible ASCII characters (one byte each, no encoding doubts), as the fairness
 * procedure hashes it (docs/provably-fair.md) and as a client names one (an advance's `from`, a
 * bet's `at`); the table makes its own as `T<tableId>-<game>`.
 */
export const GAME_ID_MAX_LENGTH = 128;
export const GAME_ID_PATTERN = new RegExp(`^[!-~]{1,${GAME_ID_MAX_LENGTH}}$`);
/** GAME_ID_PATTERN in words, as every refusal of a game id says it. */
export const GAME_ID_RULE = `1 to ${GAME_ID_MAX_LENGTH} visible ASCII characters`;

/**
 * A key of a wallet movement: made by the table service, never by a client, and some hold a playerId
 * (a payout's `table:<gameId>:<tag>:<playerId>`), so the bound is a playerId plus room for the rest.
 */
export const MOVEMENT_KEY_MAX_LENGTH = 2 * PLAYER_ID_MAX_LENGTH + 256; // UTF-16 units: a code point may take 2

/** The largest request body the gateway reads (its answer beyond it is a 413). */
export const REQUEST_BODY_MAX_BYTES = 64 * 1024;

/**
 * The largest integer an int32 field of the gRPC contracts carries: the bound of every table id,
 * index and odds (in tenths) that crosses a service boundary.
 */
export const INT32_MAX = 2 ** 31 - 1;

/** Hands of one game: at least two to bet between, at most six (dealt from one deck with its board). */
export const MIN_HANDS_PER_GAME = 2;
export const MAX_HANDS_PER_GAME = 6;

/**
 * Bets one seat of a table takes in one game, whoever sits in it (decisions.md). A version of a table
 * kept in full carries the open game's bets, so without a bound one player's 1-cent bets would grow
 * those without end (and, past MongoDB's 16 MB document limit, stop the table, its leaves included).
 */
export const MAX_BETS_PER_SEAT_PER_GAME = 50;

/** Games of one bulk request, and the hands each of them deals. */
export const BULK_MIN_GAMES = 1;
export const BULK_MAX_GAMES = 200;
export const BULK_HAND_COUNTS = [3, 4] as const;
export type BulkHandCount = (typeof BULK_HAND_COUNTS)[number];

/**
 * Ledger entries of one ListLedger page, as the wallet serves them (the operator's `npm run wallet
 * -- ledger` reads up to the most); the public statement's own bound is lower (api's players.ts).
 */
export const LEDGER_PAGE_DEFAULT = 100;
export const LEDGER_PAGE_MAX = 1000;

/** The target return to player of a table, a deal or a bulk request that names none (decisions.md). */
export const DEFAULT_TARGET_RTP = 0.97;

/**
 * An operator's note on a deposit or withdrawal (`npm run wallet -- ... --note`), at most: the
 * ledger entry's reason, which the player's statement shows.
 */
export const OPERATOR_NOTE_MAX_LENGTH = 64;

/**
 * The lowest target RTP a table may run at: below it a hand certain to win prices below 0.05 and
 * shows odds 0, which the table refuses as an untrue answer (a hand that can win has odds), so no
 * game could be dealt. A bulk request may name any RTP (the spec's range): its prices go nowhere.
 */
export const MIN_TABLE_TARGET_RTP = 0.05;

/** A target return to player: a finite number greater than 0 and less than 1. */
export const isTargetRtp = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value > 0 && value < 1;

/**
 * A target RTP as an operator writes one (TABLE_TARGET_RTP, the tools' --rtp): decimal digits with at
 * most one point, e.g. 0.97 or .5, to any number of decimals; NaN for anything else (1e-1, 0x1, " 0.9").
 * Its range is the reader's to check (isTargetRtp, MIN_TABLE_TARGET_RTP).
 */
export const parseTargetRtp = (text: string): number => (/^\d*\.?\d+$/.test(text) ? Number(text) : NaN);

/**
 * A table's watcher (an event stream, a gateway's feed of one table) that missed more versions than
 * this gets the current state instead of each one.
 */
export const WATCH_REPLAY_MAX = 64;

/**
 * The wallet audit's ledger issues listed one by one (the rest counted): a fault repeated on every
 * account (a players collection restored from an older backup) made a reply of 200,000 issues,
 * larger than a gRPC message may be, and the audit answered nothing at all.
 */
export const AUDIT_ISSUES_LISTED = 100;

/**
 * The longest unary call a service serves: an audit, whose deadline (AUDIT_DEADLINE_S) may not be
 * longer. A server lets the calls on a connection it recycles finish for this long.
 */
export const LONGEST_CALL_MS = 60 * 60_000;

/** A deal's server seed or commitment as stored and shown (docs/provably-fair.md): 32 bytes, lowercase hex. */
export const SEED_HEX = /^[0-9a-f]{64}$/;

/**
 * A player's client seed, mixed into a table game's deck by the advance that deals it
 * (docs/provably-fair.md): 1 to 64 letters, digits, `-` or `_`, so any random hex or base64url text
 * fits and its bytes are its characters.
 */
export const CLIENT_SEED_MAX_LENGTH = 64;
export const CLIENT_SEED_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${CLIENT_SEED_MAX_LENGTH}}$`);
/** CLIENT_SEED_PATTERN in words, as every refusal of a client seed says it. */
export const CLIENT_SEED_RULE = `1 to ${CLIENT_SEED_MAX_LENGTH} letters, digits, - or _`;

/** The largest amount of one request (decisions.md): 1,000,000,000 units. */
export const MAX_AMOUNT_UNITS = 1_000_000_000;
export const MAX_AMOUNT_CENTS = MAX_AMOUNT_UNITS * 100;
/** The smallest amount: one cent. */
const MIN_AMOUNT_CENTS = 1;
/**
 * The largest balance: 1e13 units, so a balance plus any movement is still an exact number of cents,
 * and every amount up to it prints with at most 2 decimals.
 */
export const MAX_BALANCE_CENTS = 1_000_000_000_000_000;

/** The profile's names, from the token's claims: longer ones are shortened at the edge, not refused. */
export const USERNAME_MAX_LENGTH = 320;
export const DISPLAY_NAME_MAX_LENGTH = 200;

const CONTROL = new RegExp(`[${CONTROL_CHARS}]`);
const CONTROLS = new RegExp(`[${CONTROL_CHARS}]`, "g");

/** A control character (CONTROL_CHARS): never in a playerId or a text the ledger records. */
export const hasControlCharacters = (value: string): boolean => CONTROL.test(value);

/**
 * A display text (a name from a claim) as every service accepts it: control characters become
 * spaces, then whole characters up to `max` UTF-16 code units.
 */
export function fitText(value: string, max: number): string {
  let text = "";
  for (const char of value.replace(CONTROLS, " ")) {
    if (text.length + char.length > max) break;
    text += char;
  }
  return text;
}

// Each code point of the class is a blank on its own (the joiners and variation selectors included).
// eslint-disable-next-line no-misleading-character-class
const NOT_BLANK = new RegExp(`[^${BLANK_CHARS}]`, "u");

/** Whether `value` shows nothing: empty, or blanks alone (BLANK_CHARS). */
export const isBlank = (value: string): boolean => !NOT_BLANK.test(value);

// eslint-disable-next-line no-misleading-character-class
const BLANKS = new RegExp(`[${BLANK_CHARS}${CONTROL_CHARS}]`, "gu");
/** `value` without its blanks and control characters: what of it shows. */
export const withoutBlanks = (value: string): string => value.replace(BLANKS, "");
/** Half a surrogate pair on its own: gRPC's UTF-8 would turn it into U+FFFD, so ids that differ only there would meet. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `value` is not a playerId (a sentence naming `name`), or null when it is one: PLAYER_ID_PATTERN, in words. */
export function playerIdProblem(value: string, name = "playerId"): string | null {
  if (isBlank(value)) return `${name} must not be empty`;
  if ([...value].length > PLAYER_ID_MAX_LENGTH) return `${name} must be at most ${PLAYER_ID_MAX_LENGTH} characters`;
  if (hasControlCharacters(value)) return `${name} must not contain control characters`;
  if (LONE_SURROGATE.test(value)) return `${name} must be well-formed Unicode (no lone surrogate)`;
  return null;
}

// The checks every service makes of its gRPC requests' fields, as one InvalidArgumentError each:
// the gateway validated them already, but a wrong amount or id must never reach a balance.

/**
 * A stake or a movement a player asks for: a whole number of cents from MIN_AMOUNT_CENTS to `max`
 * (MAX_AMOUNT_CENTS; a credit the table owes may be larger, see the wallet's credits).
 */
export function requireAmountCents(name: string, value: number, max = MAX_AMOUNT_CENTS): number {
  if (!Number.isSafeInteger(value) || value < MIN_AMOUNT_CENTS || value > max) {
    throw new InvalidArgumentError(`${name} must be a whole number of cents from ${MIN_AMOUNT_CENTS} to ${max}`);
  }
  return value;
}

export function requireIdempotencyKey(value: string): string {
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new InvalidArgumentError(
      `idempotency_key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`,
    );
  }
  return value;
}

export function requireGameId(name: string, value: string): string {
  if (!GAME_ID_PATTERN.test(value)) {
    throw new InvalidArgumentError(`${name} must be ${GAME_ID_RULE}`);
  }
  return value;
}

export function requireClientSeed(name: string, value: string): string {
  if (!CLIENT_SEED_PATTERN.test(value)) {
    throw new InvalidArgumentError(`${name} must be ${CLIENT_SEED_RULE}`);
  }
  return value;
}

export function requirePlayerId(name: string, value: string): string {
  const problem = playerIdProblem(value, name);
  if (problem) throw new InvalidArgumentError(problem);
  return value;
}
