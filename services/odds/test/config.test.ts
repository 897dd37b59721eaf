import { ConfigError } from "@pokerodds/common";
import test from "ava";
import { availableParallelism } from "node:os";
import { readConfig } from "../src/config.js";

test("defaults: the root README's ports and one worker per core", (t) => {
  t.deepEqual(readConfig({}), {
    grpcPort: 50051,
    metricsPort: 9465,
    workers: availableParallelism(),
    queueSize: 256,
  });
});

test("every variable is honoured, and a bad one stops the process", (t) => {
  t.deepEqual(readConfig({ GRPC_PORT: "7001", METRICS_PORT: "7002", ODDS_WORKERS: "3", ODDS_QUEUE_SIZE: "5" }), {
    grpcPort: 7001,
    metricsPort: 7002,
    workers: 3,
    queueSize: 5,
  });
  t.throws(() => readConfig({ ODDS_WORKERS: "0" }), { instanceOf: ConfigError });
  t.throws(() => readConfig({ ODDS_WORKERS: "257" }), { instanceOf: ConfigError });
  t.throws(() => readConfig({ GRPC_PORT: "-1" }), { instanceOf: ConfigError });
});
