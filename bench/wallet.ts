// Wallet latency as the ledger grows, on the embedded FerretDB (as tests and `npm start` run it):
// one wallet process, one gRPC client, sequential calls (latency, not throughput).
//
//   node --import=tsx/esm -e 'const { benchWallet } = await import("./bench/wallet.ts");
//     const { formatBenchLines } = await import("./bench/report.ts"); console.log(formatBenchLines(await benchWallet()))'
//
// Needs `npx tsc -b services/wallet` (the wallet runs from dist/) and `npm run build:db`. The
// baseline is the same debit on an empty ledger, measured in the same run on the same processes.
// Then ~20,000 entries are written straight into the database: the documents the wallet itself
// writes, for 100 accounts with round-robin histories, so that every account's latest entries sit
// near the end of the collection, as on a busy system. Then the debit is measured again, on a new
// account and on one of the filled ones, next to balance and profile reads and, with fewer samples,
// the paths that still scan. An audit of the whole ledger at the end checks that the filled entries
// are exactly what the wallet would have written.
import { Role } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { stopChildren } from "@pokerodds/launcher/child";
import { startFerretDB } from "@pokerodds/launcher/ferretdb";
import { freePorts } from "@pokerodds/launcher/ports";
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
import {
  claims,
  spawnWallet,
  waitForHealth,
  walletClient,
  type Wallet,
} from "../services/wallet/test/helpers/wallet-cluster.js";
import type { BenchLine } from "./report.js";

const FILLED_ACCOUNTS = 100;
const WARM_UP = 5;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(count: number, call: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i++) await call(-1 - i);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call(i);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** One-cent debits on one account, one after another; each answered `applied`. */
function debits(wallet: Wallet, playerId: string, count: number): Promise<number[]> {
  return timed(count, async (i) => {
    const { result } = await wallet.debit({
      movement: { playerId, amountCents: 1, idempotencyKey: `${playerId}-bench-${i}`, reason: "bench", reference: "" },
    });
    if (!result?.applied) throw new Error(`bench debit ${i} on ${playerId} was not applied`);
  });
}

/**
 * Writes `entries` ledger entries over FILLED_ACCOUNTS new accounts (welcome credit, then debits and
 * credits of 10.00 in turn), round-robin, in batches: what the wallet would have written, without
 * taking the wallet's time to write it.
 */
async function fillLedger(db: Db, entries: number): Promise<void> {
  const ledger = new LedgerStore(db);
  const players = new PlayerStore(db);
  const accounts = Array.from({ length: FILLED_ACCOUNTS }, (_, i) => `filled-${i}`);
  for (const playerId of accounts) {
    await players.insert(newPlayer({ playerId, username: "", displayName: playerId, role: "BASIC_USER" }, new Date()));
  }
  const heads = new Map<string, LedgerEntry>();
  let batch: LedgerEntry[] = [];
  for (let n = 0; n < entries; n++) {
    const playerId = accounts[n % FILLED_ACCOUNTS]!;
    const head = heads.get(playerId) ?? null;
    const request: MovementRequest = head
      ? {
          kind: head.sequence % 2 ? "debit" : "credit",
          playerId,
          amountCents: 1_000,
          idempotencyKey: `${playerId}-fill-${head.sequence + 1}`,
          reason: head.sequence % 2 ? "sit" : "payout",
          reference: "",
        }
      : welcomeRequest(playerId);
    const entry = nextEntry(head, request, new Date());
    heads.set(playerId, entry);
    batch.push(entry);
    if (batch.length === 1_000 || n === entries - 1) {
      await ledger.load(batch);
      batch = [];
    }
  }
  for (const { playerId, sequence } of heads.values()) await ledger.advanceHint(playerId, sequence);
}

export async function benchWallet({ entries = 20_000, samples = 100 } = {}): Promise<BenchLine[]> {
  const dataDir = await mkdtemp(join(tmpdir(), "pokerodds-bench-wallet-"));
  const log = await open(join(dataDir, "wallet.log"), "a");
  const database = await startFerretDB({ dataDir: join(dataDir, "db"), output: log.fd });
  const [port] = (await freePorts(1)) as [number];
  const server = spawnWallet(database.uri, port, log.fd);
  const mongo = new MongoClient(database.uri);
  let client: ReturnType<typeof walletClient> | undefined;
  try {
    await waitForHealth(port, "SERVING");
    client = walletClient(port);
    const wallet = client.call;
    const lines: BenchLine[] = [];
    const latency = (name: string, times: number[], baseline?: number): number => {
      const p50 = percentile(times, 50);
      lines.push(
        {
          name: `${name} p50`,
          value: p50,
          unit: "ms",
          ...(baseline && { ratio: { to: "empty", value: p50 / baseline } }),
        },
        { name: `${name} p99`, value: percentile(times, 99), unit: "ms" },
      );
      return p50;
    };

    await wallet.getProfile({ claims: claims("empty-ledger") });
    const empty = latency("Debit, empty ledger (baseline)", await debits(wallet, "empty-ledger", samples));

    await fillLedger(mongo.db("wallet"), entries);
    const size = `${(entries / 1000).toFixed(0)}k entries`;
    await wallet.getProfile({ claims: claims("new-account", Role.ROLE_PAYING_USER) });
    latency(`Debit, ${size}, new account`, await debits(wallet, "new-account", samples), empty);
    latency(`Debit, ${size}, account with history`, await debits(wallet, "filled-0", samples), empty);
    latency(`GetBalance, ${size}`, await timed(samples, () => wallet.getBalance({ playerId: "filled-1" })));
    latency(
      `GetProfile (existing, paying), ${size}`,
      await timed(samples, () => wallet.getProfile({ claims: claims("new-account", Role.ROLE_PAYING_USER) })),
    );

    // The paths that still query a field (rare, or not on a movement's way): few samples.
    const rare = Math.max(1, Math.round(samples / 10));
    latency(
      `Replay of a recent key that is no longer the latest entry, ${size}`,
      await timed(rare, async () => {
        // One of the measured debits near the end: its key is found near the end of the collection.
        const movement = { playerId: "new-account", amountCents: 1, reason: "bench", reference: "" };
        const idempotencyKey = `new-account-bench-${samples - 2}`;
        const { result } = await wallet.debit({ movement: { ...movement, idempotencyKey } });
        if (!result?.replayed) throw new Error("the bench replay was not a replay");
      }),
    );
    latency(
      `ListLedger, first page of 100, ${size}`,
      await timed(rare, () => wallet.listLedger({ playerId: "filled-3", afterSequence: 0, limit: 100 })),
    );

    const started = performance.now();
    const audit = await wallet.audit({});
    lines.push({
      name: `Audit of the whole ledger (${audit.entries} entries)`,
      value: performance.now() - started,
      unit: "ms",
    });
    if (!audit.clean) throw new Error(`the filled ledger does not audit clean: ${JSON.stringify(audit.issues)}`);
    return lines;
  } finally {
    client?.raw.close();
    await mongo.close();
    await stopChildren([[server], [database.child]], 5000);
    await log.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
