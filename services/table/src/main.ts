import { configOrExit, createLogger, logUncaughtErrors, TABLE_ACCESS, readGrpcNetwork } from "@pokerodds/common";
import { runDatabaseService } from "@pokerodds/common/database-service";
import { Slots } from "@pokerodds/common/slots";
import { TableServiceService } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { readConfig } from "./config.js";
import { connectOdds, connectWallet } from "./dependencies.js";
import { createIndexes } from "./indexes.js";
import type { TableParts } from "./parts.js";
import { startRecovery } from "./recovery.js";
import { sealAfterRestore } from "./restore-seal.js";
import { tableService } from "./service.js";
import { SnapshotStore } from "./snapshot-store.js";
import { TableDirectory } from "./table-directory.js";
import { TableWatchers } from "./table-watch.js";
import { TransferStore } from "./transfer-store.js";
import { setMaxListeners } from "node:events";

const logger = createLogger("table");
logUncaughtErrors(logger);
const { config, network } = configOrExit(logger, () => ({ config: readConfig(), network: readGrpcNetwork() }));

// The process holds no state that correctness depends on: the history's unique indexes and the
// wallet's idempotency keys decide everything, so any number of replicas behave like one.
// Wiring alike in wallet and table on purpose: runDatabaseService holds the life they share.
await runDatabaseService({
  logger,
  service: {
    name: "pokerodds.table.v1.TableService",
    protoFile: "pokerodds/table/v1/table.proto",
    definition: TableServiceService,
  },
  database: {
    ...config.database,
    // After a restore, every table is sealed before the first call is taken (restore-seal.ts).
    setUp: async (db) => {
      await createIndexes(db);
      if (config.restoredFrom !== undefined) await sealAfterRestore(db, config.restoredFrom, logger);
    },
  },
  grpcPort: config.grpcPort,
  metrics: config.metrics,
  network,
  access: TABLE_ACCESS,
  build: (db, isSetUp) => {
    const wallet = connectWallet(config.walletAddress);
    const odds = connectOdds(config.oddsAddress);
    const store = new SnapshotStore(db);
    const parts: TableParts = {
      store,
      transfers: new TransferStore(db),
      directory: new TableDirectory(store, wallet.port, config.tableCount),
      wallet: wallet.port,
      odds: odds.port,
      targetRtp: config.targetRtp,
      watchers: new TableWatchers(store, { pollIntervalMs: config.watchPollIntervalMs, logger }),
      logger,
    };
    const closing = new AbortController();
    // Every open WatchTable and ExportGames stream listens to it: as many as there are watched tables.
    setMaxListeners(0, closing.signal);
    return {
      implementation: tableService(parts, logger, {
        databaseReady: isSetUp,
        lobbyMaxAgeMs: config.lobbyMaxAgeMs,
        closing: closing.signal,
        streamsPerAddress: new Slots(0, config.maxStreamsPerAddress),
      }),
      endStreams: () => closing.abort(),
      afterSetUp: () =>
        startRecovery(parts, {
          intervalMs: config.recoveryIntervalMs,
          graceMs: config.recoveryGraceMs,
        }),
      warmUp: () => parts.directory.prime(),
      close: () => {
        wallet.close();
        odds.close();
      },
    };
  },
});
