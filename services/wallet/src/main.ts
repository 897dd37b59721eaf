import { createLogger, envPort, envString, onShutdownSignal, startGrpcServer } from "@pokerodds/common";
import { WalletServiceService } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { openDatabase } from "@pokerodds/common/mongo";
import { createIndexes } from "./indexes.js";

const logger = createLogger("wallet");

const port = envPort("GRPC_PORT", 50052);
// The money RPCs arrive with the next milestone; grpc-js answers UNIMPLEMENTED for them until then.
const server = await startGrpcServer(
  {
    name: "pokerodds.wallet.v1.WalletService",
    protoFile: "pokerodds/wallet/v1/wallet.proto",
    definition: WalletServiceService,
    implementation: {},
  },
  { port, logger },
);
const database = openDatabase({
  uri: envString("MONGODB_URI", "mongodb://127.0.0.1:27017/"),
  name: envString("MONGODB_DATABASE", "wallet"),
  logger,
  setUp: createIndexes,
  onStatusChange: (up) => server.setServing(up),
});

onShutdownSignal(logger, async () => {
  await server.shutdown(5000);
  await database.close();
});
