// kill -9 of the table service, of the wallet service and of the database, each at random moments
// during a storm of sits, top-ups and leaves sent with Idempotency-Keys. Each client is one player
// doing one request at a time and retrying a failed request with the same key until it is answered
// (or giving up on it, leaving it to recovery), so it knows exactly what its account and seats must
// hold: every answer (first or replayed) must agree with that, and after recovery so must the
// profile, the table state and the ADMIN audit, to the cent. Then every request is replayed (nothing
// moves again) and some keys are reused with other terms (422). Last, games with keyed bets through
// table and wallet crashes: each bet is in its game once, payouts and refunds arrive, the books and
// the audit balance. Replay a run's random choices with TEST_SEED=<the logged seed>.
import type { ChildName } from "@pokerodds/launcher/stack";
import test, { type ExecutionContext } from "ava";
import { execFile } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { Api, cents, show, WELCOME_CENTS, type Player, type Reply, type TableState } from "../helpers/api.js";
import { expectAck, expectError } from "../helpers/expect.js";
import { expectMoneyConserved, settledAudit } from "../helpers/money.js";
import { eventually } from "../helpers/poll.js";
import { seededRandom, seedFromEnv, type Random } from "../helpers/random.js";
import { stackPerFile } from "../helpers/stack.js";
import { stateProblems } from "../helpers/state-checks.js";

// Recovery looks for stalled transfers every second and takes over those older than two seconds
// (defaults 5 s and 15 s): the same code paths, sooner.
const file = stackPerFile(test, { env: { TABLE_RECOVERY_INTERVAL_MS: "1000", TABLE_RECOVERY_GRACE_MS: "2000" } });
let api: Api;
let admin: Player;
const everyone: Player[] = [];
const TABLES = [1, 2];
/** Tables of the games played through crashes. */
const GAME_TABLES = [3, 4];
const seed = seedFromEnv();

test.before(async () => {
  const stack = await file.ready;
  api = new Api(stack.url, stack.dataDir);
  // While a service is down the gateway answers 503: expected here, and retried. A 500 never is.
  api.allow5xx.add(503);
  admin = await api.player("crash-admin", "ADMIN");
});

type Kind = "sit" | "topup" | "leave";

/** One request as sent, with its key, and the answer that settled it. */
interface Sent {
  player: Player;
  kind: Kind;
  table: number;
  amount?: number;
  key: string;
  reply: Reply;
  /** Attempts that failed (5xx or no answer) before it. */
  failures: number;
  /** When it was first sent and finally answered (Date.now()). */
  startedAt: number;
  answeredAt: number;
}

/** What one player's account and seats must hold, from the answers it was given. */
class Model {
  accountCents = WELCOME_CENTS;
  readonly seats = new Map<number, number>();
  constructor(readonly player: Player) {}
}

function send(player: Player, kind: Kind, table: number, amount: number | undefined, key: string): Promise<Reply> {
  if (kind === "sit") return player.sit(table, amount!, key);
  if (kind === "topup") return player.topup(table, amount!, key);
  return player.leave(table, key);
}

const RETRY_FOR_MS = 90_000;

/**
 * Sends until the answer is not a 5xx, always with the same key; counts the failed attempts. With
 * `giveUp`, abandons the request (resolving to no reply) after its first failed attempt.
 */
async function untilAnswered(
  request: () => Promise<Reply>,
  giveUp = false,
): Promise<{ reply: Reply; failures: number }> {
  const deadline = Date.now() + RETRY_FOR_MS;
  let failures = 0;
  let last = "";
  for (;;) {
    try {
      const reply = await request();
      if (reply.status < 500) return { reply, failures };
      last = show(reply);
    } catch (error) {
      last = String(error);
    }
    failures++;
    if (giveUp) return { reply: undefined as unknown as Reply, failures };
    if (Date.now() > deadline) throw new Error(`no answer within ${RETRY_FOR_MS} ms; last: ${last}`);
    await sleep(150);
  }
}

/** Checks an answer against the model, then applies it; returns what disagrees. */
function apply(model: Model, sent: Omit<Sent, "player" | "startedAt" | "answeredAt">): string[] {
  const { kind, table, amount, reply } = sent;
  const where = `${model.player.id} ${kind} ${amount ?? ""} at ${table} (key ${sent.key}): ${show(reply)}`;
  if (reply.status !== 200) return [`not a 200: ${where}`];
  const body = reply.body as Record<string, unknown>;
  const seat = model.seats.get(table);
  const problems: string[] = [];
  const expect = (what: string, actual: unknown, wanted: unknown) => {
    if (actual !== wanted) problems.push(`${what} ${String(actual)}, expected ${String(wanted)}: ${where}`);
  };
  if (kind === "sit") {
    if (body.acknowledgement === "ACK") {
      expect("seatBalance", cents(body.seatBalance as number), cents(amount!));
      if (model.accountCents < cents(amount!))
        problems.push(`a sit the account could not cover was accepted: ${where}`);
      model.accountCents -= cents(amount!);
      model.seats.set(table, cents(amount!));
    } else {
      expect("acknowledgement", body.acknowledgement, "NACK");
    }
  } else if (kind === "topup") {
    if (body.acknowledgement === "ACK") {
      expect("newAccountBalance", cents(body.newAccountBalance as number), model.accountCents - cents(amount!));
      expect("newSeatBalance", cents(body.newSeatBalance as number), (seat ?? 0) + cents(amount!));
      model.accountCents -= cents(amount!);
      model.seats.set(table, (seat ?? 0) + cents(amount!));
    } else {
      expect("acknowledgement", body.acknowledgement, "NACK");
      expect("newAccountBalance of a NACK", cents(body.newAccountBalance as number), model.accountCents);
      if (model.accountCents >= cents(amount!)) problems.push(`a top-up the account could cover was refused: ${where}`);
    }
  } else {
    expect("acknowledgement", body.acknowledgement, "ACK");
    expect("creditsReturned", cents(body.creditsReturned as number), seat ?? 0);
    expect("newAccountBalance", cents(body.newAccountBalance as number), model.accountCents + (seat ?? 0));
    model.accountCents += seat ?? 0;
    model.seats.delete(table);
  }
  return problems;
}

/** A request whose client gave up after a failed attempt, not knowing whether it happened. */
interface Abandoned {
  model: Model;
  kind: Kind;
  table: number;
  amount?: number;
  key: string;
}

/**
 * One player's client: sits, tops up and leaves at random until told to stop, one request at a time.
 * Some clients give up on their first failed request and stop there: only recovery can finish it.
 */
async function client(
  model: Model,
  random: Random,
  stop: () => boolean,
  sent: Sent[],
  findings: string[],
  abandoned: Abandoned[],
) {
  const quitter = random.chance(0.3);
  for (let n = 0; !stop(); n++) {
    // Mostly money in and out of the seats it has; sometimes a seat at the other table.
    const seated = [...model.seats.keys()];
    const away = TABLES.filter((table) => !model.seats.has(table));
    const sit = seated.length === 0 || (away.length > 0 && random.chance(0.3));
    const table = sit ? random.pick(away) : random.pick(seated);
    const kind: Kind = sit ? "sit" : random.chance(0.6) ? "topup" : "leave";
    const amount =
      kind === "sit" ? random.int(100, 30_000) / 100 : kind === "topup" ? random.int(1, 10_000) / 100 : undefined;
    const key = `${model.player.id}-${n}-${kind}`;
    const startedAt = Date.now();
    const { reply, failures } = await untilAnswered(() => send(model.player, kind, table, amount, key), quitter);
    if (reply === undefined) {
      abandoned.push({ model, kind, table, amount, key });
      return;
    }
    const entry = { kind, table, amount, key, reply, failures, startedAt, answeredAt: Date.now() };
    findings.push(...apply(model, entry));
    sent.push({ player: model.player, ...entry });
    // A full table answers at once: a real client would not ask again straight away.
    if ((reply.body as { acknowledgement?: string }).acknowledgement === "NACK") await sleep(100);
  }
}

async function newPlayers(prefix: string, count: number): Promise<Player[]> {
  const players = await Promise.all(Array.from({ length: count }, (_, i) => api.player(`${prefix}-${i}`)));
  for (const player of players) {
    const reply = await player.profile();
    if (reply.status !== 200 || reply.body.accountBalance !== 1000) throw new Error(show(reply));
  }
  everyone.push(...players);
  return players;
}

/** Every player's account and seats as the API shows them, against the model. */
async function expectModels(t: ExecutionContext, models: Model[], when: string) {
  const states = await Promise.all(TABLES.map((table) => admin.readState(table)));
  for (const model of models) {
    t.is(await model.player.balance(), model.accountCents, `${model.player.id}'s account ${when}`);
    for (const [i, table] of TABLES.entries()) {
      const seat = states[i]!.seats.find((s) => s.playerId === model.player.id);
      t.is(seat && cents(seat.seatBalance), model.seats.get(table), `${model.player.id}'s seat at ${table} ${when}`);
    }
  }
}

/** While `service` is down: health says so (503, naming it); the lobby is degraded, not an error. */
async function whileDown(t: ExecutionContext, service: ChildName) {
  // The services notice a lost database at their next attempt to use it.
  const check = service === "db" ? "database" : service;
  const health = await eventually(`health reports ${check} down`, async () => {
    const response = await fetch(`${file.stack.url}/api/health`);
    const body = (await response.json()) as { status: string; checks: Record<string, string> };
    return response.status === 503 && body.checks[check] !== "ok" ? body : undefined;
  });
  t.is(health.status, "unavailable", JSON.stringify(health));
  if (service === "wallet") t.is((await api.lobby()).status, 200);
  else {
    const lobby = await eventually("the lobby is degraded", async () => {
      const reply = await api.lobby();
      return reply.status === 200 && reply.body.tables.length === 0 ? reply : undefined;
    });
    t.deepEqual(lobby.body, { tables: [], totalActivePlayers: 0 });
  }
}

/**
 * A storm of 10 clients while `service` is SIGKILLed three times at random moments and restarted; then
 * recovery, the models, the audit, replays and reused keys.
 */
async function crashStorm(t: ExecutionContext, service: ChildName) {
  const random = seededRandom(seed ^ { table: 0x7ab1e, wallet: 0x3a11e7, db: 0xdb }[service as "table"]);
  t.log(`seed ${seed} (replay with TEST_SEED=${seed})`);
  const stack = file.stack;
  const players = await newPlayers(`${service}-crash`, 10);
  const models = players.map((player) => new Model(player));
  const sent: Sent[] = [];
  const findings: string[] = [];
  const abandoned: Abandoned[] = [];
  let stopped = false;
  const storm = Promise.all(
    models.map((model, i) =>
      client(model, seededRandom(random.int(0, 2 ** 32 - 1) + i), () => stopped, sent, findings, abandoned),
    ),
  );

  // Each kill comes at a random moment once the stack answers again after the previous one.
  const answersAgain = () =>
    eventually(`${service} answers again`, async () => {
      const reply = service === "wallet" ? await players[0]!.profile() : await admin.state(TABLES[0]!);
      return reply.status === 200 ? true : undefined;
    });
  const kills: string[] = [];
  const killedAt: number[] = [];
  for (let round = 0; round < 3; round++) {
    const before = random.int(50, 1500);
    const down = random.int(300, 2000);
    await sleep(before);
    const at = sent.length;
    killedAt.push(Date.now());
    await stack.killService(service);
    if (round === 0) await whileDown(t, service);
    await sleep(down);
    await stack.startService(service);
    await answersAgain();
    kills.push(`after ${before} ms and ${at} answers, down ${down} ms`);
  }
  // The storm goes on until every kind of request has been answered (their keys are reused below): a
  // loaded machine answered only ten sits and a leave in the seconds around three kills once.
  const everyKind = () => ["sit", "topup", "leave"].every((kind) => sent.some((s) => s.kind === kind));
  for (const until = Date.now() + 30_000; !everyKind() && Date.now() < until;) await sleep(200);
  await sleep(1500);
  stopped = true;
  await storm;
  const retried = sent.filter((s) => s.failures > 0);
  // A request the database outlived (the driver waits up to 2 s for it to come back) was interrupted too.
  const spanned = sent.filter((s) => killedAt.some((at) => s.startedAt < at && at < s.answeredAt));
  const outcomes = new Map<string, number>();
  for (const s of sent) {
    const body = s.reply.body as { acknowledgement?: string; message?: string };
    const label = `${s.kind} ${s.reply.status} ${body.acknowledgement ?? ""}${body.message ? ` (${body.message})` : ""}`;
    outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
  }
  t.log(`outcomes: ${[...outcomes].map(([label, n]) => `${label} x${n}`).join(", ")}`);
  t.log(
    `${service} killed: ${kills.join("; ")}; ${sent.length} requests answered, ${retried.length} of them after failed attempts, ${spanned.length} in flight at a kill; ${abandoned.length} abandoned`,
  );
  t.true(retried.length + spanned.length + abandoned.length > 0, "the crashes interrupted some requests");
  t.deepEqual(findings, [], "every answer, first or retried, agrees with what the player was told before");

  // Recovery: the audit settles (no open transfer, no undelivered credit) and is clean, also with the
  // abandoned requests' transfers, which only recovery could finish.
  const audit = await settledAudit(admin, 60_000);
  t.truthy(audit, "the stack has the ADMIN audit");
  t.is(audit?.status, 200, audit && show(audit));
  t.is(audit?.body.status, "clean", audit && show(audit));
  // Their outcome, learnt by asking again with the same key, is what the accounts and seats show.
  t.log(`${abandoned.length} requests abandoned after a failure: ${abandoned.map((a) => a.key).join(", ")}`);
  for (const a of abandoned) {
    const startedAt = Date.now();
    const { reply } = await untilAnswered(() => send(a.model.player, a.kind, a.table, a.amount, a.key));
    const entry = { kind: a.kind, table: a.table, amount: a.amount, key: a.key, reply, failures: 1 };
    findings.push(...apply(a.model, entry));
    sent.push({ player: a.model.player, ...entry, startedAt, answeredAt: Date.now() });
  }
  t.deepEqual(findings, [], "the abandoned requests' answers agree too");
  await expectModels(t, models, "after recovery");

  // Replays: every request again, with its key and terms: the first answer, and nothing moves.
  const replays = await Promise.all(
    sent.map((s) => untilAnswered(() => send(s.player, s.kind, s.table, s.amount, s.key))),
  );
  for (const [i, { reply }] of replays.entries()) {
    t.deepEqual(
      [reply.status, reply.body],
      [sent[i]!.reply.status, sent[i]!.reply.body],
      `replay of ${show(sent[i]!.reply)}`,
    );
  }
  await expectModels(t, models, "after replaying every request");

  // The same key with other terms: 422, and nothing moves.
  const sits = sent.filter((s) => s.kind === "sit").slice(0, 3);
  const topups = sent.filter((s) => s.kind === "topup").slice(0, 3);
  const leaves = sent.filter((s) => s.kind === "leave").slice(0, 3);
  for (const s of sits) expectError(t, await s.player.sit(s.table, (cents(s.amount!) + 1) / 100, s.key), 422);
  for (const s of sits) expectError(t, await s.player.sit(s.table === 1 ? 2 : 1, s.amount!, s.key), 422);
  for (const s of topups) expectError(t, await s.player.topup(s.table, (cents(s.amount!) + 100) / 100, s.key), 422);
  for (const s of sits) expectError(t, await s.player.topup(s.table, s.amount!, s.key), 422);
  for (const s of leaves) expectError(t, await s.player.leave(s.table === 1 ? 2 : 1, s.key), 422);
  t.true(sits.length > 0 && topups.length > 0 && leaves.length > 0, "keys of every kind were reused");
  await expectModels(t, models, "after reusing keys with other terms");

  // Everyone leaves; every cent is back in the accounts.
  for (const model of models) {
    for (const table of [...model.seats.keys()]) {
      const { reply } = await untilAnswered(() => model.player.leave(table, `${model.player.id}-final-${table}`));
      expectAck(t, reply as Reply<{ acknowledgement: string }>);
      findings.push(...apply(model, { kind: "leave", table, key: "final", reply, failures: 0 }));
    }
  }
  t.deepEqual(findings, []);
  for (const model of models) t.is(model.accountCents, WELCOME_CENTS, `${model.player.id} has everything back`);
  await expectModels(t, models, "after everyone left");
}

test.serial(
  "kill -9 of the table service during a storm of sits, top-ups and leaves: every cent moves once",
  async (t) => {
    await crashStorm(t, "table");
  },
);

test.serial(
  "kill -9 of the wallet service during a storm of sits, top-ups and leaves: every cent moves once",
  async (t) => {
    await crashStorm(t, "wallet");
  },
);

/** A bet as the dealer sent it, in the game and stage it read, and its answer. */
interface BetAttempt {
  gameId: string;
  stage: number;
  player: string;
  bet: { seatIndex: number; handIndex: number; betAmount: number };
  key: string;
  reply: Reply;
}

const betLabel = (bet: { playerId: string; bettingStage: number; handIndex: number; betAmount: number }) =>
  `${bet.playerId} stage ${bet.bettingStage} hand ${bet.handIndex} ${bet.betAmount}`;

test.serial("kill -9 of the database during a storm of sits, top-ups and leaves: every cent moves once", async (t) => {
  await crashStorm(t, "db");
});

/**
 * One table's games through crashes: its players sit, bet at every betting stage (each bet with its
 * own key, retried until answered), sometimes leave mid-game and come back, and an ADMIN advances.
 * An advance has no key: after a failed one the dealer reads the state to learn whether it happened,
 * so every river is seen (the books need each settled game) and no stage is skipped by a retry.
 */
async function dealer(
  table: number,
  group: Player[],
  random: Random,
  stop: () => boolean,
  findings: string[],
  bets: BetAttempt[],
) {
  const answer = async (request: () => Promise<Reply>) => (await untilAnswered(request)).reply;
  const readState = async () => (await answer(() => admin.state(table))) as Reply<TableState>;
  const seated = new Set<string>();
  let n = 0;
  const sit = async (player: Player) => {
    const [buyIn, key] = [random.int(2_000, 20_000) / 100, `${player.id}-sit-${n++}`];
    const reply = await answer(() => player.sit(table, buyIn, key));
    if (reply.status !== 200) findings.push(`sit: ${show(reply)}`);
    // A NACK is an account that cannot cover the buy-in any more: the player stays away.
    if ((reply.body as { acknowledgement?: string }).acknowledgement === "ACK") seated.add(player.id);
  };
  for (const player of group) await sit(player);
  while (!stop()) {
    const state = (await readState()).body;
    // A board that ties every hand leaves no hand with a win chance: no bets then (odds 0 take none).
    const live = state.handOdds.filter((p) => p.bettingStage === state.bettingStage && p.odds > 0);
    if (state.bettingStage >= 0 && live.length > 0) {
      for (const player of group) {
        const seat = state.seats.find((s) => s.playerId === player.id);
        if (!seat) continue;
        if (random.chance(0.8)) {
          const bet = {
            seatIndex: seat.seatId,
            handIndex: random.pick(live).handIndex,
            betAmount: random.int(1, 1_000) / 100,
          };
          const key = `${player.id}-bet-${n++}`;
          const reply = await answer(() => player.bet(table, bet, key));
          bets.push({ gameId: state.gameId, stage: state.bettingStage, player: player.id, bet, key, reply });
          if (reply.status !== 200) findings.push(`a bet from the player's own seat at an open stage: ${show(reply)}`);
        }
        if (random.chance(0.1)) {
          const [amount, key] = [random.int(1, 2_000) / 100, `${player.id}-topup-${n++}`];
          const reply = await answer(() => player.topup(table, amount, key));
          if (reply.status !== 200) findings.push(`a top-up of a seated player: ${show(reply)}`);
        }
        if (random.chance(0.1)) {
          const key = `${player.id}-leave-${n++}`;
          const reply = await answer(() => player.leave(table, key));
          if (reply.status === 200) seated.delete(player.id);
        }
      }
    }
    for (const player of group) if (!seated.has(player.id) && random.chance(0.5)) await sit(player);
    // Advance once; after a failure, the state says whether it happened.
    let moved = false;
    while (!moved) {
      try {
        const reply = await admin.advance(table);
        if (reply.status === 200) break;
        if (reply.status < 500) {
          findings.push(`advance: ${show(reply)}`);
          break;
        }
      } catch {
        // no answer: as a 5xx
      }
      const now = (await readState()).body;
      moved = now.gameState !== state.gameState || now.gameId !== state.gameId;
    }
  }
  for (const player of group) {
    const reply = await answer(() => player.leave(table, `${player.id}-leave-last`));
    if (reply.status !== 200) findings.push(`the last leave: ${show(reply)}`);
  }
}

test.serial(
  "kill -9 of the table and the wallet service during games: bets placed once, payouts and refunds delivered",
  async (t) => {
    const random = seededRandom(seed ^ 0x6a3e5);
    t.log(`seed ${seed} (replay with TEST_SEED=${seed})`);
    const players = await newPlayers("gamer", 6);
    const findings: string[] = [];
    const bets: BetAttempt[] = [];
    let stopped = false;
    const riversBefore = api.rivers.size;
    const games = Promise.all(
      GAME_TABLES.map((table, i) =>
        dealer(
          table,
          players.slice(3 * i, 3 * i + 3),
          seededRandom(random.int(0, 2 ** 32 - 1)),
          () => stopped,
          findings,
          bets,
        ),
      ),
    );
    const kills: string[] = [];
    for (const service of ["table", "wallet", "table", "wallet"] as const) {
      await sleep(random.int(200, 2500));
      const down = random.int(300, 1500);
      await file.stack.killService(service);
      await sleep(down);
      await file.stack.startService(service);
      await eventually(`${service} answers again`, async () => {
        const reply = service === "table" ? await admin.state(GAME_TABLES[0]!) : await players[0]!.profile();
        return reply.status === 200 ? true : undefined;
      });
      kills.push(`${service} down ${down} ms`);
    }
    await sleep(1000);
    stopped = true;
    await games;
    const rivers = [...api.rivers.values()].filter((river) => GAME_TABLES.includes(river.tableId));
    t.log(
      `${kills.join("; ")}; ${api.rivers.size - riversBefore} games settled, ${rivers.reduce((n, r) => n + r.bets.length, 0)} bets`,
    );
    t.deepEqual(findings, []);
    t.true(rivers.length > 0, "games were played to the river");
    for (const river of rivers) {
      t.deepEqual(stateProblems(river), [], `${river.gameId} at the river`);
      // Each acknowledged bet is in its game exactly once, however often it was sent.
      const sent = bets.filter((b) => b.gameId === river.gameId);
      const acked = sent
        .filter((b) => (b.reply.body as { acknowledgement?: string }).acknowledgement === "ACK")
        .map((b) => betLabel({ playerId: b.player, bettingStage: b.stage, ...b.bet }));
      const same = t.deepEqual(river.bets.map(betLabel).sort(), acked.sort(), `${river.gameId}'s bets`);
      if (!same)
        t.log(
          `${river.gameId}'s bets as sent:\n${sent.map((b) => `${b.key} ${JSON.stringify(b.bet)} at stage ${b.stage}: ${show(b.reply)}`).join("\n")}`,
        );
    }
    for (const table of GAME_TABLES) {
      const state = await admin.readState(table);
      t.deepEqual(state.seats, [], `table ${table} is empty`);
    }
    await expectMoneyConserved(t, api, players, GAME_TABLES, admin, { timeoutMs: 60_000 });
  },
);

test.serial(
  "afterwards: no 500 in any answer, no negative balance, the audit clean, and npm run audit agrees",
  async (t) => {
    t.deepEqual(api.serverErrors.map(show), [], "no 5xx but the 503s of a service that was down");
    t.deepEqual(api.negativeBalances, []);
    await expectMoneyConserved(t, api, everyone, [...TABLES, ...GAME_TABLES], admin, {
      everyone: true,
      timeoutMs: 60_000,
    });

    const cli = fileURLToPath(new URL("../../tools/dist/audit.js", import.meta.url));
    const env: NodeJS.ProcessEnv = { ...process.env, AUDIT_URL: file.stack.url, DATA_DIR: file.stack.dataDir };
    for (const name of ["NODE_OPTIONS", "AUTH_JWKS_URL", "AUTH_ISSUER", "AUTH_AUDIENCE", "AUDIT_TOKEN"])
      delete env[name];
    const { stdout } = await promisify(execFile)(process.execPath, [cli], { env });
    t.log(stdout.trim());
    t.pass("npm run audit exited 0: clean");
  },
);
