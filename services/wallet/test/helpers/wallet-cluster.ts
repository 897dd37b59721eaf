// A real wallet for integration tests: an embedded FerretDB in a fresh temporary directory and one
// or more wallet server processes (replicas) on it, each reached through a real gRPC client.
// Needs `npx tsc -b` (services/wallet/dist) and `npm run build:db` first.
import { HealthChecker, WALLET_ACCESS, type PromiseClient } from "@pokerodds/common";
import { Role, WalletServiceClient, type Claims } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { stopChildren, type Child, type Output } from "@pokerodds/launcher/child";
import { startFerretDB } from "@pokerodds/launcher/ferretdb";
import { freePorts } from "@pokerodds/launcher/ports";
import { MongoClient, type Db } from "mongodb";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { spawnBackend } from "../../../../test/helpers/grpc-services.js";
import { policyClient, tlsAs } from "../../../../test/helpers/pki.js";

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
  const ports = await freePorts(replicaCount);
  const servers = ports.map((port) => spawnWallet(database.uri, port));
  const mongo = new MongoClient(database.uri);
  const clients: WalletClient[] = [];
  const stop = async () => {
    for (const client of clients) client.raw.close();
    await mongo.close();
    await stopChildren([servers, [database.child]], 5000);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      await waitForHealth(port, "SERVING");
      clients.push(walletClient(port));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const replicas = clients.map((client) => client.call);
  return { replicas, wallet: replicas[0]!, db: mongo.db(DATABASE), stop };
}

/** A wallet server process (the compiled dist/main.js) on 127.0.0.1:port. */
export function spawnWallet(mongodbUri: string, port: number, output: Output = "inherit"): Child {
  return spawnBackend("wallet", port, { MONGODB_URI: mongodbUri, MONGODB_DATABASE: DATABASE }, output);
}

export type WalletClient = ReturnType<typeof walletClient>;

/** Each RPC called as a service allowed to call it (mutual TLS with the test CA). */
export function walletClient(port: number) {
  return policyClient(WalletServiceClient, WALLET_ACCESS, `127.0.0.1:${port}`, { defaultDeadlineMs: 30_000 });
}

/** Waits until the wallet on `port` answers its health check with `wanted`. */
export async function waitForHealth(
  port: number,
  wanted: "SERVING" | "NOT_SERVING",
  timeoutMs = 20_000,
): Promise<void> {
  const health = new HealthChecker(`127.0.0.1:${port}`, tlsAs("gateway"), "wallet");
  try {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
      if ((await health.check("pokerodds.wallet.v1.WalletService")) === wanted) return;
    }
    throw new Error(`the wallet on port ${port} did not report ${wanted} within ${timeoutMs} ms`);
  } finally {
    health.close();
  }
}

export function claims(playerId: string, role: Role = Role.ROLE_BASIC_USER): Claims {
  return { playerId, username: `${playerId}@example.com`, displayName: `Player ${playerId}`, role };
}

/** A gRPC failure's status code (undefined if the call succeeded). */
export async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return (error as { code?: number }).code;
  }
}
