// The real thing for the table service's integration tests: an embedded FerretDB in a fresh
// temporary directory, one odds and one wallet process, and any number of table service processes
// (replicas) on the same database, each reached through a real gRPC client. Table processes can
// be killed (SIGKILL, as a crash) and started again.
// Needs `npx tsc -b` and `npm run build:db` first.
import { TABLE_ACCESS, WALLET_ACCESS, type PromiseClient } from "@pokerodds/common";
import { TableServiceClient, type Caller } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { Role, WalletServiceClient } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { stopChildren, type Child } from "@pokerodds/launcher/child";
import { startFerretDB } from "@pokerodds/launcher/ferretdb";
import { MongoClient, type Db } from "mongodb";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startBackend } from "../../../../test/helpers/grpc-services.js";
import { policyClient } from "../../../../test/helpers/pki.js";
import type { GameRecord, TableSnapshot } from "../../src/domain/index.js";

export type Table = PromiseClient<TableServiceClient>;
export type Wallet = PromiseClient<WalletServiceClient>;

export interface TableReplica {
  port: number;
  client: Table;
  child: Child;
}

export interface TableCluster {
  wallet: Wallet;
  /** Running table replicas, in start order (a killed one is removed). */
  replicas: TableReplica[];
  /** The first running replica's client. */
  table(): Table;
  /** The table service's database, to look behind the service. */
  db: Db;
  walletDb: Db;
  /** Starts another table process (extra environment, e.g. a crash point) and waits until it serves. */
  startTable(env?: NodeJS.ProcessEnv): Promise<TableReplica>;
  /** SIGKILLs a table process, as a crash would, and waits until it is gone. */
  killTable(replica: TableReplica): Promise<void>;
  /** Stops the database (an outage for every service), and starts it again on its port and files. */
  stopDatabase(): Promise<void>;
  startDatabase(): Promise<void>;
  /** Freezes the database process (SIGSTOP), as a server that stalls: its commands wait until `resume`. */
  pauseDatabase(): { resume(): void };
  stop(): Promise<void>;
}

interface TableClusterOptions {
  tables?: number;
  /** Added to every table process's environment. */
  env?: NodeJS.ProcessEnv;
}

/** Recovery quickly, so that tests need not wait long for it. */
const FAST_RECOVERY = { TABLE_RECOVERY_INTERVAL_MS: "300", TABLE_RECOVERY_GRACE_MS: "1500" };

export async function startTableCluster(options: TableClusterOptions = {}): Promise<TableCluster> {
  const dataDir = await mkdtemp(join(tmpdir(), "pokerodds-table-"));
  // Below the ephemeral range, so a restart finds its port free (see launcher/src/stack.ts).
  let database = await startFerretDB({ dataDir, output: "inherit" });
  const mongo = new MongoClient(database.uri);
  const replicas: TableReplica[] = [];
  const children: Child[] = [];
  const dependencies: Child[] = [];
  const clients: { raw: { close(): void } }[] = [];
  const stop = async () => {
    for (const client of clients) client.raw.close();
    await mongo.close();
    await stopChildren([children, dependencies, [database.child]], 5000);
    await rm(dataDir, { recursive: true, force: true });
  };
  const startDependency = async (...args: Parameters<typeof startBackend>) => {
    const started = await startBackend(...args);
    dependencies.push(started.child);
    return started.port;
  };

  let oddsPort = 0;
  let walletPort = 0;
  const startTable = async (env: NodeJS.ProcessEnv = {}): Promise<TableReplica> => {
    const { port, child } = await startBackend("table", {
      MONGODB_URI: database.uri,
      MONGODB_DATABASE: "table",
      ODDS_ADDR: `127.0.0.1:${oddsPort}`,
      WALLET_ADDR: `127.0.0.1:${walletPort}`,
      TABLE_COUNT: "20",
      ...FAST_RECOVERY,
      ...options.env,
      ...env,
    });
    children.push(child);
    const client = policyClient(TableServiceClient, TABLE_ACCESS, `127.0.0.1:${port}`, { defaultDeadlineMs: 30_000 });
    clients.push(client);
    const replica = { port, client: client.call, child };
    replicas.push(replica);
    return replica;
  };

  try {
    oddsPort = await startDependency("odds", { ODDS_WORKERS: "1" });
    walletPort = await startDependency("wallet", { MONGODB_URI: database.uri, MONGODB_DATABASE: "wallet" });
    for (let i = 0; i < (options.tables ?? 1); i++) await startTable();
  } catch (error) {
    await stop();
    throw error;
  }
  const walletClient = policyClient(WalletServiceClient, WALLET_ACCESS, `127.0.0.1:${walletPort}`, {
    defaultDeadlineMs: 30_000,
  });
  clients.push(walletClient);

  return {
    wallet: walletClient.call,
    replicas,
    table: () => replicas[0]!.client,
    db: mongo.db("table"),
    walletDb: mongo.db("wallet"),
    startTable,
    killTable: async (replica) => {
      replica.child.kill("SIGKILL");
      await replica.child.exited;
      replicas.splice(replicas.indexOf(replica), 1);
    },
    stopDatabase: () => database.stop(),
    startDatabase: async () => {
      database = await startFerretDB({ dataDir, output: "inherit" });
    },
    pauseDatabase: () => {
      const paused = database.child;
      paused.kill("SIGSTOP");
      return { resume: () => paused.kill("SIGCONT") };
    },
    stop,
  };
}

export const admin = (playerId = "admin"): Caller => ({ playerId, role: Role.ROLE_ADMIN });

/** Creates the player (welcome credit: 100,000 cents) and answers the caller acting for them. */
export async function newPlayer(cluster: TableCluster, playerId: string, role = Role.ROLE_BASIC_USER): Promise<Caller> {
  await cluster.wallet.getProfile({
    claims: { playerId, username: `${playerId}@example.com`, displayName: `Player ${playerId}`, role },
  });
  return { playerId, role };
}

export async function balanceOf(cluster: TableCluster, playerId: string): Promise<number> {
  return (await cluster.wallet.getBalance({ playerId })).accountBalanceCents;
}

/**
 * The global money check: every account balance plus, on the tables, seats, open stakes, owed
 * credits and the house result equals the welcome credits plus deposits minus withdrawals.
 */
export async function moneyCheck(cluster: TableCluster): Promise<{ conserved: boolean; detail: object }> {
  const walletAudit = await cluster.wallet.audit({});
  const tableAudit = await cluster.table().audit({ caller: admin() });
  const w = walletAudit.totals!;
  const t = tableAudit.totals!;
  const held = w.balancesCents + t.seatsCents + t.openStakesCents + t.outboxCents + t.houseResultCents;
  const given = w.welcomeCreditsCents + w.depositsCents - w.withdrawalsCents;
  return {
    conserved: held === given && walletAudit.clean && tableAudit.conserved && tableAudit.openTransfers.length === 0,
    detail: { held, given, wallet: w, tables: t, open: tableAudit.openTransfers, walletClean: walletAudit.clean },
  };
}

/** The record of every finished game, read behind the service from the stored changes that finished them. */
export async function finishedGames(cluster: TableCluster): Promise<GameRecord[]> {
  // A version is kept in full or as its changes (src/stored-version.ts): its record is in either.
  const changes = await cluster.db
    .collection<{ snapshot?: TableSnapshot; changes?: Partial<TableSnapshot> }>("history")
    .find({
      key: { $exists: true },
      $or: [{ "snapshot.finishedGame": { $ne: null } }, { "changes.finishedGame": { $ne: null } }],
    })
    .toArray();
  return changes.map((change) => (change.snapshot ?? change.changes)!.finishedGame!);
}
