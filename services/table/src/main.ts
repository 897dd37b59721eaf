import { createLogger, envPort, envString, onShutdownSignal, startGrpcServer } from "@pokerodds/common";
import { TableServiceService } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { openDatabase } from "@pokerodds/common/mongo";
import { createIndexes } from "./indexes.js";

const logger = createLogger("table");

const port = envPort("GRPC_PORT", 50053);
// The money RPCs arrive with the next milestone; grpc-js answers UNIMPLEMENTED for them until then.
const server = await startGrpcServer(
  {
    name: "pokerodds.table.v1.TableService",
    protoFile: "pokerodds/table/v1/table.proto",
    definition: TableServiceService,
    implementation: {},
  },
  { port, logger },
);
const database = openDatabase({
  uri: envString("MONGODB_URI", "mongodb://127.0.0.1:27017/"),
  name: envString("MONGODB_DATABASE", "table"),
  logger,
  setUp: createIndexes,
  onStatusChange: (up) => server.setServing(up),
});

onShutdownSignal(logger, async () => {
  await server.shutdown(5000);
  await database.close();
});
