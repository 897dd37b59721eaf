// A real wallet for integration tests: an embedded FerretDB in a fresh temporary directory and one
// or more wallet server processes (replicas) on it, each reached through a real gRPC client.
// Needs `npx tsc -b` (services/wallet/dist) and `npm run build:db` first.
import { WALLET_ACCESS, type PromiseClient } from "@pokerodds/common";
import { Role, WalletServiceClient, type Claims } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { stopChildren, type Child, type Output } from "@pokerodds/launcher/child";
import { startFerretDB } from "@pokerodds/launcher/ferretdb";
import { MongoClient, type Db } from "mongodb";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnBackend, startBackend } from "../../../../test/helpers/grpc-services.js";
import { policyClient } from "../../../../test/helpers/pki.js";

export type Wallet = PromiseClient<WalletServiceClient>;

export interface WalletCluster {
  /** One client per replica, in start order. */
  replicas: Wallet[];
  /** The first replica's client. */
  wallet: Wallet;
  /** The wallet's own database, for looking behind the service (and tampering with it). */
  db: Db;
  stop(): Promise<void>;
}

const DATABASE = "wallet";

export async function startWalletCluster(replicaCount = 1): Promise<WalletCluster> {
  const dataDir = await mkdtemp(join(tmpdir(), "pokerodds-wallet-"));
  const database = await startFerretDB({ dataDir, output: "inherit" });
  // Commands monitored: a test may look at what a read sends.
  const mongo = new MongoClient(database.uri, { monitorCommands: true });
  const servers: Child[] = [];
  const clients: WalletClient[] = [];
  const stop = async () => {
    for (const client of clients) client.raw.close();
    await mongo.close();
    await stopChildren([servers, [database.child]], 5000);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < replicaCount; i++) {
      const { port, child } = await startWallet(database.uri);
      servers.push(child);
      clients.push(walletClient(port));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const replicas = clients.map((client) => client.call);
  return { replicas, wallet: replicas[0]!, db: mongo.db(DATABASE), stop };
}

const walletEnv = (mongodbUri: string) => ({ MONGODB_URI: mongodbUri, MONGODB_DATABASE: DATABASE });

/** A wallet server process (the compiled dist/main.js) on 127.0.0.1:port, not waited for. */
export function spawnWallet(mongodbUri: string, port: number, output: Output = "inherit"): Child {
  return spawnBackend("wallet", port, walletEnv(mongodbUri), output);
}

/** A wallet server process on a free port, once it serves. */
export function startWallet(mongodbUri: string, output: Output = "inherit"): Promise<{ port: number; child: Child }> {
  return startBackend("wallet", walletEnv(mongodbUri), output);
}

type WalletClient = ReturnType<typeof walletClient>;

/** Each RPC called as a service allowed to call it (mutual TLS with the test CA). */
export function walletClient(port: number, settings: { longCalls?: boolean } = {}) {
  return policyClient(WalletServiceClient, WALLET_ACCESS, `127.0.0.1:${port}`, {
    defaultDeadlineMs: 30_000,
    ...settings,
  });
}

export function claims(playerId: string, role: Role = Role.ROLE_BASIC_USER): Claims {
  return { playerId, username: `${playerId}@example.com`, displayName: `Player ${playerId}`, role };
}
