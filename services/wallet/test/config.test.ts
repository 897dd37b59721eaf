import { ConfigError } from "@pokerodds/common";
import test from "ava";
import { readConfig } from "../src/config.js";

test("defaults: the root README's ports and a local MongoDB's wallet database", (t) => {
  t.deepEqual(readConfig({}), {
    grpcPort: 50052,
    metrics: { port: 9466, host: "127.0.0.1" },
    database: { uri: "mongodb://127.0.0.1:27017/", name: "wallet", allowPlaintext: false },
  });
});

test("every variable is honoured, and a bad one stops the process", (t) => {
  t.deepEqual(
    readConfig({
      GRPC_PORT: "7001",
      METRICS_PORT: "7002",
      METRICS_HOST: "0.0.0.0",
      MONGODB_URI: "mongodb://db.example:27017/",
      MONGODB_DATABASE: "w",
      MONGODB_ALLOW_PLAINTEXT: "1",
    }),
    {
      grpcPort: 7001,
      metrics: { port: 7002, host: "0.0.0.0" },
      database: { uri: "mongodb://db.example:27017/", name: "w", allowPlaintext: true },
    },
  );
  t.throws(() => readConfig({ MONGODB_ALLOW_PLAINTEXT: "yes" }), { instanceOf: ConfigError });
  t.throws(() => readConfig({ GRPC_PORT: "70000" }), { instanceOf: ConfigError });
  t.throws(() => readConfig({ METRICS_PORT: "x" }), { instanceOf: ConfigError });
});
