// Throughput through the gateway on the real stack (embedded FerretDB, every service), as a share of
// what a bare Express route does on this machine in the same run; then the money audit of the stack
// after the load.
//
//   node --import=tsx/esm bench/throughput.ts        (after `npm run build`)
//
// Each phase runs CLIENTS concurrent clients (keep-alive connections, one request at a time each) for
// a warm-up and then SECONDS measured seconds, counting the requests answered as expected:
//   (a) GET /hello on bare Express (hello-server.ts), the baseline;
//   (b) GET /api/tables/{id}/state;
//   (c) POST /api/tables/{id}/bet: 0.01 on the hand the table shows as favourite, each client betting
//       for its PLAYERS_PER_CLIENT players in turn (a seat holds 500.00, so no seat runs dry).
// Each client has PLAYERS_PER_CLIENT players (GET /api/players/{id}: 1,000 welcome), spread
// PLAYERS_PER_TABLE to a table, seated with a buy-in, and each table advanced to STATUS_HOLE by an
// ADMIN, all through the API with development tokens. A client reads the state of its first player's
// table (tables 1 to CLIENTS / PLAYERS_PER_TABLE); its other players sit at the tables after those. The
// tables stay at STATUS_HOLE, and a seat takes at most MAX_BETS_PER_SEAT_PER_GAME (50) bets in one
// game: spread over PLAYERS_PER_CLIENT players in as many seats, the bets of a stack's whole life in
// the tracing bench (16 s of bets at about 600 a second) come to about 25 a seat. With six players a
// client they came to about 45, and bets refused at the bound were counted in a run. The load
// generator shares the machine with the stack.
import { Agent, request } from "node:http";
import { pathToFileURL } from "node:url";
import { Api, type Player, type TableState } from "../test/helpers/api.js";
import { startTestStack, type TestStack } from "../test/helpers/stack.js";
import { startHelloServer } from "./hello.js";
import { cpuSplit, readCpu } from "./cpu.js";
import { formatBenchLines, type BenchLine } from "./report.js";

const CLIENTS = 32;
const PLAYERS_PER_TABLE = 4;
const PLAYERS_PER_CLIENT = 12;
const BUY_IN = 500;
export const BET = 0.01;
const WARM_UP_S = 2;

interface ThroughputOptions {
  /** Measured seconds per phase (default 10). */
  seconds?: number;
  clients?: number;
}

export interface Target {
  method: "GET" | "POST";
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

interface PhaseResult {
  perSecond: number;
  ok: number;
  /** Every request that ended, in the warm-up too: the requests behind a reading of CPU over the whole phase. */
  answered: number;
  failed: number;
  /** Statuses and bodies of the first few failures. */
  failures: string[];
}

/**
 * The bytes of an answer that `send` decodes for `accept` and the failure messages: the rest is only
 * counted. Decoding the lobby's whole 227 KB answer as UTF-8 took about 60 % of the load generator's
 * CPU a request (bench/lobby.ts), on the cores it shares with the stack it measures.
 */
const BODY_KEPT_BYTES = 16 * 1024;

/** An answer as `send` gives it: its status, its first BODY_KEPT_BYTES decoded, and its size. */
export interface Answer {
  status: number;
  body: string;
  bytes: number;
}

function send(agent: Agent, target: Target): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      target.url,
      {
        agent,
        method: target.method,
        headers: {
          ...target.headers,
          ...(target.body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(target.body) }),
        },
      },
      (res) => {
        const kept: Buffer[] = [];
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          if (bytes < BODY_KEPT_BYTES) kept.push(chunk.subarray(0, BODY_KEPT_BYTES - bytes));
          bytes += chunk.length;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(kept).toString("utf8"), bytes }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(target.body);
  });
}

/**
 * `targets[i]` is client i's request, repeated back to back until the time is up (a list: its
 * requests in turn). Requests completing during the warm-up are not counted; `accept` decides what
 * counts as answered.
 */
export async function runPhase(
  targets: readonly (Target | readonly Target[])[],
  seconds: number,
  accept: (answer: Answer) => boolean,
): Promise<PhaseResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: targets.length });
  const started = performance.now();
  const measureFrom = started + WARM_UP_S * 1000;
  const end = measureFrom + seconds * 1000;
  let ok = 0;
  let failed = 0;
  let answered = 0;
  const failures: string[] = [];
  const client = async (requests: Target | readonly Target[]) => {
    const inTurn = Array.isArray(requests) ? requests : [requests];
    for (let n = 0; performance.now() < end; n++) {
      let answer: Answer;
      try {
        answer = await send(agent, inTurn[n % inTurn.length]!);
      } catch (error) {
        answer = { status: 0, body: (error as Error).message, bytes: 0 };
      }
      const done = performance.now();
      answered++;
      if (done < measureFrom || done > end) continue;
      if (accept(answer)) ok++;
      else {
        failed++;
        if (failures.length < 3) failures.push(`${answer.status} ${answer.body.slice(0, 200)}`);
      }
    }
  };
  try {
    await Promise.all(targets.map(client));
  } finally {
    agent.destroy();
  }
  return { perSecond: ok / seconds, ok, answered, failed, failures };
}

async function ok<T>(what: string, reply: Promise<{ status: number; body: T }>): Promise<T> {
  const { status, body } = await reply;
  if (status !== 200) throw new Error(`throughput set-up: ${what} answered ${status}: ${JSON.stringify(body)}`);
  return body;
}

interface Seated {
  player: Player;
  tableId: number;
  seatId: number;
}

/** The tables that seat one player of each client: the k-th players fill tables k * this + 1 on. */
const tablesPerRank = (clients: number) => Math.ceil(clients / PLAYERS_PER_TABLE);

/** The stack's environment for `clients` clients: enough public tables for every player (TABLE_COUNT). */
export const stackEnv = (clients: number): NodeJS.ProcessEnv => ({
  TABLE_COUNT: String(tablesPerRank(clients) * PLAYERS_PER_CLIENT),
});

interface SetUp {
  /** Each client's players; the first one's table is the one the client reads. */
  clients: Seated[][];
  admin: Player;
  /** The favourite hand of each table at STATUS_HOLE, the one its players bet on. */
  handOf: Map<number, number>;
}

/**
 * `clients` x PLAYERS_PER_CLIENT players, PLAYERS_PER_TABLE to a table from table 1 up (each client's
 * first player at tables 1 to clients / PLAYERS_PER_TABLE), each table at STATUS_HOLE.
 */
export async function setUp(stack: TestStack, clients: number): Promise<SetUp> {
  const api = new Api(stack.url, stack.dataDir);
  const admin = await api.player("bench-admin", "ADMIN");
  const seat = async (i: number, k: number): Promise<Seated> => {
    const player = await api.player(k === 0 ? `bench-player-${i}` : `bench-player-${i}-${k}`);
    await ok("profile", player.profile());
    const tableId = 1 + k * tablesPerRank(clients) + Math.floor(i / PLAYERS_PER_TABLE);
    const sit = await ok("sit", player.sit(tableId, BUY_IN));
    if (sit.acknowledgement !== "ACK") throw new Error(`throughput set-up: sit NACK: ${sit.message}`);
    return { player, tableId, seatId: sit.seatId };
  };
  // A player of each client at a time: all of them at once (384) ran a sit past its 10 s deadline on
  // a slow day, and the set-up failed.
  const seated: Seated[][] = Array.from({ length: clients }, () => []);
  for (let k = 0; k < PLAYERS_PER_CLIENT; k++) {
    const rank = await Promise.all(Array.from({ length: clients }, (_, i) => seat(i, k)));
    rank.forEach((player, i) => seated[i]!.push(player));
  }
  const favouriteAtHole = async (tableId: number): Promise<[number, number]> => {
    let state: TableState = await ok("state", admin.request<TableState>("GET", `/api/tables/${tableId}/state`));
    for (let step = 0; state.gameState !== "STATUS_HOLE"; step++) {
      if (step === 5) throw new Error(`throughput set-up: table ${tableId} did not reach STATUS_HOLE`);
      state = await ok("advance", admin.advance(tableId));
    }
    const favourite = state.handOdds.find((h) => h.bettingStage === 0 && h.handStatus === "IN_PLAY_FAVOURITE");
    if (!favourite) throw new Error(`throughput set-up: table ${tableId} shows no favourite`);
    return [tableId, favourite.handIndex];
  };
  const tableIds = [...new Set(seated.flat().map((s) => s.tableId))];
  const handOf = new Map(await Promise.all(tableIds.map(favouriteAtHole)));
  return { clients: seated, admin, handOf };
}

/** Each client reads the state of its first player's table. */
export function stateTargets({ clients }: SetUp, base: URL): Target[] {
  return clients.map(([first]) => ({
    method: "GET" as const,
    url: new URL(`/api/tables/${first!.tableId}/state`, base),
    headers: auth(first!.player),
  }));
}

/** Each client bets BET on its tables' favourites, for each of its players in turn. */
export function betTargets({ clients, handOf }: SetUp, base: URL): Target[][] {
  return clients.map((players) =>
    players.map((s) => ({
      method: "POST" as const,
      url: new URL(`/api/tables/${s.tableId}/bet`, base),
      headers: auth(s.player),
      body: JSON.stringify({ seatIndex: s.seatId, handIndex: handOf.get(s.tableId), betAmount: BET }),
    })),
  );
}

interface AuditBody {
  status: string;
  mismatches: { message: string }[];
  unsettled: { message: string }[];
}

/** The audit after the load; a pending one is asked again for up to 30 s (recovery finishes transfers). */
async function auditAfter(admin: Player): Promise<AuditBody> {
  const until = Date.now() + 30_000;
  for (;;) {
    const report = await ok("audit", admin.request<AuditBody>("GET", "/api/admin/audit"));
    if (report.status !== "pending" || Date.now() > until) return report;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

const auth = (player: Player) => ({ authorization: `Bearer ${player.token}` });

type ProfiledResult = PhaseResult & { cpu: { text: string; total: number } };

/** Runs phases on the stack, reading every process's CPU around each: where the time goes. */
function profiledPhase(stack: TestStack, seconds: number) {
  return async (targets: readonly (Target | readonly Target[])[], accept: (answer: Answer) => boolean) => {
    const started = performance.now();
    const before = await readCpu(stack.children());
    const result = await runPhase(targets, seconds, accept);
    const cpu = cpuSplit(before, await readCpu(stack.children()), (performance.now() - started) / 1000);
    return { ...result, cpu } satisfies ProfiledResult;
  };
}

const cpuLine = (what: string, phase: ProfiledResult): BenchLine => ({
  name: `  where the ${what}' time went (CPU, share of the machine incl. warm-up): ${phase.cpu.text}`,
  value: 100 * phase.cpu.total,
  unit: "% busy",
});
const failedText = (phase: PhaseResult) =>
  phase.failed > 0 ? `; ${phase.failed} failed, e.g. ${phase.failures[0]}` : "";

export async function benchThroughput(options: ThroughputOptions = {}): Promise<BenchLine[]> {
  const seconds = options.seconds ?? 10;
  const clients = options.clients ?? CLIENTS;
  const tables = tablesPerRank(clients);
  const hello = await startHelloServer();
  let stack: TestStack | undefined;
  try {
    stack = await startTestStack({ env: stackEnv(clients) });
    const setup = await setUp(stack, clients);
    const base = new URL(stack.url);

    const baseline = await runPhase(
      Array.from({ length: clients }, () => ({
        method: "GET" as const,
        url: new URL(`${hello.url}/hello`),
        headers: {},
      })),
      seconds,
      ({ status }) => status === 200,
    );
    const profiled = profiledPhase(stack, seconds);
    const states = await profiled(stateTargets(setup, base), ({ status }) => status === 200);
    const bets = await profiled(
      betTargets(setup, base),
      ({ status, body }) => status === 200 && body.includes('"ACK"'),
    );
    const audit = await auditAfter(setup.admin);

    const spread = (tables: number) => `${clients} clients over ${tables} tables, ${seconds} s`;
    const share = (phase: PhaseResult) => phase.perSecond / baseline.perSecond;
    const percent = (phase: PhaseResult) => `${(100 * share(phase)).toFixed(1)}% of bare Express`;
    const clean = audit.status === "clean";
    const findings = [...audit.mismatches, ...audit.unsettled].map((f) => f.message);
    return [
      {
        name: `bare Express GET /hello, ${clients} clients, ${seconds} s (baseline)${failedText(baseline)}`,
        value: baseline.perSecond,
        unit: "req/s",
      },
      {
        name: `GET /api/tables/{id}/state, ${spread(tables)}: ${percent(states)}${failedText(states)}`,
        value: states.perSecond,
        unit: "req/s",
        ratio: { to: "bare Express", value: share(states) },
        goal: ">= 40% of bare Express",
        met: share(states) >= 0.4,
      },
      cpuLine("state reads", states),
      {
        name: `POST /api/tables/{id}/bet (${BET} each, ${bets.ok} placed), ${spread(tables * PLAYERS_PER_CLIENT)} (${clients * PLAYERS_PER_CLIENT} players): ${percent(bets)}${failedText(bets)}`,
        value: bets.perSecond,
        unit: "req/s",
        ratio: { to: "bare Express", value: share(bets) },
        goal: ">= 10% of bare Express",
        met: share(bets) >= 0.1,
      },
      cpuLine("bets", bets),
      {
        name: `audit after the run (GET /api/admin/audit): ${audit.status}${findings.length > 0 ? ` — ${findings.slice(0, 3).join(" | ")}` : ""}`,
        value: clean ? 1 : 0,
        unit: "clean",
        goal: "clean",
        met: clean,
      },
    ];
  } finally {
    hello.stop();
    await stack?.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = process.env.BENCH_SECONDS ? Number(process.env.BENCH_SECONDS) : undefined;
  console.log(formatBenchLines(await benchThroughput({ seconds })));
}
