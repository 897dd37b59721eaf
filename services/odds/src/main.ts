import { createLogger, onShutdownSignal, startGrpcServer, startMetricsServer } from "@pokerodds/common";
import { OddsServiceService } from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { readConfig } from "./config.js";
import { OddsPool } from "./pool.js";
import { oddsService } from "./service.js";

const logger = createLogger("odds");
const config = readConfig();

const pool = new OddsPool(config.workers);

const server = await startGrpcServer(
  {
    name: "pokerodds.odds.v1.OddsService",
    protoFile: "pokerodds/odds/v1/odds.proto",
    definition: OddsServiceService,
    implementation: oddsService(pool, logger),
  },
  { port: config.grpcPort, logger },
);
const metrics = await startMetricsServer(config.metricsPort, logger);
// No dependencies beyond its own worker threads: ready as soon as it listens.
server.setServing(true);
logger.info({ threads: pool.threads }, "odds service ready");

onShutdownSignal(logger, async () => {
  await server.shutdown(5000);
  await pool.close();
  await metrics.close();
});
