import {
  configOrExit,
  createLogger,
  logUncaughtErrors,
  ODDS_ACCESS,
  onShutdownSignal,
  readGrpcNetwork,
  startGrpcServer,
  startMetricsServer,
} from "@pokerodds/common";
import { OddsServiceService } from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { readConfig } from "./config.js";
import { OddsPool } from "./pool.js";
import { oddsService } from "./service.js";

const logger = createLogger("odds");
logUncaughtErrors(logger);
const { config, network } = configOrExit(logger, () => ({ config: readConfig(), network: readGrpcNetwork() }));

const pool = new OddsPool({ urgent: config.workers, batch: config.batchWorkers }, config.queueSize, logger);

const server = await startGrpcServer(
  {
    name: "pokerodds.odds.v1.OddsService",
    protoFile: "pokerodds/odds/v1/odds.proto",
    definition: OddsServiceService,
    implementation: oddsService(pool, logger),
  },
  {
    host: network.grpcHost,
    port: config.grpcPort,
    logger,
    tls: network.tls,
    access: ODDS_ACCESS,
    reflection: network.reflection,
    healthPort: network.healthPort,
    connectionsPerAddress: network.connectionsPerAddress,
  },
);
const metrics = await startMetricsServer(config.metrics, logger);
// No dependencies beyond its own worker threads: ready as soon as it listens.
server.setServing(true);
logger.info({ runners: pool.runners, batchPids: pool.batchPids }, "odds service ready");

onShutdownSignal(logger, async () => {
  await server.shutdown(5000);
  await pool.close();
  await metrics.close();
});
