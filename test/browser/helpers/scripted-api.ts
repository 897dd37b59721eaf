// A scripted stand-in for the gateway, for what the real stack cannot be made to do on cue: refuse an
// event stream with 429, drop one mid-game, show what the client sends when it reconnects, and
// cheat at provably fair dealing (change the deck's commitment mid-game, deal other cards). It
// serves the built client (web/dist) at "/" and just enough of the API for a player to open table 1
// and move money between her account and her seat there (sit, top up, leave; the player is eve), to
// see a lobby of the tables and seats a test sets, to deal and generate bulk games (real ones,
// from the odds service's code and the gateway's mapping to JSON), and to advance a game dealt from
// a real committed deck (committedState), mixed with the client seed the page's deal sends, to
// read a finished game's record (recordOf), and to page through an account statement.
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import type { GameRecordBody } from "@pokerodds/api/game-records";
import type { AccountStatementBody } from "@pokerodds/api/players";
import { DEFAULT_TARGET_RTP, type BulkHandCount } from "@pokerodds/common/limits";
import { bulkResponseJson, toDealResult } from "../../../gateway/src/odds/to-api.js";
import { committedBulkGame } from "../../../services/odds/src/domain/bulk.js";
import { committedDeal } from "../../../services/odds/src/domain/deal.js";
import { effectiveSeed } from "../../../common/src/deck-derivation.js";
import { derivedCards, seedCommitment } from "../../../services/odds/src/domain/provably-fair.js";
import { bulkGameToProto, dealToProto } from "../../../services/odds/src/proto-mapping.js";
import type { Lobby, TableState } from "../../helpers/api.js";

const webDist = fileURLToPath(new URL("../../../web/dist/", import.meta.url));
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
};

export interface EventsRequest {
  authorization: string | undefined;
  lastEventId: string | undefined;
}

export interface ScriptedApi {
  url: string;
  /** Every request for table 1's event stream, in order. */
  eventRequests: EventsRequest[];
  /** What GET state answers; setting it stores a new version of the table, as every change does. */
  state: TableState;
  /** The table's version of `state` (its Table-Version, its event's id). */
  readonly version: number;
  /** GET state answers 503 this many more times first (the table service unreachable). */
  stateFailures: number;
  /** GET a player's seats answers 503 this many more times first. */
  seatsFailures: number;
  /** How to answer the next event stream requests: a status to refuse with, or "stream". */
  nextStreams: (number | "stream")[];
  /**
   * The body of every advance sent to table 1, in order. From a committed game's state (one with
   * `serverSeed` set below), the advance deals its next stage from that seed, the deal mixing in the
   * client seed sent; otherwise it answers 409.
   */
  advances: { from?: { gameId: string; gameState: string }; clientSeed?: string }[];
  /** The server seed the game now shown was committed to, for advances to deal from; null: none. */
  serverSeed: string | null;
  /**
   * Milliseconds between an advance's answer and each of its events, as from a stream that follows
   * another table replica: the stage's betting closed (the state before, a version of its own, as
   * the table stores a reveal), then the new state. 0: the new state's event at once, before the answer.
   */
  advanceEventsLagMs: number;
  /** The body of every bet sent to table 1, in order; each is acknowledged from the first seat's balance, or refused (NACK) when it does not cover the stake. */
  bets: { seatIndex: number; handIndex: number; betAmount: number }[];
  /** The account balance every player's profile shows; sit, top up and leave move money from and to it. */
  account: number;
  /** What GET /api/tables answers. */
  lobby: Lobby;
  /** What GET /api/tables/1/games/{gameId} answers, by game id; 404 for any other. */
  records: Map<string, GameRecordBody>;
  /** Game records refused with a 429 (the history reads' budget spent) before any is answered. */
  recordRefusals: number;
  /** What GET a player's seats answers (once seatsFailures are spent). */
  seats: { tableId: number; seatId: number; seatBalance: number }[];
  /** A player's role and personal table, by player id (else BASIC_USER, without a personal table). */
  profiles: Map<string, { role: string; personalTableId?: number }>;
  /** Every player's account statement, oldest first (sequence 1, 2, ...). */
  ledger: StatementEntry[];
  /** Every statement page asked for, in order: its `before` (null: the newest) and `limit`. */
  ledgerReads: { before: number | null; limit: number }[];
  /** Milliseconds before a statement page is answered. */
  ledgerDelayMs: number;
  /** An older page also repeats this many entries the page before it ended with, as a careless server might. */
  ledgerRepeats: number;
  /** Statement pages refused with a 429 (the history reads' budget spent) before any is answered. */
  ledgerRefusals: number;
  /** Sends a state event with this id on the open stream (and makes it the polled state too). */
  push(id: number, state: TableState): void;
  /** Sends these state events in one write, as a stream resuming from Last-Event-ID replays what was missed. */
  pushTogether(events: [id: number, state: TableState][]): void;
  /** Ends the open stream, as a dying replica would. */
  dropStream(): void;
  /** Resolves once a stream is open. */
  streamOpen(): Promise<void>;
  close(): Promise<void>;
}

type StatementEntry = AccountStatementBody["entries"][number];

/** The last version any scripted table took: versions only grow, across the APIs of one test file too. */
let lastVersion = 1;

/** Shows `state` on the page through `api`'s event stream, and waits until the page shows it. */
export async function showState(api: ScriptedApi, page: Page, state: TableState): Promise<void> {
  api.push(++lastVersion, state);
  await page
    .locator(`[data-testid="game-state"][data-state="${state.gameState}"]`)
    .filter({ hasText: `game ${state.gameId}` })
    .waitFor();
}

/** Shows `states` on the page in one chunk of its event stream, and waits until the page shows the last. */
export async function showStatesTogether(api: ScriptedApi, page: Page, states: TableState[]): Promise<void> {
  api.pushTogether(states.map((state) => [++lastVersion, state]));
  const last = states.at(-1)!;
  await page
    .locator(`[data-testid="game-state"][data-state="${last.gameState}"]`)
    .filter({ hasText: `game ${last.gameId}` })
    .waitFor();
}

export async function startScriptedApi(initial: TableState): Promise<ScriptedApi> {
  let open: ServerResponse | undefined;
  let opened: (() => void) | undefined;
  let current = initial;
  let currentVersion = lastVersion;
  const api: ScriptedApi = {
    url: "",
    eventRequests: [],
    get state() {
      return current;
    },
    set state(next) {
      current = next;
      currentVersion = ++lastVersion;
    },
    get version() {
      return currentVersion;
    },
    stateFailures: 0,
    seatsFailures: 0,
    nextStreams: [],
    advances: [],
    serverSeed: null,
    advanceEventsLagMs: 0,
    bets: [],
    account: 1000,
    lobby: { tables: [], totalActivePlayers: 0 },
    records: new Map(),
    recordRefusals: 0,
    seats: [],
    profiles: new Map(),
    ledger: [],
    ledgerReads: [],
    ledgerDelayMs: 0,
    ledgerRepeats: 0,
    ledgerRefusals: 0,
    push(id, state) {
      api.pushTogether([[id, state]]);
    },
    pushTogether(events) {
      const last = events.at(-1);
      if (last) [currentVersion, current] = last;
      lastVersion = Math.max(lastVersion, currentVersion);
      open?.write(events.map(([id, state]) => `id: ${id}\nevent: state\ndata: ${JSON.stringify(state)}\n\n`).join(""));
    },
    dropStream() {
      open?.end();
      open = undefined;
    },
    streamOpen: () => (open ? Promise.resolve() : new Promise((resolve) => (opened = resolve))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const events = (req: IncomingMessage, res: ServerResponse) => {
    api.eventRequests.push({
      authorization: req.headers.authorization,
      lastEventId: req.headers["last-event-id"] as string | undefined,
    });
    const answer = api.nextStreams.shift() ?? "stream";
    if (answer !== "stream") return json(res, answer, { error: "too many event streams: try again later" });
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
    res.write(": heartbeat\n\n");
    open = res;
    opened?.();
  };
  const bet = async (req: IncomingMessage, res: ServerResponse) => {
    const placed = await body<ScriptedApi["bets"][number]>(req);
    api.bets.push(placed);
    const seat = api.state.seats[0]?.seatBalance ?? 0;
    // The table's refusal of a stake the seat does not cover: the seat's balance, unchanged.
    if (placed.betAmount > seat) {
      return json(res, 200, {
        acknowledgement: "NACK",
        message: "insufficient seat balance",
        updatedSeatBalance: seat,
      });
    }
    json(res, 200, { acknowledgement: "ACK", message: "", updatedSeatBalance: plus(seat, -placed.betAmount) });
  };
  // The next stage of the committed game shown, dealt as the table would: the client seed is the
  // dealing advance's, and the stages after keep it.
  const advance = async (req: IncomingMessage, res: ServerResponse) => {
    const sent = await body<ScriptedApi["advances"][number]>(req);
    api.advances.push(sent);
    const next = NEXT_STAGE[api.state.gameState];
    if (api.serverSeed === null || next === undefined) return json(res, 409, { error: "no scripted advance" });
    const dealing = api.state.gameState === "STATUS_SETUP" || api.state.gameState === "STATUS_START";
    const clientSeed = dealing ? (sent.clientSeed ?? null) : api.state.clientSeed;
    const state = { ...committedState(next, api.state.gameId, api.serverSeed, clientSeed), seats: api.state.seats };
    if (api.advanceEventsLagMs === 0) {
      api.push(++lastVersion, state);
      return json(res, 200, state, { "table-version": String(api.version) });
    }
    const closed: [number, TableState] = [++lastVersion, { ...api.state, bettingOpen: false }];
    const moved: [number, TableState] = [++lastVersion, state];
    json(res, 200, state, { "table-version": String(moved[0]) });
    setTimeout(() => api.push(...closed), api.advanceEventsLagMs);
    setTimeout(() => api.push(...moved), 2 * api.advanceEventsLagMs);
  };
  const money = moneyMoves(api);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const route: Record<string, () => void> = {
      "/api/client-config": () => json(res, 200, { devSignIn: true }),
      "/api/dev/token": () => json(res, 200, { token: "scripted-token" }),
      "/api/tables": () => json(res, 200, api.lobby),
      "/api/deal": () => void deal(req, res),
      "/api/games/bulk": () => void bulk(req, res),
      "/api/tables/1/state": () =>
        api.stateFailures-- > 0
          ? json(res, 503, { error: "table service unavailable" })
          : json(res, 200, api.state, { "table-version": String(api.version) }),
      "/api/tables/1/events": () => events(req, res),
      "/api/tables/1/bet": () => void bet(req, res),
      "/api/tables/1/advance": () => void advance(req, res),
      "/api/tables/1/sit": () => void money.sit(req, res),
      "/api/tables/1/topup": () => void money.topup(req, res),
      "/api/tables/1/leave": () => money.leave(res),
    };
    if (route[path]) return route[path]();
    const game = /^\/api\/tables\/1\/games\/([^/]+)$/.exec(path)?.[1];
    if (game !== undefined) {
      if (api.recordRefusals-- > 0) {
        res.setHeader("Retry-After", "30");
        return json(res, 429, { error: "too many history reads (statement pages, game records); try again later" });
      }
      const record = api.records.get(decodeURIComponent(game));
      return record ? json(res, 200, record) : json(res, 404, { error: `table 1 has no finished game ${game}` });
    }
    if (/^\/api\/players\/[^/]+\/ledger$/.test(path)) return void statementPage(api, req, res);
    if (/^\/api\/players\/[^/]+\/seats$/.test(path)) {
      return api.seatsFailures-- > 0
        ? json(res, 503, { error: "table service unavailable" })
        : json(res, 200, { seats: api.seats });
    }
    if (path.startsWith("/api/players/")) {
      const playerId = decodeURIComponent(path.slice(13));
      return json(res, 200, { ...profile(playerId), ...api.profiles.get(playerId), accountBalance: api.account });
    }
    if (path.startsWith("/api/")) return json(res, 404, { error: "no such route" });
    void serveFile(res, path === "/" ? "index.html" : path.slice(1));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}

/** A page of api.ledger, newest first, after api.ledgerDelayMs; `before` counts api.ledgerRepeats entries back. */
async function statementPage(api: ScriptedApi, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const query = new URL(req.url ?? "/", "http://localhost").searchParams;
  const before = query.has("before") ? Number(query.get("before")) : null;
  const limit = Number(query.get("limit") ?? 50);
  api.ledgerReads.push({ before, limit });
  await new Promise((resolve) => setTimeout(resolve, api.ledgerDelayMs));
  if (api.ledgerRefusals-- > 0) {
    res.setHeader("Retry-After", "30");
    return json(res, 429, { error: "too many history reads (statement pages, game records); try again later" });
  }
  const below = before === null ? Infinity : before + api.ledgerRepeats;
  const entries = api.ledger
    .filter((entry) => entry.sequence < below)
    .reverse()
    .slice(0, limit);
  const oldest = entries.at(-1)?.sequence ?? 1;
  json(res, 200, { entries, nextBefore: oldest > 1 ? oldest : null });
}

/** A fresh deal of the hands asked for, as the odds service deals it and the gateway shows it. */
async function deal(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { numberOfHands } = await body<{ numberOfHands: number }>(req);
  json(res, 200, toDealResult(dealToProto(committedDeal(numberOfHands, DEFAULT_TARGET_RTP, `DEAL-${Date.now()}`))));
}

/** A batch of whole games, as the odds service generates it and the gateway shows it. */
async function bulk(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = await body<{ numberOfGames: number; numberOfHands: BulkHandCount; targetRtp: number }>(req);
  const games = Array.from({ length: request.numberOfGames }, (_, i) =>
    bulkGameToProto(committedBulkGame(i + 1, request.numberOfHands, request.targetRtp)),
  );
  async function* pieces() {
    yield { games, generatedAt: new Date().toISOString() };
  }
  res.writeHead(200, { "content-type": "application/json" }).end(await bulkResponseJson(pieces(), request));
}

async function body<T>(req: IncomingMessage): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as T;
}

/** a + b, in units, summed in cents. */
const plus = (a: number, b: number): number => (Math.round(a * 100) + Math.round(b * 100)) / 100;

/** Eve's sit, top-up and leave at table 1, between api.account and her seat in api.state. */
function moneyMoves(api: ScriptedApi) {
  const seatOf = () => api.state.seats.find((seat) => seat.playerId === "eve");
  const setSeats = (seats: TableState["seats"]) => (api.state = { ...api.state, seats });
  return {
    async sit(req: IncomingMessage, res: ServerResponse) {
      const { buyInAmount } = await body<{ buyInAmount: number }>(req);
      if (buyInAmount > api.account) {
        return json(res, 200, {
          acknowledgement: "NACK",
          message: "insufficient account balance",
          seatId: 0,
          seatBalance: 0,
        });
      }
      api.account = plus(api.account, -buyInAmount);
      const seat = { seatId: 1, playerId: "eve", playerName: "eve", seatBalance: buyInAmount, avatarImageUrl: "" };
      setSeats([...api.state.seats, seat]);
      json(res, 200, { acknowledgement: "ACK", message: "", seatId: 1, seatBalance: buyInAmount });
    },
    async topup(req: IncomingMessage, res: ServerResponse) {
      const { amount } = await body<{ amount: number }>(req);
      const seat = seatOf()!;
      const refused = amount > api.account;
      if (!refused) {
        api.account = plus(api.account, -amount);
        setSeats(api.state.seats.map((s) => (s === seat ? { ...s, seatBalance: plus(s.seatBalance, amount) } : s)));
      }
      json(res, 200, {
        acknowledgement: refused ? "NACK" : "ACK",
        message: refused ? "insufficient account balance" : "",
        newSeatBalance: seatOf()!.seatBalance,
        newAccountBalance: api.account,
      });
    },
    leave(res: ServerResponse) {
      const creditsReturned = seatOf()?.seatBalance ?? 0;
      api.account = plus(api.account, creditsReturned);
      setSeats(api.state.seats.filter((seat) => seat.playerId !== "eve"));
      json(res, 200, { acknowledgement: "ACK", creditsReturned, newAccountBalance: api.account });
    },
  };
}

const profile = (playerId: string) => ({
  playerId,
  username: `${playerId}@example.com`,
  displayName: playerId,
  accountBalance: 1000,
  avatarImageUrl: "",
  role: "BASIC_USER",
  isActive: true,
});

async function serveFile(res: ServerResponse, relative: string): Promise<void> {
  const path = normalize(join(webDist, relative));
  if (!path.startsWith(webDist)) return json(res, 404, { error: "no such file" });
  try {
    const body = await readFile(path);
    res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(body);
  } catch {
    json(res, 404, { error: "no such file" });
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/** A table state at a stage, with two seated players and four hands once dealt. */
export function tableState(gameState: TableState["gameState"], bettingStage: number, board: string[]): TableState {
  const dealt = gameState !== "STATUS_START";
  return {
    tableId: 1,
    gameId: "T1-1",
    gameState,
    bettingStage,
    bettingOpen: bettingStage >= 0,
    numberOfHands: 4,
    numberOfSeats: 6,
    jackpotValue: 0,
    hands: dealt ? ["AhKd", "2c2d", "9s8s", "QhJh"] : null,
    flopCard1: board[0] ?? null,
    flopCard2: board[1] ?? null,
    flopCard3: board[2] ?? null,
    turnCard: board[3] ?? null,
    riverCard: board[4] ?? null,
    seats: [{ seatId: 1, playerId: "eve", playerName: "eve", seatBalance: 100, avatarImageUrl: "" }],
    bets: [],
    handOdds: dealt
      ? [0, 1, 2, 3].map((handIndex) => ({
          handIndex,
          bettingStage,
          handStatus: handIndex === 0 ? "IN_PLAY_FAVOURITE" : "IN_PLAY_BETTING_STAGE_ACTIVE",
          winPercentage: handIndex === 0 ? 40 : 20,
          drawPercentage: 0,
          odds: handIndex === 0 ? 2.4 : 4.9,
        }))
      : [],
    seedCommitment: "c0".repeat(32),
    serverSeed: null,
    clientSeed: null,
    targetRtp: dealt ? 0.97 : null,
  };
}

const STAGES: Partial<Record<TableState["gameState"], { bettingStage: number; boardCards: number }>> = {
  STATUS_SETUP: { bettingStage: -1, boardCards: 0 },
  STATUS_START: { bettingStage: -1, boardCards: 0 },
  STATUS_HOLE: { bettingStage: 0, boardCards: 0 },
  STATUS_FLOP: { bettingStage: 1, boardCards: 3 },
  STATUS_TURN: { bettingStage: 2, boardCards: 4 },
  STATUS_RIVER: { bettingStage: -1, boardCards: 5 },
};

const NEXT_STAGE: Partial<Record<TableState["gameState"], TableState["gameState"]>> = {
  STATUS_SETUP: "STATUS_HOLE",
  STATUS_START: "STATUS_HOLE",
  STATUS_HOLE: "STATUS_FLOP",
  STATUS_FLOP: "STATUS_TURN",
  STATUS_TURN: "STATUS_RIVER",
};

/**
 * A game dealt from a real committed deck (the server's provably-fair.ts), mixed with `clientSeed`
 * if any, as the table shows it at a stage: its commitment from the start, the client seed from the
 * hole on, the seed at the river only. Tests then change what a dishonest server would.
 */
export function committedState(
  gameState: TableState["gameState"],
  gameId: string,
  seed: string,
  clientSeed: string | null = null,
): TableState {
  const stage = STAGES[gameState];
  if (!stage) throw new Error(`no committed state at ${gameState}`);
  const dealt = gameState !== "STATUS_SETUP" && gameState !== "STATUS_START";
  const { hands, board } = derivedCards(effectiveSeed(seed, clientSeed), gameId, 4);
  const state = tableState(gameState, stage.bettingStage, dealt ? board.slice(0, stage.boardCards) : []);
  const river = gameState === "STATUS_RIVER";
  return {
    ...state,
    gameId,
    hands: dealt ? hands : null,
    // A settled game names its winner, as the real table does at the river.
    handOdds: river
      ? state.handOdds.map((odds) => ({ ...odds, handStatus: odds.handIndex === 0 ? "WINNER" : "LOSER" }))
      : dealt
        ? state.handOdds
        : [],
    seedCommitment: seedCommitment(seed),
    serverSeed: river ? seed : null,
    clientSeed: dealt ? clientSeed : null,
    targetRtp: dealt ? 0.97 : null,
  };
}

/** The record the table keeps of a game settled at `river` (a committed state), without bets. */
export function recordOf(river: TableState): GameRecordBody {
  const at = new Date().toISOString();
  const board = [river.flopCard1, river.flopCard2, river.flopCard3, river.turnCard, river.riverCard];
  return {
    tableId: river.tableId,
    gameId: river.gameId,
    version: 9,
    cursor: `${river.tableId}:9`,
    outcome: "SETTLED",
    numberOfHands: river.numberOfHands,
    hands: river.hands ?? [],
    board: board.filter((card): card is string => card !== null),
    handOdds: river.handOdds as GameRecordBody["handOdds"],
    winningHands: river.handOdds.filter((odds) => odds.handStatus === "WINNER").map((odds) => odds.handIndex),
    bets: [],
    stakes: 0,
    payouts: 0,
    refunds: 0,
    houseResult: 0,
    roundingRemainderCents: { numerator: 0, denominator: 1 },
    seedCommitment: river.seedCommitment ?? "",
    serverSeed: river.serverSeed ?? "",
    clientSeed: river.clientSeed,
    // A river state names its game's target RTP: it was dealt.
    targetRtp: river.targetRtp!,
    dealtBy: "eve",
    stages: [0, 1, 2].map((bettingStage) => ({ bettingStage, openedAt: at, closedAt: at })),
    dealtAt: at,
    firstBetAt: null,
    finishedAt: at,
  };
}
