// The stack as `npm start` runs it (node launcher/dist/main.js, its own DATA_DIR and port) heals
// itself. During a storm of sits, bets, top-ups and leaves from several players, each service and
// the database in turn is killed with SIGKILL (its pid from <DATA_DIR>/pids.json, checked to be the
// launcher's child): health says who is down (503 naming it; no answer while the gateway is), the
// launcher logs the restart, health is 200 again with no operator action, and at the end the
// transfers are complete and the ADMIN audit is clean. Then one child is killed past the restart
// limit: the launcher stops everything and exits 1. A second stack is stopped with SIGTERM while a
// restart waits for its delay: it exits 0 within 10 s, nothing is restarted and nothing is left.
// The policy itself (backoff sequence, window) is tested in launcher/test/restarts.test.ts.
import { freePort } from "@pokerodds/launcher/ports";
import test, { type ExecutionContext } from "ava";
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { Api, show, type Player, type Reply, type TableState } from "../helpers/api.js";
import { settledAudit } from "../helpers/money.js";
import { eventually } from "../helpers/poll.js";
import { SeenProcesses } from "../helpers/processes.js";
import { seededRandom, seedFromEnv, type Random } from "../helpers/random.js";
import { NO_LIMITS } from "../helpers/stack.js";

const launcherMain = fileURLToPath(new URL("../../launcher/dist/main.js", import.meta.url));
const seed = seedFromEnv();

/** A line of the launcher's own log (pino JSON). */
interface LogLine {
  level: number;
  msg: string;
  child?: string;
  [field: string]: unknown;
}

interface PidFileContent {
  launcher: number;
  children: Record<string, number>;
  addresses: Record<string, string>;
}

interface Launched {
  pid: number;
  url: string;
  dataDir: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The launcher's own log lines so far, in order. */
  lines: LogLine[];
  /** The first launcher line matching, waiting up to `timeoutMs` for it. */
  line(what: string, match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** <DATA_DIR>/pids.json, or undefined when absent. */
  pids(): Promise<PidFileContent | undefined>;
  /** Every child pid ever read from the pid file. */
  seen: SeenProcesses;
}

// Hermetic, as test/helpers/stack.ts: nothing of the developer's shell leaks in; no rate limits.
const notInherited = ["NODE_OPTIONS", "MONGODB_URI", "AUTH_JWKS_URL", "AUTH_ISSUER", "AUTH_AUDIENCE", "TABLE_COUNT"];

/**
 * Starts the launcher as `npm start` does and waits for its "API ready" line. The launcher picks free
 * ports that its children then bind, so a stack another test file starts meanwhile can take one in
 * between (EADDRINUSE): such a start is tried again once, on new ports, as test/helpers/stack.ts does.
 */
async function launch(t: ExecutionContext, extraEnv: Record<string, string>): Promise<Launched> {
  try {
    return await launchOnce(t, extraEnv);
  } catch (error) {
    if (!String((error as Error).message).includes("EADDRINUSE")) throw error;
    return launchOnce(t, extraEnv);
  }
}

async function launchOnce(t: ExecutionContext, extraEnv: Record<string, string>): Promise<Launched> {
  const dataDir = await mkdtemp(join(tmpdir(), "pokerodds-healing-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, ...NO_LIMITS, ...extraEnv, PORT: String(port), DATA_DIR: dataDir };
  for (const name of notInherited) delete env[name];
  const launched = spawn(process.execPath, [launcherMain], { env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    launched.once("exit", (code, signal) => resolve({ code, signal })),
  );
  // Everything (the launcher's and every child's output) to a file for a failed run; the launcher's lines kept.
  const logFile = join(dataDir, "stack.log");
  const log = createWriteStream(logFile);
  const lines: LogLine[] = [];
  let addressInUse = false;
  for (const stream of [launched.stdout, launched.stderr]) {
    createInterface({ input: stream }).on("line", (text) => {
      log.write(`${text}\n`);
      addressInUse ||= text.includes("EADDRINUSE");
      const entry = parseJson(text);
      if (entry?.service === "launcher") lines.push(entry as unknown as LogLine);
    });
  }
  const seen = new SeenProcesses();
  const pids = async () => {
    const text = await readFile(join(dataDir, "pids.json"), "utf8").catch(() => undefined);
    const content = text === undefined ? undefined : (JSON.parse(text) as PidFileContent);
    for (const pid of Object.values(content?.children ?? {})) seen.add(pid);
    return content;
  };
  const line = (what: string, match: (line: LogLine) => boolean, timeoutMs = 90_000) =>
    eventually(`the launcher logs ${what}`, async () => lines.find(match), { timeoutMs, intervalMs: 100 });

  t.teardown(async () => {
    // Only finds something running when the test failed: stop it, then leave nothing behind.
    if (launched.exitCode === null && launched.signalCode === null) {
      launched.kill("SIGTERM");
      if (!(await within(exited, 10_000))) launched.kill("SIGKILL");
    }
    seen.killAll();
    log.end();
    if (t.passed) await rm(dataDir, { recursive: true, force: true });
    else {
      const all = (await readFile(logFile, "utf8").catch(() => "")).split("\n");
      t.log(`launcher log:\n${lines.map((l) => JSON.stringify(l)).join("\n")}`);
      t.log(`last lines of ${logFile} (kept):\n${all.slice(-60).join("\n")}`);
    }
  });

  const ready = await within(
    Promise.race([line("API ready", (l) => l.msg.startsWith("API ready"), 180_000), exited.then(() => undefined)]),
    180_000,
  );
  if (!ready) {
    const cause = addressInUse ? " (a child's port was taken: EADDRINUSE)" : "";
    throw new Error(`the launcher did not get ready${cause}: ${JSON.stringify(lines.slice(-5))}`);
  }
  await pids();
  return { pid: launched.pid!, url: `http://127.0.0.1:${port}`, dataDir, exited, lines, line, pids, seen };
}

/** SIGKILLs the launcher's child `name`, found in the pid file and checked to be the launcher's child. */
async function killChild(stack: Launched, name: string): Promise<number> {
  const pid = (await stack.pids())?.children[name];
  if (pid === undefined) throw new Error(`${name} is not in ${stack.dataDir}/pids.json`);
  const parent = await parentOf(pid);
  if (parent !== stack.pid) throw new Error(`pid ${pid} (${name}) is not the launcher's child (parent ${parent})`);
  process.kill(pid, "SIGKILL");
  return pid;
}

/** The parent pid from /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
async function parentOf(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  return stat === undefined ? undefined : Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

async function health(
  url: string,
): Promise<{ status: number; body: { checks?: Record<string, string>; error?: string } }> {
  const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(3000) });
  return { status: response.status, body: (await response.json()) as { checks?: Record<string, string> } };
}

/** While `name` is down: 503 naming it (the database through wallet and table), or no answer for the gateway. */
async function whileDown(url: string, name: string): Promise<string> {
  const check = name === "db" ? "database" : name;
  return eventually(
    `health reports ${check} down`,
    async () => {
      try {
        const { status, body } = await health(url);
        const named = status === 503 && body.checks?.[check] !== "ok" && body.error?.includes(check);
        return name !== "gateway" && named ? `${status} ${JSON.stringify(body)}` : undefined;
      } catch (error) {
        return name === "gateway" ? `no answer (${String((error as Error).cause ?? error)})` : undefined;
      }
    },
    { timeoutMs: 15_000, intervalMs: 100 },
  );
}

const untilHealthy = (url: string, timeoutMs = 90_000) =>
  eventually(
    "health answers 200",
    async () => ((await health(url).catch(() => undefined))?.status === 200 ? true : undefined),
    { timeoutMs, intervalMs: 200 },
  );

/** Sends until there is an answer that is not a 5xx (the same key each time, if any); counts the failures. */
async function answered<T>(request: () => Promise<Reply<T>>, tally: Tally): Promise<Reply<T>> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    let last: string;
    try {
      const reply = await request();
      if (reply.status < 500) return reply;
      last = show(reply);
    } catch (error) {
      last = String(error);
    }
    tally.failedAttempts++;
    if (Date.now() > deadline) throw new Error(`no answer in 120 s; last: ${last}`);
    await sleep(200);
  }
}

interface Tally {
  /** "<kind> <status> <ACK|NACK>" -> count. */
  answers: Map<string, number>;
  failedAttempts: number;
  /** Keys of requests given up after a failed attempt: only the services' recovery settles them. */
  abandoned: string[];
}

function count(tally: Tally, kind: string, reply: Reply): void {
  const label = `${kind} ${reply.status} ${(reply.body as { acknowledgement?: string })?.acknowledgement ?? ""}`.trim();
  tally.answers.set(label, (tally.answers.get(label) ?? 0) + 1);
}

/**
 * One player at one table: sits, bets at open stages, tops up, leaves and sits again, until told to
 * stop, retrying each request with its key until answered. A quitter instead gives up on its first
 * request that fails, not knowing whether it happened, and stops there: a client that went away.
 */
async function playerLoop(
  p: Player,
  admin: Player,
  table: number,
  random: Random,
  quitter: boolean,
  stop: () => boolean,
  tally: Tally,
) {
  let seated = false;
  let n = 0;
  const key = (kind: string) => `${p.id}-${kind}-${n++}`;
  /** A money-moving request; undefined when a quitter abandoned it. */
  const move = async <T>(kind: string, k: string, request: () => Promise<Reply<T>>) => {
    const reply = quitter ? await request().catch(() => undefined) : await answered(request, tally);
    if (reply === undefined || reply.status >= 500) {
      tally.failedAttempts++;
      tally.abandoned.push(k);
      return undefined;
    }
    count(tally, kind, reply);
    return reply;
  };
  while (!stop()) {
    const choice = random.next();
    if (!seated) {
      // Chosen once: a retry sends the same terms with the same key.
      const [buyIn, k] = [random.int(2_000, 20_000) / 100, key("sit")];
      const reply = await move("sit", k, () => p.sit(table, buyIn, k));
      if (!reply) return;
      seated = reply.status === 200 && reply.body.acknowledgement === "ACK";
    } else if (choice < 0.6) {
      const state = (await answered(() => admin.state(table), tally)).body as TableState;
      const seat = state.seats?.find((s) => s.playerId === p.id);
      const live = (state.handOdds ?? []).filter((h) => h.bettingStage === state.bettingStage && h.odds > 0);
      if (seat && state.bettingStage >= 0 && live.length > 0) {
        const bet = {
          seatIndex: seat.seatId,
          handIndex: random.pick(live).handIndex,
          betAmount: random.int(1, 500) / 100,
        };
        const k = key("bet");
        if (!(await move("bet", k, () => p.bet(table, bet, k)))) return;
      }
    } else if (choice < 0.85) {
      const [amount, k] = [random.int(1, 3_000) / 100, key("topup")];
      if (!(await move("topup", k, () => p.topup(table, amount, k)))) return;
    } else {
      const k = key("leave");
      const reply = await move("leave", k, () => p.leave(table, k));
      if (!reply) return;
      if (reply.status === 200) seated = false;
    }
    await sleep(random.int(20, 150));
  }
}

/** An ADMIN moving one table's game on; a failed advance is simply tried again on the next round. */
async function dealerLoop(admin: Player, table: number, stop: () => boolean, tally: Tally) {
  while (!stop()) {
    await sleep(400);
    const reply = await admin.advance(table).catch(() => undefined);
    if (reply) count(tally, "advance", reply);
    else tally.failedAttempts++;
  }
}

const TABLES = [1, 2];
const PLAYERS_PER_TABLE = 4;
/** Each child killed once in the storm, in this order. */
const VICTIMS = ["odds", "wallet", "table", "gateway", "db"];

test.serial(
  "kill -9 of each service and the database under `npm start` during a storm: restarted, transfers complete, the audit clean; past the limit everything stops",
  async (t) => {
    const startedAt = Date.now();
    // A long first delay, so there is time to see health name what is down (the services notice a
    // lost database at their next ping, up to ~4 s later); at most 2 restarts per child in the test.
    const stack = await launch(t, {
      RESTART_MAX_PER_WINDOW: "2",
      RESTART_WINDOW_SECONDS: "3600",
      RESTART_DELAY_MS: "6000",
      RESTART_DELAY_MAX_MS: "8000",
    });
    t.log(`stack ready in ${Date.now() - startedAt} ms; seed ${seed} (replay with TEST_SEED=${seed})`);
    const random = seededRandom(seed);
    const api = new Api(stack.url, stack.dataDir);
    // While a service is down the gateway answers 503: expected, and retried. Any other 5xx is not.
    api.allow5xx.add(503);
    const admin = await api.player("healing-admin", "ADMIN");
    const tally: Tally = { answers: new Map(), failedAttempts: 0, abandoned: [] };
    const players: Player[] = [];
    let stopped = false;
    const storm = Promise.all(
      TABLES.flatMap((table) => [
        dealerLoop(admin, table, () => stopped, tally),
        ...Array.from({ length: PLAYERS_PER_TABLE }, async (_, i) => {
          const player = await api.player(`healer-${table}-${i}`);
          // The first profile read creates the player with its welcome credit.
          const profile = await player.profile();
          if (profile.status !== 200) throw new Error(show(profile));
          players.push(player);
          const [own, quitter] = [seededRandom(random.int(0, 2 ** 32 - 1)), i === 0];
          return playerLoop(player, admin, table, own, quitter, () => stopped, tally);
        }),
      ]),
    );
    // If the storm fails (no answer for two minutes), stop waiting on the kills below.
    storm.catch(() => (stopped = true));

    for (const name of VICTIMS) {
      await sleep(random.int(500, 2000));
      const killedAt = Date.now();
      const old = await killChild(stack, name);
      t.log(`${name} (pid ${old}) killed; health: ${await whileDown(stack.url, name)}`);
      const scheduled = await stack.line(`${name}'s restart`, (l) => l.child === name && /restarting it/.test(l.msg));
      t.is(scheduled.msg, `${name} was killed by SIGKILL; restarting it in 6000 ms (restart 1 of 2 within 3600 s)`);
      await untilHealthy(stack.url);
      const restarted = await stack.line(`${name} restarted`, (l) => l.child === name && /restarted/.test(l.msg));
      const now = (await stack.pids())?.children[name];
      t.true(now !== undefined && now !== old && restarted.childPid === now, `${name}: pid ${old} -> ${now}`);
      t.log(`${name}: healthy again ${Date.now() - killedAt} ms after the kill (${restarted.msg})`);
    }
    await sleep(2000);
    stopped = true;
    await storm;
    const answers = [...tally.answers].map(([label, n]) => `${label} x${n}`).join(", ");
    t.log(`storm answers: ${answers}; ${tally.failedAttempts} failed attempts`);
    t.log(`${tally.abandoned.length} requests abandoned after a failure: ${tally.abandoned.join(", ")}`);
    for (const kind of ["sit 200 ACK", "bet 200 ACK", "topup 200 ACK", "leave 200 ACK"])
      t.true((tally.answers.get(kind) ?? 0) > 0, `some ${kind} in the storm: ${answers}`);
    t.true(tally.failedAttempts > 0, "the kills interrupted some requests");
    // A retried request keeps its key and terms (never 422); 409 is a bet on a stage that just closed.
    const refused = [...tally.answers.keys()].filter((label) => /^\w+ 4\d\d/.test(label) && !/ 409/.test(label));
    t.deepEqual(refused, [], answers);

    // With no operator action, recovery finishes every transfer, the abandoned ones too: the audit settles, clean.
    const settleFrom = Date.now();
    await expectCleanAudit(t, admin, "after the storm");
    t.log(`audit clean ${Date.now() - settleFrom} ms after the storm ended`);
    // Everyone still seated leaves; every cent is back in an account, and the books still balance.
    for (const table of TABLES) {
      for (const seat of (await admin.readState(table)).seats) {
        const player = players.find((p) => p.id === seat.playerId)!;
        const reply = await answered(() => player.leave(table, `${player.id}-last-leave`), tally);
        t.is(reply.status, 200, show(reply));
      }
      t.deepEqual((await admin.readState(table)).seats, [], `table ${table} is empty`);
    }
    await expectCleanAudit(t, admin, "after everyone left");
    t.deepEqual(api.serverErrors.map(show), [], "no 5xx but the 503s of a service that was down");
    t.deepEqual(api.negativeBalances, []);

    await pastTheLimit(t, stack);
    t.log(`whole test ${Date.now() - startedAt} ms`);
  },
);

/** GET /api/admin/audit, polled while transfers are pending (up to 2 minutes): clean and settled. */
async function expectCleanAudit(t: ExecutionContext, admin: Player, when: string) {
  const audit = await settledAudit(admin, 120_000);
  t.is(audit?.status, 200, audit && show(audit));
  t.is(audit?.body.status, "clean", `${when}: ${audit && show(audit)}`);
  t.true(audit?.body.settled, `${when}: ${audit && show(audit)}`);
}

/** odds killed twice more: restarted once more (2 of 2), then the launcher stops everything and exits 1. */
async function pastTheLimit(t: ExecutionContext, stack: Launched) {
  await killChild(stack, "odds");
  const second = await stack.line(
    "odds's second restart",
    (l) => /restart 2 of 2/.test(l.msg) && /restarting/.test(l.msg),
  );
  t.is(second.msg, "odds was killed by SIGKILL; restarting it in 8000 ms (restart 2 of 2 within 3600 s)");
  await untilHealthy(stack.url);
  await stack.line("odds restarted again", (l) => /^odds restarted.*restart 2 of 2/.test(l.msg));
  const written = (await stack.pids())!;
  t.deepEqual(Object.keys(written.addresses).sort(), ["odds", "table", "wallet"]);
  t.regex(written.addresses.wallet!, /^127\.0\.0\.1:\d+$/, "the wallet's address, for the operator's tool");
  const children = Object.values(written.children);
  await killChild(stack, "odds");
  const exit = await within(stack.exited, 15_000);
  t.deepEqual(exit, { code: 1, signal: null }, "the launcher exits non-zero past the limit");
  const gaveUp = stack.lines.find((l) => /stopping everything/.test(l.msg));
  t.is(
    gaveUp?.msg,
    "odds was killed by SIGKILL; it was restarted 2 times already, the limit (RESTART_MAX_PER_WINDOW=2, RESTART_WINDOW_SECONDS=3600): stopping everything",
  );
  t.deepEqual(stack.seen.alive(children), [], "no child outlives the launcher");
  t.is(await stack.pids(), undefined, "the pid file is removed");
}

test.serial(
  "SIGTERM while a restart waits for its delay: everything stops within 10 s, nothing restarts",
  async (t) => {
    const stack = await launch(t, { RESTART_DELAY_MS: "5000" });
    const written = await stack.pids();
    const children = Object.values(written!.children);
    const second = await launchBeside(stack.dataDir);
    t.is(second.code, 1, second.output);
    t.regex(
      second.output,
      new RegExp(`is in use by the launcher with pid ${stack.pid}: stop it, or give this one another`),
    );
    t.deepEqual(await stack.pids(), written, "a second launcher on the same DATA_DIR leaves the first's pid file");
    await killChild(stack, "table");
    await stack.line(
      "the table's restart",
      (l) => l.msg === "table was killed by SIGKILL; restarting it in 5000 ms (restart 1 of 5 within 60 s)",
    );
    const stoppingAt = Date.now();
    process.kill(stack.pid, "SIGTERM");
    const exit = await within(stack.exited, 10_000);
    t.log(`stopped in ${Date.now() - stoppingAt} ms`);
    t.deepEqual(exit, { code: 0, signal: null }, "stopped within 10 s");
    t.deepEqual(stack.seen.alive(children), [], "no child outlives the launcher");
    // The delay has passed by now: the cancelled restart must not have started anything.
    await sleep(Math.max(0, stoppingAt + 5500 - Date.now()));
    t.false(
      stack.lines.some((l) => /restarted/.test(l.msg)),
      "no restart after the stop began",
    );
    t.is(await stack.pids(), undefined, "the pid file is removed");
    await t.throwsAsync(readFile(join(stack.dataDir, "launcher.lock")), undefined, "the DATA_DIR's lock is released");
    t.deepEqual(stack.seen.alive(), []);
  },
);

/** Another launcher, on its own port, given a running one's DATA_DIR: its exit code and output. */
async function launchBeside(dataDir: string): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()), DATA_DIR: dataDir };
  for (const name of notInherited) delete env[name];
  const launched = spawn(process.execPath, [launcherMain], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  for (const stream of [launched.stdout, launched.stderr]) stream.on("data", (chunk: Buffer) => (output += chunk));
  const code = await within(new Promise<number | null>((resolve) => launched.once("exit", resolve)), 15_000);
  if (code === undefined) launched.kill("SIGKILL");
  return { code: code ?? null, output };
}

/** The promise's value, or undefined once `ms` have passed; clears its timer so nothing lingers. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
