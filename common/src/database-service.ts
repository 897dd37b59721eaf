// The life of a gRPC service whose every answer rests on the database (wallet, table): it starts
// even when the database is down, reports NOT_SERVING whenever the database cannot be reached and
// until its warm-up reads have run (and, under a key of its own, whether the database takes
// writes), runs nothing that writes before the set-up (the unique indexes that make writes safe)
// has run, and on a signal stops taking calls, then its background work, then its connections.
import type { UntypedServiceImplementation } from "@grpc/grpc-js";
import type { Db } from "mongodb";
import { configOrExit } from "./config.js";
import type { GrpcNetworkSettings, ServiceIdentity } from "./grpc/tls.js";
import { startGrpcServer, type RunningGrpcServer, type ServiceRegistration } from "./grpc/server.js";
import type { Logger } from "./logger.js";
import { startMetricsServer, type MetricsListen } from "./metrics.js";
import { openDatabase, type DatabaseSettings } from "./mongo.js";
import { onShutdownSignal } from "./shutdown.js";

interface DatabaseServiceParts {
  implementation: UntypedServiceImplementation;
  /** Background work, started once the set-up has run. */
  afterSetUp?: () => { stop(): Promise<void> };
  /**
   * Reads the service needs before it can answer within its deadlines, run once the set-up has
   * run; until they end, the service reports NOT_SERVING (so no readiness probe sends it calls).
   * A failed warm-up is logged and does not hold the service back: its calls read what it missed.
   */
  warmUp?: () => Promise<void>;
  /** Closes what the service opened besides the database (clients of other services). */
  close?: () => void;
  /**
   * Ends long-lived calls (watch streams) at once when the server stops taking calls, so their
   * clients move to another replica now rather than when the grace period cuts them.
   */
  endStreams?: () => void;
}

interface DatabaseServiceOptions {
  logger: Logger;
  service: Omit<ServiceRegistration, "implementation">;
  database: DatabaseSettings & { setUp: (db: Db) => Promise<void> };
  grpcPort: number;
  metrics: MetricsListen;
  /** Hosts, mutual TLS, reflection and the health port (readGrpcNetwork). */
  network: GrpcNetworkSettings;
  /** Who may call each RPC (access.ts). */
  access: Record<string, readonly ServiceIdentity[]>;
  /** Builds the service on the database; `isSetUp` says whether writes may run yet. */
  build: (db: Db, isSetUp: () => boolean) => DatabaseServiceParts;
}

export async function runDatabaseService(options: DatabaseServiceOptions): Promise<void> {
  const { logger } = options;
  // Assigned once it listens; the database may change status before that (read back below).
  let server: RunningGrpcServer | undefined = undefined;
  let [databaseUp, warm, shuttingDown] = [false, false, false];
  /** The last write probe's verdict; none before the first, so the key stays unknown until then. */
  let writable: boolean | undefined = undefined;
  const reportServing = () => server?.setServing(databaseUp && warm && !shuttingDown);
  // Reported apart from serving: a database that reads but cannot write still answers reads.
  const reportWritable = () => (writable === undefined ? undefined : server?.setDatabaseWritable(writable));
  // A URI the client may not use (plain text to another machine) stops the process like any bad setting.
  const database = configOrExit(logger, () =>
    openDatabase({
      ...options.database,
      logger,
      onStatusChange: (up) => {
        databaseUp = up;
        reportServing();
      },
      onWritableChange: (next) => {
        writable = next;
        reportWritable();
      },
    }),
  );
  let setUp = false;
  const parts = options.build(database.db, () => setUp);
  warm = parts.warmUp === undefined;
  server = await startGrpcServer(
    { ...options.service, implementation: parts.implementation },
    {
      host: options.network.grpcHost,
      port: options.grpcPort,
      logger,
      tls: options.network.tls,
      access: options.access,
      reflection: options.network.reflection,
      healthPort: options.network.healthPort,
      connectionsPerAddress: options.network.connectionsPerAddress,
    },
  );
  reportServing();
  reportWritable();
  const metrics = await startMetricsServer(options.metrics, logger);

  let background: { stop(): Promise<void> } | undefined;
  void database.ready.then(async () => {
    setUp = true;
    background = parts.afterSetUp?.();
    await parts.warmUp?.().catch((error: unknown) => logger.warn({ err: error }, "warm-up failed"));
    warm = true;
    reportServing();
  });

  onShutdownSignal(logger, async () => {
    shuttingDown = true;
    // shutdown() stops taking new calls first, so a client that subscribes again goes elsewhere.
    const stopping = server.shutdown(5000);
    parts.endStreams?.();
    await stopping;
    await background?.stop();
    parts.close?.();
    await metrics.close();
    await database.close();
  });
}
