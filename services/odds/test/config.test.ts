import { ConfigError } from "@pokerodds/common";
import test from "ava";
import { availableParallelism } from "node:os";
import { readConfig } from "../src/config.js";

test("defaults: the root README's ports, one worker per core, bulk on one core fewer", (t) => {
  t.deepEqual(readConfig({}), {
    grpcPort: 50051,
    metrics: { port: 9465, host: "127.0.0.1" },
    workers: availableParallelism(),
    batchWorkers: Math.max(1, availableParallelism() - 1),
    queueSize: 256,
  });
});

test("every variable is honoured, and a bad one stops the process", (t) => {
  t.deepEqual(
    readConfig({
      GRPC_PORT: "7001",
      METRICS_PORT: "7002",
      ODDS_WORKERS: "3",
      ODDS_BATCH_WORKERS: "2",
      ODDS_QUEUE_SIZE: "5",
    }),
    { grpcPort: 7001, metrics: { port: 7002, host: "127.0.0.1" }, workers: 3, batchWorkers: 2, queueSize: 5 },
  );
  t.throws(() => readConfig({ ODDS_WORKERS: "0" }), { instanceOf: ConfigError });
  t.throws(() => readConfig({ ODDS_WORKERS: "257" }), { instanceOf: ConfigError });
  t.is(readConfig({ ODDS_WORKERS: "4" }).batchWorkers, 3, "bulk on one thread fewer than ODDS_WORKERS");
  t.is(readConfig({ ODDS_WORKERS: "1" }).batchWorkers, 1, "and on one at least");
  t.throws(() => readConfig({ ODDS_BATCH_WORKERS: "0" }), { instanceOf: ConfigError });
  t.throws(() => readConfig({ GRPC_PORT: "-1" }), { instanceOf: ConfigError });
});
