import { ConfigError } from "@pokerodds/common";
import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import test from "ava";
import { readConfig } from "../src/config.js";

test("defaults: the root README's ports, 20 public tables, RTP 0.97", (t) => {
  t.like(readConfig({}), {
    grpcPort: 50053,
    metrics: { port: 9467, host: "127.0.0.1" },
    database: { uri: "mongodb://127.0.0.1:27017/", name: "table", allowPlaintext: false },
    oddsAddress: "127.0.0.1:50051",
    walletAddress: "127.0.0.1:50052",
    tableCount: 20,
    targetRtp: 0.97,
    maxStreamsPerAddress: 1_200,
  });
});

test("TABLE_MAX_STREAMS_PER_ADDRESS: a whole number, 0 for no cap", (t) => {
  t.is(readConfig({ TABLE_MAX_STREAMS_PER_ADDRESS: "0" }).maxStreamsPerAddress, 0);
  t.is(readConfig({ TABLE_MAX_STREAMS_PER_ADDRESS: "5000" }).maxStreamsPerAddress, 5_000);
  for (const raw of ["-1", "1.5", "many", "1000001"]) {
    t.throws(() => readConfig({ TABLE_MAX_STREAMS_PER_ADDRESS: raw }), { instanceOf: ConfigError }, raw);
  }
});

test("public tables end before the first personal table", (t) => {
  t.is(readConfig({ TABLE_COUNT: String(FIRST_PERSONAL_TABLE_ID - 1) }).tableCount, FIRST_PERSONAL_TABLE_ID - 1);
  t.throws(() => readConfig({ TABLE_COUNT: String(FIRST_PERSONAL_TABLE_ID) }), { instanceOf: ConfigError });
  t.throws(() => readConfig({ TABLE_COUNT: "0" }), { instanceOf: ConfigError });
});

test("the target RTP is a number from 0.05 to 1 (exclusive)", (t) => {
  t.is(readConfig({ TABLE_TARGET_RTP: "0.9" }).targetRtp, 0.9);
  t.is(readConfig({ TABLE_TARGET_RTP: "0.05" }).targetRtp, 0.05);
  // Below it a certain winner shows odds 0, which the table refuses: it could deal no game.
  for (const raw of ["0", "0.0499", "0.01", "1", "1.5", "-0.5", "abc", "0.9x"]) {
    t.throws(() => readConfig({ TABLE_TARGET_RTP: raw }), { instanceOf: ConfigError }, raw);
  }
});

test("TABLE_RESTORED_FROM names a backup in a few safe characters; unset or empty, no restore", (t) => {
  t.is(readConfig({}).restoredFrom, undefined);
  t.is(readConfig({ TABLE_RESTORED_FROM: "" }).restoredFrom, undefined);
  t.is(readConfig({ TABLE_RESTORED_FROM: "nightly-2026-12-05T03:00Z" }).restoredFrom, "nightly-2026-12-05T03:00Z");
  for (const raw of ["a b", "x".repeat(65), "a/b", "ä", " nightly"]) {
    t.throws(() => readConfig({ TABLE_RESTORED_FROM: raw }), { instanceOf: ConfigError }, raw);
  }
});
