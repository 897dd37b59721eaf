import {
  createLogger,
  onShutdownSignal,
  startGrpcServer,
  startMetricsServer,
  type RunningGrpcServer,
} from "@pokerodds/common";
import { TableServiceService } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { openDatabase } from "@pokerodds/common/mongo";
import { readConfig } from "./config.js";
import { connectOdds, connectWallet } from "./dependencies.js";
import { createIndexes } from "./indexes.js";
import type { TableParts } from "./parts.js";
import { startRecovery } from "./recovery.js";
import { tableService } from "./service.js";
import { SnapshotStore } from "./snapshot-store.js";
import { TableDirectory } from "./table-directory.js";
import { TransferStore } from "./transfer-store.js";

const logger = createLogger("table");
const config = readConfig();

// The process holds no state that correctness depends on: the archive's unique indexes and the
// wallet's idempotency keys decide everything, so any number of replicas behave like one.
let server: RunningGrpcServer | undefined = undefined;
const database = openDatabase({
  uri: config.mongodbUri,
  name: config.mongodbDatabase,
  logger,
  setUp: createIndexes,
  onStatusChange: (up) => server?.setServing(up),
});
// No write may run before the unique index exists: it is what makes writes safe.
let indexesCreated = false;

const wallet = connectWallet(config.walletAddress);
const odds = connectOdds(config.oddsAddress, config.targetRtp);
const store = new SnapshotStore(database.db);
const parts: TableParts = {
  store,
  transfers: new TransferStore(database.db),
  directory: new TableDirectory(store, wallet.port, config.tableCount),
  wallet: wallet.port,
  odds: odds.port,
  logger,
};

server = await startGrpcServer(
  {
    name: "pokerodds.table.v1.TableService",
    protoFile: "pokerodds/table/v1/table.proto",
    definition: TableServiceService,
    implementation: tableService(parts, logger, () => indexesCreated),
  },
  { port: config.grpcPort, logger },
);
server.setServing(database.isUp());
const metrics = await startMetricsServer(config.metricsPort, logger);

let recovery: { stop(): Promise<void> } | undefined;
void database.ready.then(() => {
  indexesCreated = true;
  recovery = startRecovery(parts, { intervalMs: config.recoveryIntervalMs, graceMs: config.recoveryGraceMs });
});

onShutdownSignal(logger, async () => {
  await server?.shutdown(5000);
  await recovery?.stop();
  wallet.close();
  odds.close();
  await metrics.close();
  await database.close();
});
