// Game records on the whole stack (gateway, odds, wallet, table, embedded FerretDB): games played
// through the API with bets at every stage, and one voided by its last player leaving, are exported
// by GET /api/admin/games each exactly once, with the cards, odds, bets and payouts the API showed
// (the seats' balances moved by exactly the payouts), and each deck verifies from its revealed seed
// by the documented procedure. The filters work end to end, a non-ADMIN is refused, and
// `npm run export-games` writes the same records with the development issuer's ADMIN token, a file
// `npm run verify` then verifies record by record.
import test, { type ExecutionContext } from "ava";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { verifyGame } from "../../services/odds/src/domain/provably-fair.js";
import { devAdminToken } from "../../tools/src/dev-admin-token.js";
import { runExportCli } from "../../tools/src/game-export-cli.js";
import { Api, cents, show, type Player, type TableState } from "../helpers/api.js";
import { boardOf } from "../helpers/money.js";
import { openLines } from "../helpers/ndjson.js";
import { stackPerFile } from "../helpers/stack.js";

const file = stackPerFile(test);
let api: Api;
let admin: Player;

interface GameRecord {
  tableId: number;
  gameId: string;
  cursor: string;
  outcome: "SETTLED" | "VOID";
  hands: string[];
  board: string[];
  handOdds: TableState["handOdds"];
  winningHands: number[];
  bets: {
    playerId: string;
    seatIndex: number;
    handIndex: number;
    bettingStage: number;
    betAmount: number;
    recordedOdds: number;
    returned: number;
    paidTo: string;
    placedAt: string;
  }[];
  stakes: number;
  payouts: number;
  refunds: number;
  houseResult: number;
  targetRtp: number;
  dealtBy: string;
  stages: { bettingStage: number; openedAt: string; closedAt: string | null }[];
  seedCommitment: string | null;
  serverSeed: string | null;
  clientSeed: string | null;
  dealtAt: string;
  firstBetAt: string | null;
  finishedAt: string;
}

/** What was played: each settled game's state before its river (after the last bets) and at it; the void's last state. */
const played: { beforeRiver: TableState; river: TableState }[] = [];
let voided: TableState;

test.before(async () => {
  const stack = await file.ready;
  api = new Api(stack.url, stack.dataDir);
  admin = await api.player("records-admin", "ADMIN");
  const alice = await api.player("records-alice");
  const bob = await api.player("records-bob");
  for (const player of [alice, bob]) await player.profile();
  for (const player of [alice, bob]) expectOk(await player.sit(2, 200));
  for (let game = 0; game < 2; game++) played.push(await playToRiver(2, [alice, bob]));
  // The void: the only player leaves with bets open, at the hole.
  expectOk(await alice.sit(3, 100));
  const hole = expectOk(await alice.advance(3));
  await betOnLiveHands(3, [alice], hole);
  voided = await alice.readState(3);
  expectOk(await alice.leave(3));
});

function expectOk<T>(reply: { status: number; body: T; method: string; path: string; requestId: string | null }): T {
  if (reply.status !== 200) throw new Error(show(reply));
  return reply.body;
}

/** Every player backs every hand that can still win at this stage: 1.00 and 2.00 a hand. */
async function betOnLiveHands(tableId: number, players: Player[], state: TableState): Promise<void> {
  const live = state.handOdds.filter((p) => p.bettingStage === state.bettingStage && p.odds > 0);
  for (const [i, player] of players.entries()) {
    const seatIndex = state.seats.find((s) => s.playerId === player.id)!.seatId;
    for (const panel of live) {
      const reply = await player.bet(tableId, { seatIndex, handIndex: panel.handIndex, betAmount: i + 1 });
      if (expectOk(reply).acknowledgement !== "ACK") throw new Error(show(reply));
    }
  }
}

async function playToRiver(tableId: number, players: Player[]) {
  const [first] = players;
  for (let stage = 0; stage < 3; stage++)
    await betOnLiveHands(tableId, players, expectOk(await first!.advance(tableId)));
  const beforeRiver = await first!.readState(tableId);
  const river = expectOk(await first!.advance(tableId));
  expectOk(await first!.advance(tableId)); // cleared for the next game
  return { beforeRiver, river };
}

async function exported(query = ""): Promise<{ records: GameRecord[]; lines: unknown[] }> {
  const stream = await openLines(`${api.url}/api/admin/games${query}`, admin.token);
  if (stream.status !== 200) throw new Error(`export: ${stream.status} ${JSON.stringify(stream.body)}`);
  const { cut } = await stream.done;
  if (cut) throw new Error("the export was cut");
  const records = stream.lines.slice(0, -1) as GameRecord[];
  if (JSON.stringify(stream.lines.at(-1)) !== JSON.stringify({ end: true, games: records.length })) {
    throw new Error(`no trailer: ${JSON.stringify(stream.lines.at(-1))}`);
  }
  return { records, lines: stream.lines };
}

function assertVerifies(t: ExecutionContext, record: GameRecord): void {
  const verdict = verifyGame({
    seed: record.serverSeed!,
    commitment: record.seedCommitment!,
    gameId: record.gameId,
    clientSeed: record.clientSeed,
    hands: record.hands,
    board: record.board,
  });
  t.deepEqual(verdict, { ok: true }, record.gameId);
}

function assertSettledAsPlayed(t: ExecutionContext, record: GameRecord, { beforeRiver, river }: (typeof played)[0]) {
  t.like(record, { tableId: river.tableId, gameId: river.gameId, outcome: "SETTLED" });
  t.deepEqual(record.hands, river.hands);
  t.deepEqual(record.board, boardOf(river));
  t.deepEqual(record.handOdds, river.handOdds);
  t.is(record.seedCommitment, river.seedCommitment);
  t.is(record.serverSeed, river.serverSeed);
  t.is(record.clientSeed, river.clientSeed);
  t.is(river.targetRtp, record.targetRtp);
  t.is(record.dealtBy, "records-alice", "the first player advances, and so deals");
  t.deepEqual(
    record.stages.map((stage) => [stage.bettingStage, stage.closedAt !== null]),
    [
      [0, true],
      [1, true],
      [2, true],
    ],
  );
  const strip = ({ playerId, seatIndex, handIndex, bettingStage, betAmount, recordedOdds }: GameRecord["bets"][0]) => ({
    playerId,
    seatIndex,
    handIndex,
    bettingStage,
    betAmount,
    recordedOdds,
  });
  t.deepEqual(record.bets.map(strip), river.bets);
  const winners = river.handOdds
    .filter((p) => p.bettingStage === -1 && p.handStatus === "WINNER")
    .map((p) => p.handIndex);
  t.deepEqual(record.winningHands, winners);
  for (const bet of record.bets) {
    const wins = winners.includes(bet.handIndex);
    const due = wins
      ? Math.floor((cents(bet.betAmount) * Math.round(bet.recordedOdds * 10)) / (10 * winners.length))
      : 0;
    t.is(cents(bet.returned), due);
    t.is(bet.paidTo, due > 0 ? "SEAT" : "NONE");
  }
  // The river moved each seat by exactly what the record says it paid there.
  for (const seat of river.seats) {
    const before = beforeRiver.seats.find((s) => s.playerId === seat.playerId)!;
    const paid = record.bets.filter((b) => b.playerId === seat.playerId).reduce((sum, b) => sum + cents(b.returned), 0);
    t.is(cents(seat.seatBalance) - cents(before.seatBalance), paid, seat.playerId);
  }
  const stakes = record.bets.reduce((sum, b) => sum + cents(b.betAmount), 0);
  t.is(cents(record.stakes), stakes);
  t.is(Math.round(record.houseResult * 100), stakes - cents(record.payouts));
  t.true(record.dealtAt <= record.firstBetAt! && record.firstBetAt! <= record.finishedAt);
}

test("every game once, as played: cards, odds, bets, payouts; each deck verifies from its seed", async (t) => {
  const { records } = await exported();
  t.deepEqual(
    records.map((r) => `${r.gameId} ${r.outcome}`),
    ["T2-1 SETTLED", "T2-2 SETTLED", "T3-1 VOID"],
  );
  records.slice(0, 2).forEach((record, i) => assertSettledAsPlayed(t, record, played[i]!));
  const voidRecord = records[2]!;
  t.deepEqual(voidRecord.hands, voided.hands);
  t.deepEqual(voidRecord.board, []);
  t.deepEqual(voidRecord.handOdds, voided.handOdds);
  t.is(voidRecord.seedCommitment, voided.seedCommitment);
  t.deepEqual(
    voidRecord.bets.map((b) => [b.handIndex, b.betAmount, b.returned, b.paidTo]),
    voided.bets.map((b) => [b.handIndex, b.betAmount, b.betAmount, "ACCOUNT"]),
  );
  t.like(voidRecord, { payouts: 0, houseResult: 0, refunds: voidRecord.stakes });
  for (const record of records) assertVerifies(t, record);
});

test("filters end to end: one table, a time window, after a cursor; a non-ADMIN is refused", async (t) => {
  const { records: all } = await exported();
  const ids = (records: GameRecord[]) => records.map((r) => r.gameId);
  t.deepEqual(ids((await exported("?tableId=3")).records), ["T3-1"]);
  t.deepEqual(ids((await exported(`?after=${all[0]!.cursor}`)).records), ["T2-2", "T3-1"]);
  const since = encodeURIComponent(all[1]!.finishedAt);
  t.deepEqual(ids((await exported(`?finishedAfter=${since}`)).records), ["T2-2", "T3-1"]);
  t.deepEqual(ids((await exported(`?finishedBefore=${since}`)).records), ["T2-1"]);
  t.is((await exported("?tableId=1")).records.length, 0);
  const player = await api.player("records-alice");
  const refused = await openLines(`${api.url}/api/admin/games`, player.token);
  t.is(refused.status, 403);
  t.is((await openLines(`${api.url}/api/admin/games?tableId=x`, admin.token)).status, 400);
});

test("npm run export-games writes the same records, with the development issuer's ADMIN token", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "records-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const out = join(dir, "games.jsonl");
  const err: string[] = [];
  const io = { stdout: process.stdout, err: (text: string) => err.push(text) };
  const env = { AUDIT_URL: api.url, DATA_DIR: file.stack.dataDir };
  t.is(await runExportCli(env, ["--out", out], io, devAdminToken), 0, err.join("\n"));
  const { lines } = await exported();
  t.is(
    await readFile(out, "utf8"),
    lines
      .slice(0, -1)
      .map((line) => `${JSON.stringify(line)}\n`)
      .join(""),
  );
  t.regex(err.join("\n"), /3 games exported/);
  // The auditor's next step: the file as written, every record checked against its cards.
  const verified = await runVerify(["--json", out]);
  t.is(verified.code, 0, verified.stderr);
  t.is(
    verified.stdout,
    "T2-1: verified (cards and outcome)\nT2-2: verified (cards and outcome)\nT3-1: verified (cards and outcome)\n",
  );
});

/** `npm run verify` as a command (tsx loading its source). */
function runVerify(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = fileURLToPath(new URL("../../tools/src/verify.ts", import.meta.url));
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import=tsx/esm", cli, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}
