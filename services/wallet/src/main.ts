import { configOrExit, createLogger, logUncaughtErrors, WALLET_ACCESS, readGrpcNetwork } from "@pokerodds/common";
import { runDatabaseService } from "@pokerodds/common/database-service";
import { WalletServiceService } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { readConfig } from "./config.js";
import { createIndexes } from "./indexes.js";
import { walletParts } from "./profiles.js";
import { walletService } from "./service.js";

const logger = createLogger("wallet");
logUncaughtErrors(logger);
const { config, network } = configOrExit(logger, () => ({ config: readConfig(), network: readGrpcNetwork() }));

// The process holds no state that correctness depends on: every decision is made by the database's
// unique indexes, so any number of replicas behave exactly like one (Movements' per-account queue
// only spares a replica's own requests from racing each other, and the ledger's cache of each
// account's latest entry only decides where reading starts).
// Wiring alike in wallet and table on purpose: runDatabaseService holds the life they share.
await runDatabaseService({
  logger,
  service: {
    name: "pokerodds.wallet.v1.WalletService",
    protoFile: "pokerodds/wallet/v1/wallet.proto",
    definition: WalletServiceService,
  },
  database: {
    ...config.database,
    setUp: createIndexes,
  },
  grpcPort: config.grpcPort,
  metrics: config.metrics,
  network,
  access: WALLET_ACCESS,
  build: (db, isSetUp) => ({ implementation: walletService(walletParts(db), logger, isSetUp) }),
});
