import {
  createLogger,
  onShutdownSignal,
  startGrpcServer,
  startMetricsServer,
  type RunningGrpcServer,
} from "@pokerodds/common";
import { WalletServiceService } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { openDatabase } from "@pokerodds/common/mongo";
import { readConfig } from "./config.js";
import { createIndexes } from "./indexes.js";
import { LedgerStore } from "./ledger-store.js";
import { Movements } from "./movements.js";
import { PersonalTableStore } from "./personal-table-store.js";
import { PlayerStore } from "./player-store.js";
import { walletService } from "./service.js";

const logger = createLogger("wallet");
const config = readConfig();

// The process holds no state that correctness depends on: every decision is made by the database's
// unique indexes, so any number of replicas behave exactly like one (Movements' per-account queue
// only spares a replica's own requests from racing each other).
// Assigned once it listens; the database may change status before that (read back below).
let server: RunningGrpcServer | undefined = undefined;
const database = openDatabase({
  uri: config.mongodbUri,
  name: config.mongodbDatabase,
  logger,
  setUp: createIndexes,
  onStatusChange: (up) => server?.setServing(up),
});
// No write may run before the unique indexes exist: they are what makes writes safe.
let indexesCreated = false;
void database.ready.then(() => (indexesCreated = true));

const ledger = new LedgerStore(database.db);
const wallet = {
  players: new PlayerStore(database.db),
  personalTables: new PersonalTableStore(database.db),
  ledger,
  movements: new Movements(ledger),
};
server = await startGrpcServer(
  {
    name: "pokerodds.wallet.v1.WalletService",
    protoFile: "pokerodds/wallet/v1/wallet.proto",
    definition: WalletServiceService,
    implementation: walletService(wallet, logger, () => indexesCreated),
  },
  { port: config.grpcPort, logger },
);
server.setServing(database.isUp());
const metrics = await startMetricsServer(config.metricsPort, logger);

onShutdownSignal(logger, async () => {
  await server?.shutdown(5000);
  await database.close();
  await metrics.close();
});
