import { ConfigError } from "@pokerodds/common";
import test from "ava";
import { readConfig } from "../src/config.js";

test("defaults: the root README's ports and a local MongoDB's wallet database", (t) => {
  t.deepEqual(readConfig({}), {
    grpcPort: 50052,
    metricsPort: 9466,
    mongodbUri: "mongodb://127.0.0.1:27017/",
    mongodbDatabase: "wallet",
    mongodbAllowPlaintext: false,
  });
});

test("every variable is honoured, and a bad one stops the process", (t) => {
  t.deepEqual(
    readConfig({
      GRPC_PORT: "7001",
      METRICS_PORT: "7002",
      MONGODB_URI: "mongodb://db.example:27017/",
      MONGODB_DATABASE: "w",
      MONGODB_ALLOW_PLAINTEXT: "1",
    }),
    {
      grpcPort: 7001,
      metricsPort: 7002,
      mongodbUri: "mongodb://db.example:27017/",
      mongodbDatabase: "w",
      mongodbAllowPlaintext: true,
    },
  );
  t.throws(() => readConfig({ MONGODB_ALLOW_PLAINTEXT: "yes" }), { instanceOf: ConfigError });
  t.throws(() => readConfig({ GRPC_PORT: "70000" }), { instanceOf: ConfigError });
  t.throws(() => readConfig({ METRICS_PORT: "x" }), { instanceOf: ConfigError });
});
