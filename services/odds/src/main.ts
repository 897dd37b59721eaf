import {
  createLogger,
  envInt,
  envPort,
  onShutdownSignal,
  startGrpcServer,
  startMetricsServer,
} from "@pokerodds/common";
import { OddsServiceService } from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { availableParallelism } from "node:os";
import { OddsPool } from "./pool.js";
import { oddsService } from "./service.js";

const logger = createLogger("odds");

const port = envPort("GRPC_PORT", 50051);
const pool = new OddsPool(envInt("ODDS_WORKERS", availableParallelism(), { min: 1, max: 256 }));

const server = await startGrpcServer(
  {
    name: "pokerodds.odds.v1.OddsService",
    protoFile: "pokerodds/odds/v1/odds.proto",
    definition: OddsServiceService,
    implementation: oddsService(pool, logger),
  },
  { port, logger },
);
const metrics = await startMetricsServer(envPort("METRICS_PORT", 9465), logger);
// No dependencies beyond its own worker threads: ready as soon as it listens.
server.setServing(true);
logger.info({ threads: pool.threads }, "odds service ready");

onShutdownSignal(logger, async () => {
  await server.shutdown(5000);
  await pool.close();
  await metrics.close();
});
