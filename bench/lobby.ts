// The lobby (GET /api/tables, public) through the gateway on the real stack, polled by CLIENTS
// concurrent clients: with no table active (the baseline, an answer of a few bytes) against the same
// stack once ACTIVE tables are active (an answer of about 230 KB), in the same run.
//
//   node --import=tsx/esm bench/lobby.ts        (after `npm run build`)
//
// The lobby lists every active table, so its answer grows with them; what must not grow with them
// is the work behind each call beyond sending that answer. The table service lists the tables again
// only when a pass over them (while the lobby is read: one a second, or one per 1,000 tables a
// second with more) or a change stored changes what the lobby shows, and the gateway sends the JSON
// it wrote last while the table service says it is still the lobby, with one call out at a time.
// Before (80bbe15: each call listed, encoded, decoded and wrote every table), 198 requests a second
// at 4,000 active tables, 0.04x of the empty lobby's (README, "Benchmarks"). These clients do not
// take gzip, so each answer moves 227 KB to a load generator on the same 2 cores: since the empty
// lobby got cheaper (one gateway call for the requests that come at once), that, not the stack,
// bounds the ratio on Node 24. The load generator counts an answer's bytes and decodes only its
// first 16 KB: decoding all 227 KB took about 60 % of its CPU a request, and the whole lobby went
// from 914 to 1,400 req/s (0.15x to 0.23x) on Node 24 at 02:27 UTC on 2026-12-06, the load generator
// still 44 % of the machine. The same lobby to clients
// that take gzip, as every browser does, is measured beside it, with no goal of its own; and the
// same lobby to clients that hold it and revalidate (If-None-Match, answered 304 without a body
// while it is unchanged), as a browser does at each poll.
//
// Then the same lobby while PLAYING players sit down and leave again (each move changes the lobby),
// against the lobby alone and the moves alone. On 2a93d63 (each gateway request its own call, so
// every request in flight when the lobby changed was sent the whole list), 148 against 780 req/s
// (0.19x), the moves 41 against 101 a second, at 21:40 UTC on 2026-12-05. Until the table service
// listed the lobby again for this replica's changes at most once per relisting age (200 ms at 4,000
// tables; services/table/README.md), each move was listed again: alone on Node 24 at 07:20-07:34 UTC
// on 2026-12-06, two runs of c4d7180 gave 0.36x and 0.29x (the moves 0.51x and 0.46x), two of the
// change 0.42x and 0.38x (the moves 0.49x and 0.47x), the table's share of the machine 24-26 % and 21 %.
//
// Then the other two things the web lobby asks every 30 s for each player, on the same stack: the
// player's seats (the 20 public tables' heads, one read shared by the calls that come at once, and
// the player's personal table, which the wallet names) against the player's profile (one wallet
// read). On de3cc4e, before GetPersonalTable, the wallet read each seats call's balance too: 554-583
// against 1,015-1,116 req/s (0.52x-0.55x) in a one-off run of these phases at 21:19 UTC on 2026-12-05.
import { MongoClient } from "mongodb";
import { get } from "node:http";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { Api, type Player } from "../test/helpers/api.js";
import { startTestStack, type TestStack } from "../test/helpers/stack.js";
import { cpuSplit, readCpu } from "./cpu.js";
import { formatBenchLines, type BenchLine } from "./report.js";
import { activateTables } from "./table.js";
import { runPhase, type Answer, type Target } from "./throughput.js";

const CLIENTS = 32;
const ACTIVE = 4_000;
/** The active tables' answer at least, in bytes: a body short of it is an answer without them. */
const ACTIVE_BODY_BYTES = ACTIVE * 50;
/** The same gzipped at least: it is about 10 KB, far above an empty lobby's few dozen bytes. */
const ACTIVE_GZIPPED_BYTES = 2_000;
/** The first pass over tables just loaded reads each cold; the lobby lists them within this. */
const LISTED_WITHIN_MS = 60_000;
/** The lobby of ACTIVE tables keeps at least this share of the empty lobby's requests a second. */
const GOAL = 0.2;
/** The public tables the seats bench's players sit at (of the default 20). */
const SEATED_TABLES = 8;
/** Players sitting down and leaving again while the lobby is polled, each at a table of its own. */
const PLAYING = 8;

interface LobbyPhase {
  perSecond: number;
  failed: number;
  failures: string[];
  cpu: { text: string; total: number };
}

async function poll(
  stack: TestStack,
  targets: readonly Target[],
  seconds: number,
  accept: (answer: Answer) => boolean,
): Promise<LobbyPhase> {
  const started = performance.now();
  const before = await readCpu(stack.children());
  const result = await runPhase(targets, seconds, accept);
  const cpu = cpuSplit(before, await readCpu(stack.children()), (performance.now() - started) / 1000);
  return { ...result, cpu };
}

/** CLIENTS clients polling the lobby; with `gzip`, taking it gzipped, as every browser does. */
function pollLobby(stack: TestStack, seconds: number, minBytes: number, gzip = false): Promise<LobbyPhase> {
  const headers: Record<string, string> = gzip ? { "accept-encoding": "gzip" } : {};
  const target: Target = { method: "GET", url: new URL(`${stack.url}/api/tables`), headers };
  const targets = Array.from({ length: CLIENTS }, () => target);
  return poll(stack, targets, seconds, ({ status, bytes }) => status === 200 && bytes >= minBytes);
}

/**
 * CLIENTS clients polling the lobby as a browser does once it holds it: gzip taken, and If-None-Match
 * naming the lobby held (`etag`), answered 304 while it is unchanged.
 */
function revalidateLobby(stack: TestStack, seconds: number, etag: string): Promise<LobbyPhase> {
  const headers = { "accept-encoding": "gzip", "if-none-match": etag };
  const target: Target = { method: "GET", url: new URL(`${stack.url}/api/tables`), headers };
  const targets = Array.from({ length: CLIENTS }, () => target);
  return poll(stack, targets, seconds, ({ status }) => status === 304);
}

/** The lobby's ETag as the gateway gives it now. */
async function lobbyEtag(url: string): Promise<string> {
  const response = await fetch(url);
  await response.arrayBuffer();
  const etag = response.headers.get("etag");
  if (!etag) throw new Error("the lobby carries no ETag");
  return etag;
}

/** CLIENTS players, each seated at one of the first SEATED_TABLES public tables. */
async function seatedPlayers(stack: TestStack): Promise<Player[]> {
  const api = new Api(stack.url, stack.dataDir);
  return Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      const player = await api.player(`lobby-player-${i}`);
      await player.profile();
      const sat = await player.sit(1 + (i % SEATED_TABLES), 10);
      if (sat.body.acknowledgement !== "ACK") throw new Error(`lobby bench set-up: sit ${sat.status}`);
      return player;
    }),
  );
}

/**
 * PLAYING players each sitting down at a table of their own (after the seated players' tables) and
 * leaving again, in a loop, until stopped: each sit and each leave changes what the lobby shows.
 */
async function sitsAndLeaves(stack: TestStack): Promise<{ stop(): Promise<{ perSecond: number; failed: number }> }> {
  const api = new Api(stack.url, stack.dataDir);
  const players = await Promise.all(
    Array.from({ length: PLAYING }, async (_, i) => {
      const player = await api.player(`lobby-playing-${i}`);
      await player.profile();
      return player;
    }),
  );
  let running = true;
  let done = 0;
  let failed = 0;
  const started = performance.now();
  const loops = players.map(async (player, i) => {
    const tableId = SEATED_TABLES + 1 + i;
    while (running) {
      for (const reply of [await player.sit(tableId, 1), await player.leave(tableId)]) {
        if (reply.status === 200) done++;
        else failed++;
      }
    }
  });
  return {
    stop: async () => {
      const perSecond = done / ((performance.now() - started) / 1000);
      running = false;
      await Promise.all(loops);
      return { perSecond, failed };
    },
  };
}

/** The moves alone, then the lobby polled while they go on (and the moves meanwhile). */
async function lobbyWhilePlayed(stack: TestStack, seconds: number) {
  const alone = await sitsAndLeaves(stack);
  await sleep((seconds + 1) * 1000);
  const play = await alone.stop();
  const playing = await sitsAndLeaves(stack);
  const whilePlayed = await pollLobby(stack, seconds, ACTIVE_BODY_BYTES);
  return { play, whilePlayed, played: await playing.stop() };
}

/** Each player polls their own profile (the baseline: one wallet read) or their own seats. */
function pollPlayers(stack: TestStack, players: readonly Player[], path: "" | "/seats", seconds: number) {
  const targets: Target[] = players.map((player) => ({
    method: "GET",
    url: new URL(`${stack.url}/api/players/${player.id}${path}`),
    headers: { authorization: `Bearer ${player.token}` },
  }));
  return poll(stack, targets, seconds, ({ status }) => status === 200);
}

/** Waits until the lobby lists the `count` tables just made active (their first pass reads them cold). */
async function untilListed(stack: TestStack, count: number): Promise<number> {
  const deadline = performance.now() + LISTED_WITHIN_MS;
  for (;;) {
    const response = await fetch(`${stack.url}/api/tables`);
    const body = (await response.json()) as { tables: unknown[] };
    if (body.tables.length >= count) return JSON.stringify(body).length;
    if (performance.now() > deadline) throw new Error(`the lobby listed ${body.tables.length} of ${count} tables`);
    await sleep(500);
  }
}

const cpuLine = (phase: LobbyPhase): BenchLine => ({
  name: `  where the time went (CPU, share of the machine incl. warm-up): ${phase.cpu.text}`,
  value: 100 * phase.cpu.total,
  unit: "% busy",
});

/** The bytes of the lobby as the gateway sends it to a client that takes gzip. */
function gzippedBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve(res.headers["content-encoding"] === "gzip" ? bytes : NaN));
      res.on("error", reject);
    }).on("error", reject);
  });
}

const failedText = (phase: LobbyPhase) =>
  phase.failed > 0 ? `; ${phase.failed} failed, e.g. ${phase.failures[0]?.slice(0, 120)}` : "";

/** The active lobby as browsers take it: gzipped, then revalidated by clients that hold it. */
async function browserLobbies(
  stack: TestStack,
  seconds: number,
  empty: LobbyPhase,
  gzipped: number,
): Promise<BenchLine[]> {
  const activeGzipped = await pollLobby(stack, seconds, ACTIVE_GZIPPED_BYTES, true);
  const revalidated = await revalidateLobby(stack, seconds, await lobbyEtag(`${stack.url}/api/tables`));
  return [
    {
      name: `the same, to clients that take gzip (${(gzipped / 1024).toFixed(0)} KB an answer, compressed once per lobby)${failedText(activeGzipped)}`,
      value: activeGzipped.perSecond,
      unit: "req/s",
      ratio: { to: "no table active", value: activeGzipped.perSecond / empty.perSecond },
    },
    cpuLine(activeGzipped),
    {
      name: `the same, to clients that hold it and revalidate (If-None-Match, as a browser does at each poll: 304, no body)${failedText(revalidated)}`,
      value: revalidated.perSecond,
      unit: "req/s",
      ratio: { to: "no table active", value: revalidated.perSecond / empty.perSecond },
    },
    cpuLine(revalidated),
  ];
}

export async function benchLobby(options: { seconds?: number } = {}): Promise<BenchLine[]> {
  const seconds = options.seconds ?? 10;
  const stack = await startTestStack();
  try {
    const empty = await pollLobby(stack, seconds, 0);
    const players = await seatedPlayers(stack);
    const profiles = await pollPlayers(stack, players, "", seconds);
    const seats = await pollPlayers(stack, players, "/seats", seconds);
    const client = await MongoClient.connect(stack.mongodbUri);
    try {
      await activateTables(client.db("table"), ACTIVE, 1_000);
    } finally {
      await client.close();
    }
    const bytes = await untilListed(stack, ACTIVE);
    const gzipped = await gzippedBytes(`${stack.url}/api/tables`);
    const active = await pollLobby(stack, seconds, ACTIVE_BODY_BYTES);
    const ratio = active.perSecond / empty.perSecond;
    const toBrowsers = await browserLobbies(stack, seconds, empty, gzipped);
    const { play, whilePlayed, played } = await lobbyWhilePlayed(stack, seconds);
    return [
      {
        name: `GET /api/tables, no table active (baseline), ${CLIENTS} clients, ${seconds} s${failedText(empty)}`,
        value: empty.perSecond,
        unit: "req/s",
      },
      cpuLine(empty),
      {
        name: `GET /api/tables, ${ACTIVE} tables active (an answer of ${(bytes / 1024).toFixed(0)} KB, ${(gzipped / 1024).toFixed(0)} KB to a client that takes gzip; these clients do not)${failedText(active)}`,
        value: active.perSecond,
        unit: "req/s",
        ratio: { to: "no table active", value: ratio },
        goal: `>= ${GOAL}x no table active`,
        met: ratio >= GOAL && active.failed === 0,
      },
      cpuLine(active),
      ...toBrowsers,
      {
        name: `sits and leaves of ${PLAYING} players, each at a table of its own, alone (the baseline of the play below)${play.failed ? `; ${play.failed} failed` : ""}`,
        value: play.perSecond,
        unit: "moves/s",
      },
      {
        name: `GET /api/tables, ${ACTIVE} tables active, while those players sit and leave (each move changes the lobby)${failedText(whilePlayed)}`,
        value: whilePlayed.perSecond,
        unit: "req/s",
        ratio: { to: "the lobby alone", value: whilePlayed.perSecond / active.perSecond },
      },
      {
        name: `  the moves meanwhile${played.failed ? `; ${played.failed} failed` : ""}`,
        value: played.perSecond,
        unit: "moves/s",
        ratio: { to: "alone", value: played.perSecond / play.perSecond },
      },
      cpuLine(whilePlayed),
      {
        name: `GET /api/players/{id} (the baseline: a profile, one wallet read), ${CLIENTS} players, ${seconds} s${failedText(profiles)}`,
        value: profiles.perSecond,
        unit: "req/s",
      },
      cpuLine(profiles),
      {
        name: `GET /api/players/{id}/seats, the same players, seated at ${SEATED_TABLES} of the 20 public tables (the web lobby asks both every 30 s)${failedText(seats)}`,
        value: seats.perSecond,
        unit: "req/s",
        ratio: { to: "profile", value: seats.perSecond / profiles.perSecond },
      },
      cpuLine(seats),
    ];
  } finally {
    await stack.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = process.env.BENCH_SECONDS ? Number(process.env.BENCH_SECONDS) : undefined;
  console.log(formatBenchLines(await benchLobby({ seconds })));
}
