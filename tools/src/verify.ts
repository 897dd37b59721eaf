// `npm run verify`: checks a provably fair game from its revealed seed (docs/provably-fair.md).
//
//   npm run verify -- --seed <hex> --commitment <hex> --game-id T1-7 --hands AhKd,QsQc --board 2c3d4h5s6c
//   npm run verify -- ... --client-seed <text>   (a table game dealt with a client seed)
//   npm run verify -- --json game.json        (or --json - for standard input)
//   npm run verify -- --json game.json --commitment <hex> [--client-seed <text>]   (held to what you kept)
//   npm run verify -- --json games.jsonl [--rtp 0.97]   (an export: one game record a line)
//
// The JSON is a table state, a deal result, a bulk game or a game record as the API returns them
// once they carry the seed: serverSeed (or seed), seedCommitment (or commitment), gameId, clientSeed
// (absent or null: none), hands, the board as flopCard1..riverCard, bc1..bc5 or board (two of these
// that disagree do not verify), and a deal's remainingDeck (every card checked). A bulk response
// ({ games: [...] }) and JSON Lines (an export) check every game. A game record (one line of GET
// /api/admin/games) has its outcome checked too: its outcome and board, winners, each bet's returned
// and paidTo, the totals, and every stage's panels (the river's too) and each bet's odds against the
// house's prices at the target RTP the record names (a record naming none, or another than --rtp,
// does not verify), by the house's rules (verify-outcome.ts, verify-prices.ts), and each bet's time
// within its stage's (verify-times.ts: a record that does not list every stage its board shows does
// not verify); a river table state its winners, every stage's panels and each bet's odds.
// A void record whose last stage's betting had closed is verified, and its verdict names the cards
// the seed deals next and what the bets would have returned on them (voidedAfterClose).
// Exit 0 and "verified" ("verified (cards and outcome)" when a record's outcome was checked, "verified
// (cards, prices and bets' odds)" for a river table state, whose bets show no return); exit 1 and
// the reason when a game does not verify; exit 2 on bad usage.
// The card check itself is the odds domain's verifyGame, so this command and the service agree.
import { derivedCards, type GameReveal, verifyGame } from "@pokerodds/odds/domain/provably-fair";
import { effectiveSeed } from "@pokerodds/common/deck-derivation";
import { DEFAULT_TARGET_RTP, isTargetRtp, parseTargetRtp } from "@pokerodds/common/limits";
import { parseArgsOnce } from "@pokerodds/common/args";
import { InputError, jsonGames } from "./verify-input.js";
import { checkOutcome, voidedAfterClose } from "./verify-outcome.js";

const USAGE =
  "usage: npm run verify -- --seed <64 hex> --commitment <64 hex> --game-id <id> --hands AhKd,QsQc[,...] [--board 2c3d4h5s6c]\n" +
  "                            [--client-seed <text>]\n" +
  "       npm run verify -- --json <file | -> [--commitment <64 hex>] [--client-seed <text>] [--rtp 0.97]";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** "2c3d4h", "2c,3d,4h" or "2c 3d 4h" -> ["2c", "3d", "4h"]; an odd character stays to be refused. */
function boardCodes(text: string): string[] {
  const compact = text.replace(/[\s,]+/g, "");
  return compact.match(/.{1,2}/g) ?? [];
}

const handCodes = (text: string): string[] => (text.trim() === "" ? [] : text.split(/[\s,]+/).filter(Boolean));

const BOARD_FIELDS = [
  ["flopCard1", "flopCard2", "flopCard3", "turnCard", "riverCard"],
  ["bc1", "bc2", "bc3", "bc4", "bc5"],
];

/**
 * The board in each form the JSON shows it: `board` (a record, a deal), the table state's
 * flopCard1..riverCard, a bulk game's bc1..bc5. Trailing absent cards dropped, a gap left in to be
 * refused.
 */
function boardsOf(record: Record<string, unknown>): { name: string; cards: unknown }[] {
  const boards: { name: string; cards: unknown }[] = [];
  if (record.board !== undefined) {
    boards.push({ name: "board", cards: typeof record.board === "string" ? boardCodes(record.board) : record.board });
  }
  for (const fields of BOARD_FIELDS.filter((named) => named.some((f) => f in record))) {
    const cards = fields.map((f) => record[f] ?? null);
    while (cards.length > 0 && cards[cards.length - 1] === null) cards.pop();
    boards.push({ name: `${fields[0]}..${fields[4]}`, cards });
  }
  return boards;
}

/**
 * A fact the JSON shows under two names, differently: the verifier would check one of them, and a
 * reader might see the other (a state's shown river card, with a true `board` beside it).
 */
function conflictOf(record: Record<string, unknown>): string | undefined {
  const [first, ...others] = boardsOf(record);
  const differing = others.find((other) => JSON.stringify(other.cards) !== JSON.stringify(first!.cards));
  if (differing) {
    return `the JSON shows two boards: ${first!.name} ${JSON.stringify(first!.cards)} and ${differing.name} ${JSON.stringify(differing.cards)}`;
  }
  for (const [field, alias] of [
    ["serverSeed", "seed"],
    ["seedCommitment", "commitment"],
  ] as const) {
    if (record[field] != null && record[alias] != null && record[field] !== record[alias]) {
      return `the JSON shows ${field} and ${alias}, and they differ`;
    }
  }
  return undefined;
}

/** A game to check: its cards, and the JSON it came from (none from flags) for its outcome. */
interface GameToVerify {
  reveal: GameReveal;
  record?: Record<string, unknown>;
  /** Why the JSON cannot be checked as it stands: it shows one fact two ways. */
  conflict?: string;
}

/** A game as the API shows it -> the verifier's input; the verifier refuses whatever is malformed. */
function gameOf(value: unknown): GameToVerify {
  const record = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const hands = typeof record.hands === "string" ? handCodes(record.hands) : record.hands;
  const reveal = {
    seed: record.serverSeed ?? record.seed,
    commitment: record.seedCommitment ?? record.commitment,
    gameId: record.gameId,
    clientSeed: record.clientSeed ?? null,
    hands,
    board: boardsOf(record)[0]?.cards ?? [],
    ...(record.remainingDeck === undefined ? {} : { remainingDeck: record.remainingDeck }),
  } as GameReveal;
  const conflict = conflictOf(record);
  return conflict === undefined ? { reveal, record } : { reveal, record, conflict };
}

/**
 * A game from the JSON, held to what the player kept from before the reveal: the commitment shown
 * at the game's start (`--commitment`) and the client seed sent (`--client-seed`). Without them the
 * check trusts the JSON's own, which a house could have changed together with its seed.
 */
function keptAgainst(game: GameToVerify, values: Options): GameToVerify {
  if (game.conflict !== undefined) return game;
  const { commitment, "client-seed": clientSeed } = values;
  // Hex as the API writes it: lowercase.
  if (commitment !== undefined && game.reveal.commitment !== commitment.toLowerCase()) {
    return {
      ...game,
      conflict: `the JSON's commitment is ${JSON.stringify(game.reveal.commitment)}, not the ${commitment} you kept`,
    };
  }
  if (clientSeed !== undefined && game.reveal.clientSeed !== clientSeed) {
    return {
      ...game,
      conflict: `the JSON's client seed is ${JSON.stringify(game.reveal.clientSeed)}, not the ${clientSeed} you sent`,
    };
  }
  return game;
}

function parseCommandLine() {
  try {
    return parseArgsOnce({
      options: {
        seed: { type: "string" },
        commitment: { type: "string" },
        "game-id": { type: "string" },
        hands: { type: "string" },
        board: { type: "string", default: "" },
        "client-seed": { type: "string" },
        json: { type: "string" },
        rtp: { type: "string" },
      },
    }).values;
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
}

type Options = ReturnType<typeof parseCommandLine>;

/**
 * --rtp: the target return to player the player expects (the operator's published one): a game that
 * names another does not verify; null when not given.
 */
function targetRtpOf(values: Options): number | null {
  if (values.rtp === undefined) return null;
  const rtp = parseTargetRtp(values.rtp);
  if (!isTargetRtp(rtp)) fail(`--rtp must be a number between 0 and 1, e.g. 0.97\n${USAGE}`);
  return rtp;
}

/** The games named on the command line or in the JSON, one at a time. */
async function* gamesToVerify(values: Options): AsyncGenerator<GameToVerify> {
  if (values.json !== undefined) {
    const flagged = ["seed", "game-id", "hands"].some((f) => values[f as keyof typeof values] !== undefined);
    if (flagged) fail(`--json takes the game from the JSON; give no --seed, --game-id or --hands\n${USAGE}`);
    for await (const value of jsonGames(values.json)) yield keptAgainst(gameOf(value), values);
    return;
  }
  if (values.rtp !== undefined) fail(`--rtp is for game records, with --json\n${USAGE}`);
  const { seed, commitment, "game-id": gameId, "client-seed": clientSeed, hands, board } = values;
  if (seed === undefined || commitment === undefined || gameId === undefined || hands === undefined) {
    fail(`--seed, --commitment, --game-id and --hands are required\n${USAGE}`);
  }
  const reveal = { seed, commitment, gameId, clientSeed: clientSeed ?? null, hands: handCodes(hands) };
  yield { reveal: { ...reveal, board: boardCodes(board) } };
}

/** The cards first; once they verify, the outcome the JSON shows, if any. */
function verdict(
  { reveal, record, conflict }: GameToVerify,
  targetRtp: number | null,
): { ok: true; what: string } | { ok: false; reason: string } {
  if (conflict !== undefined) return { ok: false, reason: conflict };
  const cards = verifyGame(reveal);
  if (!cards.ok) return cards;
  const outcome =
    record === undefined ? { checked: false as const } : checkOutcome(record, reveal.hands, reveal.board, targetRtp);
  if (!outcome.checked) return { ok: true, what: "verified" };
  if (outcome.problem !== null) return { ok: false, reason: outcome.problem };
  // A house may name any RTP: one other than the tables' default is said, for the player to weigh.
  const rtp = outcome.namedRtp;
  const at = rtp === undefined || rtp === DEFAULT_TARGET_RTP ? "" : `, its odds at the target RTP of ${rtp} it names`;
  // A table state shows its bets' odds, not their returns: those are in the game's record.
  if (outcome.state) return { ok: true, what: `verified (cards, prices and bets' odds${at})` };
  const stalled = voidedAfterClose(record!, reveal.hands, { shown: reveal.board, dealt: dealtBoard(reveal) });
  return { ok: true, what: `verified (cards and outcome${at}${stalled === null ? "" : `; ${stalled}`})` };
}

/** The five board cards the game's deck deals, shown or not (its cards verified already). */
function dealtBoard({ seed, clientSeed, gameId, hands }: GameReveal): string[] {
  return derivedCards(effectiveSeed(seed, clientSeed ?? null), gameId, hands.length).board;
}

type Verdict = ReturnType<typeof verdict>;
let failures = 0;

/** One game's verdict, named by its game id when there are several. */
function report(game: GameToVerify, result: Verdict, named: boolean): void {
  const label = named ? `${String(game.reveal.gameId)}: ` : "";
  if (result.ok) process.stdout.write(`${label}${result.what}\n`);
  else {
    failures++;
    process.stderr.write(`${label}NOT verified: ${result.reason}\n`);
  }
}

const options = parseCommandLine();
const targetRtp = targetRtpOf(options);
// The first verdict waits until a second game shows whether there are several.
let first: [GameToVerify, Verdict] | undefined;
let count = 0;
try {
  for await (const game of gamesToVerify(options)) {
    const result = verdict(game, targetRtp);
    if (++count === 1) first = [game, result];
    else {
      if (count === 2) report(...first!, true);
      report(game, result, true);
    }
  }
} catch (error) {
  if (!(error instanceof InputError)) throw error;
  fail(error.message);
}
if (count === 0) fail("the JSON holds no game");
if (count === 1) report(...first!, false);
process.exitCode = failures === 0 ? 0 : 1;
