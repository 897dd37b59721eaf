// Wallet latency with a 1,000,000-entry ledger against an empty one, on the embedded FerretDB (as
// tests and `npm start` run it): one wallet process, one gRPC client, sequential calls.
//
//   node --import=tsx/esm bench/wallet.ts [--entries=1000000] [--hotEntries=100000] [--accounts=10000]
//     [--samples=100] [--batch=10000]
//
// Needs `npx tsc -b` (the wallet runs from dist/) and `npm run build:db`. In one run, on the same
// processes:
// 1. Baseline on an empty ledger: six operations on one account whose history was loaded like an
//    ordinary filled account's (after a round on another, so the processes are warm). Then cold
//    reads (an account's first in the wallet process, whose cache of latest entries does not know
//    it yet) over accounts loaded for them: a small ledger.
// 2. The ledger is filled straight in the database with LedgerStore.load: `accounts` ordinary
//    accounts and one hot account, whose entries are spread over the whole load. The entries are
//    exactly what the wallet would write (the domain's nextEntry), so the audit stays clean.
// 3. The six operations again on the hot account and on an ordinary one, and the cold reads over
//    filled accounts, each against its baseline.
// 4. The Audit RPC over the whole ledger (it must be clean), with the peak memory of the wallet and
//    FerretDB processes: the audit streams, so the wallet's peak should stay near its RSS before.
import { LEDGER_REASON } from "@pokerodds/common/ledger-reasons";
import { stopChildren, type Child } from "@pokerodds/launcher/child";
import { startFerretDB } from "@pokerodds/launcher/ferretdb";
import { MongoClient, type Db } from "mongodb";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  nextEntry,
  welcomeRequest,
  type LedgerEntry,
  type MovementRequest,
} from "../services/wallet/src/domain/movement.js";
import { newPlayer } from "../services/wallet/src/domain/player.js";
import { LedgerStore } from "../services/wallet/src/ledger-store.js";
import { PlayerStore } from "../services/wallet/src/player-store.js";
import { claims, startWallet, walletClient, type Wallet } from "../services/wallet/test/helpers/wallet-cluster.js";
import { latencyLines, memoryOf, runAlone, timed, WARM_UP } from "./latency.js";
import type { BenchLine } from "./report.js";

interface WalletBenchOptions {
  /** Entries loaded in all (default 1,000,000), the hot account's included. */
  entries?: number;
  /** The hot account's entries (default 100,000). */
  hotEntries?: number;
  /** Ordinary accounts sharing the rest (default 10,000). */
  accounts?: number;
  /** Timed calls per figure (default 100). */
  samples?: number;
  /** Entries per LedgerStore.load (default 10,000). */
  batch?: number;
}

const GOAL_FACTOR = 1.5;
/**
 * How far the audit's peak may exceed the wallet's RSS before it: a cursor batch, an entry per
 * account, and the garbage a streamed read leaves to the collector. Holding 1,000,000 entries would
 * take ~450 MB (measured: that many LedgerEntry objects in a V8 heap).
 */
const AUDIT_GROWTH_MB = 128;
/** The audit reads the whole ledger: minutes at 1M entries, where other calls take 30 s at most. */
const AUDIT_DEADLINE_MS = 30 * 60_000;
const OPERATIONS = [
  "Debit",
  "Credit",
  "GetBalance",
  "GetProfile (existing player)",
  "Debit replaying an old key",
  "ListLedger first page (after 0, limit 100)",
] as const;

/** An account's six timings, in OPERATIONS order. */
type Timings = number[][];

/** The movement of entry `seq` of a loaded account: the welcome credit, then debits and credits of 10.00 in turn. */
function loadedRequest(playerId: string, seq: number): MovementRequest {
  if (seq === 1) return welcomeRequest(playerId);
  const debit = seq % 2 === 0;
  return {
    kind: debit ? "debit" : "credit",
    playerId,
    requestedCents: 1_000,
    idempotencyKey: `${playerId}-load-${seq}`,
    reason: debit ? LEDGER_REASON.SIT : LEDGER_REASON.PAYOUT,
    reference: "",
  };
}

interface LoadPlan {
  accounts: readonly string[];
  perAccount: number;
  hot?: { playerId: string; entries: number };
  batch: number;
}

/**
 * Writes what the wallet would have written for `plan` straight into the database: each batch's
 * players (PlayerStore, a player before its entries), then its entries with one LedgerStore.load.
 * A batch holds whole accounts, so each account's entries are stored in sequence order and the load
 * moves one hint per account; it also carries its share of the hot account's entries, which so
 * spread over the whole ledger. Answers the number of entries written.
 */
async function load(db: Db, plan: LoadPlan, progress?: (written: number) => void): Promise<number> {
  const ledger = new LedgerStore(db);
  const players = new PlayerStore(db);
  const hot = plan.hot ?? { playerId: "", entries: 0 };
  const share = 1 - hot.entries / (hot.entries + plan.accounts.length * plan.perAccount);
  const accountsPerBatch = Math.max(1, Math.floor((plan.batch * share) / plan.perAccount));
  const createdAt = new Date();
  // The claims that `claims(playerId)` sends, so that GetProfile finds nothing to update.
  const player = (playerId: string) =>
    players.insert(newPlayer({ ...claims(playerId), role: "BASIC_USER" }, createdAt));
  if (plan.hot) await player(hot.playerId);
  let hotHead: LedgerEntry | null = null;
  let written = 0;
  for (let first = 0; first < plan.accounts.length; first += accountsPerBatch) {
    const ids = plan.accounts.slice(first, first + accountsPerBatch);
    await Promise.all(ids.map(player));
    const batch: LedgerEntry[] = [];
    for (const playerId of ids) {
      let head: LedgerEntry | null = null;
      for (let seq = 1; seq <= plan.perAccount; seq++)
        batch.push((head = nextEntry(head, loadedRequest(playerId, seq), createdAt)));
    }
    const hotDue = Math.round((hot.entries * (first + ids.length)) / plan.accounts.length);
    for (let seq = (hotHead?.sequence ?? 0) + 1; seq <= hotDue; seq++) {
      batch.push((hotHead = nextEntry(hotHead, loadedRequest(hot.playerId, seq), createdAt)));
    }
    await ledger.load(batch);
    written += batch.length;
    progress?.(written);
  }
  return written;
}

/** A debit or credit through the wallet, which must answer `applied` or `replayed` as expected. */
async function move(wallet: Wallet, request: MovementRequest, expect: "applied" | "replayed"): Promise<void> {
  const { kind, requestedCents, ...fields } = request;
  const call = kind === "credit" ? wallet.credit.bind(wallet) : wallet.debit.bind(wallet);
  const { result } = await call({ movement: { ...fields, amountCents: requestedCents } });
  if (!result?.[expect]) throw new Error(`${kind} ${request.idempotencyKey} was not ${expect}`);
}

/**
 * The six operations on one account, `samples` times each. The replays are of the account's loaded
 * movements (`oldest` of them, earliest first), all many entries before the account's latest.
 */
async function operations(wallet: Wallet, playerId: string, oldest: number, samples: number): Promise<Timings> {
  const bench = (kind: "debit" | "credit", i: number): MovementRequest => ({
    kind,
    playerId,
    requestedCents: 1,
    idempotencyKey: `${playerId}-bench-${kind}-${i}`,
    reason: kind === "debit" ? LEDGER_REASON.SIT : LEDGER_REASON.PAYOUT,
    reference: "",
  });
  // Debits are the even sequences from 2; replays cycle through the oldest ones.
  const oldDebit = (i: number) => loadedRequest(playerId, 2 + 2 * (i % Math.max(1, Math.floor(oldest / 2) - 1)));
  return [
    await timed(samples, (i) => move(wallet, bench("debit", i), "applied")),
    await timed(samples, (i) => move(wallet, bench("credit", i), "applied")),
    await timed(samples, () => wallet.getBalance({ playerId })),
    await timed(samples, () => wallet.getProfile({ claims: claims(playerId) })),
    await timed(samples, (i) => move(wallet, oldDebit(i), "replayed")),
    await timed(samples, async () => {
      const { entries } = await wallet.listLedger({ playerId, afterSequence: 0, limit: 100 });
      if (entries.length !== 100) throw new Error(`${playerId}'s first page has ${entries.length} entries, not 100`);
    }),
  ];
}

/** First reads of accounts the wallet process has not seen: a GetBalance on each of `balances`, a Debit on each of `debits`. */
async function coldReads(wallet: Wallet, balances: readonly string[], debits: readonly string[], samples: number) {
  const GetBalance = await timed(samples, (i) => wallet.getBalance({ playerId: balances[i]! }));
  const Debit = await timed(samples, (i) =>
    move(
      wallet,
      { ...loadedRequest(debits[i]!, 2), idempotencyKey: `${debits[i]}-cold`, requestedCents: 1 },
      "applied",
    ),
  );
  return { GetBalance, Debit } as Partial<Record<string, number[]>>;
}

interface Processes {
  wallet: Wallet;
  db: Db;
  walletPid: number;
  walletPort: number;
  databasePid: number;
}

/** Runs `bench` on a fresh FerretDB and one wallet process on it (their output in a log file), then stops them. */
async function withWallet<T>(bench: (processes: Processes) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), "pokerodds-bench-wallet-"));
  const log = await open(join(dataDir, "wallet.log"), "a");
  const database = await startFerretDB({ dataDir: join(dataDir, "db"), output: log.fd });
  const mongo = new MongoClient(database.uri);
  let server: Child | undefined;
  let client: ReturnType<typeof walletClient> | undefined;
  try {
    const started = await startWallet(database.uri, log.fd);
    server = started.child;
    client = walletClient(started.port);
    const db = mongo.db("wallet");
    return await bench({
      wallet: client.call,
      db,
      walletPid: server.pid,
      walletPort: started.port,
      databasePid: database.child.pid,
    });
  } finally {
    client?.raw.close();
    await mongo.close();
    await stopChildren([server ? [server] : [], [database.child]], 5000);
    await log.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The fill (step 2), with its progress on stderr every tenth, and its time as a line. */
async function fill(db: Db, plan: LoadPlan, entries: number): Promise<{ written: number; line: BenchLine }> {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let reported = 0;
  const written = await load(db, plan, (n) => {
    if (n - reported < entries / 10) return;
    reported = n;
    console.error(`wallet bench: ${n} entries loaded in ${elapsed().toFixed(0)} s`);
  });
  const seconds = elapsed();
  const { accounts, perAccount, hot, batch } = plan;
  return {
    written,
    line: {
      name: `Load of ${written} entries (${accounts.length} accounts x ${perAccount}, hot ${hot?.entries}) and ${accounts.length + 1} players, LedgerStore.load in batches of ${batch}: ${(written / seconds).toFixed(0)} entries/s`,
      value: seconds,
      unit: "s",
    },
  };
}

export async function benchWallet(options: WalletBenchOptions = {}): Promise<BenchLine[]> {
  const { entries = 1_000_000, hotEntries = 100_000, accounts = 10_000, samples = 100, batch = 10_000 } = options;
  const perAccount = Math.floor((entries - hotEntries) / accounts);
  const coldCount = WARM_UP + samples;
  if (perAccount < 2 || hotEntries < 4 || accounts <= 2 * coldCount) {
    throw new Error(
      `wallet bench: needs >= 2 entries per account, >= 4 hot ones and more than ${2 * coldCount} accounts`,
    );
  }
  return withWallet(async ({ wallet, db, walletPid, walletPort, databasePid }) => {
    // 1. The empty ledger: one account loaded like an ordinary one, measured after a round on another
    // (so that the baseline does not pay for the processes' warm-up); then the small ledger of cold accounts.
    await load(db, { accounts: ["warm-up", "base"], perAccount, batch });
    await operations(wallet, "warm-up", perAccount, samples);
    const empty = await operations(wallet, "base", perAccount, samples);
    const small = Array.from({ length: 2 * coldCount }, (_, i) => `small-${i}`);
    const smallSize = await load(db, { accounts: small, perAccount, batch });
    const smallCold = await coldReads(wallet, small.slice(0, coldCount), small.slice(coldCount), samples);

    // 2. The fill.
    const ids = Array.from({ length: accounts }, (_, i) => `account-${i}`);
    const hot = { playerId: "hot", entries: hotEntries };
    const filled = await fill(db, { accounts: ids, perAccount, hot, batch }, entries);

    // 3. The same operations on the filled ledger, and first reads of filled accounts spread over it.
    const onHot = await operations(wallet, hot.playerId, hotEntries, samples);
    const onOrdinary = await operations(wallet, ids[accounts - 1]!, perAccount, samples);
    const spread = Array.from({ length: 2 * coldCount }, (_, i) => ids[Math.floor((i * accounts) / (2 * coldCount))]!);
    const half = (parity: number) => spread.filter((_, i) => i % 2 === parity);
    const filledCold = await coldReads(wallet, half(0), half(1), samples);

    const size = `${abbreviated(filled.written)} ledger`;
    const lines = OPERATIONS.flatMap((operation, i) => {
      const baseline = { to: "empty", times: empty[i]!, factor: GOAL_FACTOR };
      const cold = `${operation}, first of a loaded account in the process (cold, one account per sample)`;
      const [coldBase, coldFilled] = [smallCold[operation], filledCold[operation]];
      return [
        ...latencyLines(`${operation}, empty ledger (baseline)`, empty[i]!),
        ...latencyLines(`${operation}, ${size}, hot account (${abbreviated(hotEntries)} entries)`, onHot[i]!, baseline),
        ...latencyLines(`${operation}, ${size}, ordinary account (${perAccount} entries)`, onOrdinary[i]!, baseline),
        ...(coldBase && coldFilled
          ? [
              ...latencyLines(`${cold}, small ledger of ${abbreviated(smallSize)} (baseline)`, coldBase),
              ...latencyLines(`${cold}, ${size}`, coldFilled, { to: "small", times: coldBase, factor: GOAL_FACTOR }),
            ]
          : []),
      ];
    });

    // 4. The audit.
    return [filled.line, ...lines, ...(await auditLines(walletPort, walletPid, databasePid))];
  });
}

/** The Audit RPC over the whole ledger, which must be clean, with the processes' peak memory. */
async function auditLines(port: number, walletPid: number, databasePid: number): Promise<BenchLine[]> {
  const walletBefore = await memoryOf(walletPid);
  const databaseBefore = await memoryOf(databasePid);
  const started = performance.now();
  // On a channel of its own, as the gateway's: its call may outlast its connection (longCalls).
  const client = walletClient(port, { longCalls: true });
  const audit = await client.call.audit({}, { deadlineMs: AUDIT_DEADLINE_MS }).finally(() => client.raw.close());
  const ms = performance.now() - started;
  if (!audit.clean)
    throw new Error(`the filled ledger does not audit clean: ${JSON.stringify(audit.issues.slice(0, 5))}`);
  const walletAfter = await memoryOf(walletPid);
  const databaseAfter = await memoryOf(databasePid);
  const growth = walletAfter.peakMb - walletBefore.rssMb;
  const mb = (x: number) => `${x.toFixed(0)} MB`;
  return [
    {
      name: `Audit RPC of the whole ledger (${audit.entries} entries, ${audit.accounts} accounts): clean`,
      value: ms,
      unit: "ms",
    },
    {
      name: `Wallet peak RSS (VmHWM) after the audit ${mb(walletAfter.peakMb)}, RSS before it ${mb(walletBefore.rssMb)}: growth`,
      value: growth,
      unit: "MB",
      goal: `bounded (streamed): <= ${AUDIT_GROWTH_MB} MB`,
      met: growth <= AUDIT_GROWTH_MB,
    },
    {
      name: `FerretDB peak RSS (VmHWM) after the audit (RSS before it ${mb(databaseBefore.rssMb)}, peak before ${mb(databaseBefore.peakMb)})`,
      value: databaseAfter.peakMb,
      unit: "MB",
    },
  ];
}

/** 1000000 -> "1M", 100000 -> "100k". */
function abbreviated(n: number): string {
  if (n >= 1e6) return `${+(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${+(n / 1e3).toFixed(1)}k`;
  return String(n);
}

await runAlone(import.meta.url, benchWallet);
